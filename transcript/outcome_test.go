package transcript_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// TestOutcomeRules holds the transcript's outcome to its rules on event
// sequences in the shapes providers emit: the last turn's end signal when
// nothing of the conversation follows it, truncated for a log cut mid-call
// or on an unreadable last line, unknown without a signal.
func TestOutcomeRules(t *testing.T) {
	line := int64(0)
	ev := func(kind string, f func(*agt.Event)) agt.Event {
		line++
		e := agt.Event{Session: "s", Stream: agt.StreamMain, Kind: kind, ID: "e" + string(rune('a'+line)), Src: agt.Src{Path: "s.jsonl", Line: line}}
		switch kind {
		case agt.KindUser, agt.KindAssistant, agt.KindSystem:
			e.Text = agt.String("text")
		case agt.KindMeta:
			e.Meta = &agt.Meta{Type: "m"}
		}
		if f != nil {
			f(&e)
		}
		return e
	}
	user := func() agt.Event { return ev(agt.KindUser, nil) }
	say := func() agt.Event { return ev(agt.KindAssistant, nil) }
	call := func(id string) agt.Event {
		return ev(agt.KindToolCall, func(e *agt.Event) { e.ID = id; e.Tool = &agt.Tool{ID: id, Name: "Bash"} })
	}
	result := func(id string) agt.Event {
		return ev(agt.KindToolResult, func(e *agt.Event) { e.Result = &agt.Result{ID: id, Call: id} })
	}
	signal := func(kind, status, reason string) agt.Event {
		return ev(kind, func(e *agt.Event) {
			e.Meta = &agt.Meta{Type: "result", Outcome: &agt.Outcome{Status: status, Reason: reason}}
		})
	}
	bad := func() agt.Event {
		return ev(agt.KindError, func(e *agt.Event) { e.Error = &agt.Error{Message: "not JSON", LineText: `{"type":"assis`} })
	}
	cases := []struct {
		name   string
		evs    []agt.Event
		status string
		reason string
		errors int
	}{
		{"no signal", []agt.Event{user(), say()}, agt.OutcomeUnknown, "", 0},
		{"success", []agt.Event{user(), say(), signal(agt.KindMeta, agt.OutcomeSuccess, "success")}, agt.OutcomeSuccess, "success", 0},
		{"max turns", []agt.Event{user(), call("c1"), result("c1"), signal(agt.KindSystem, agt.OutcomeMaxTurns, "error_max_turns")}, agt.OutcomeMaxTurns, "error_max_turns", 1},
		{"the signal is the last message", []agt.Event{user(), signal(agt.KindAssistant, agt.OutcomeError, "API Error: 400")}, agt.OutcomeError, "API Error: 400", 1},
		{"a later signal wins", []agt.Event{user(), signal(agt.KindSystem, agt.OutcomeError, "Reconnecting... 1/5"), say(), signal(agt.KindMeta, agt.OutcomeSuccess, "turn.completed")}, agt.OutcomeSuccess, "turn.completed", 1},
		{"a new prompt clears the last turn's", []agt.Event{user(), signal(agt.KindSystem, agt.OutcomeInterrupted, "[Request interrupted by user]"), user(), say()}, agt.OutcomeUnknown, "", 0},
		{"conversation after the signal", []agt.Event{user(), signal(agt.KindSystem, agt.OutcomeError, "model metadata not found"), say()}, agt.OutcomeUnknown, "", 1},
		{"cut mid-call", []agt.Event{user(), say(), call("c1")}, agt.OutcomeTruncated, "the log ends in a tool call with no result", 0},
		{"cut mid-call, parallel calls", []agt.Event{user(), call("c1"), call("c2"), result("c1")}, agt.OutcomeTruncated, "the log ends in a tool call with no result", 0},
		{"the call answered", []agt.Event{user(), call("c1"), result("c1")}, agt.OutcomeUnknown, "", 0},
		{"a signal after the open call", []agt.Event{user(), call("c1"), signal(agt.KindSystem, agt.OutcomeError, "turn failed")}, agt.OutcomeError, "turn failed", 1},
		{"interrupted", []agt.Event{user(), call("c1"), signal(agt.KindSystem, agt.OutcomeInterrupted, "[Request interrupted by user for tool use]")}, agt.OutcomeInterrupted, "[Request interrupted by user for tool use]", 0},
		{"unreadable last line", []agt.Event{user(), say(), signal(agt.KindMeta, agt.OutcomeSuccess, "success"), bad()}, agt.OutcomeTruncated, "the log's last line could not be read: not JSON", 1},
		{"an error restated is one", []agt.Event{user(), signal(agt.KindSystem, agt.OutcomeError, "Reconnecting... 1/5"), signal(agt.KindSystem, agt.OutcomeError, "stream disconnected"), signal(agt.KindSystem, agt.OutcomeError, "turn failed")}, agt.OutcomeError, "turn failed", 1},
		{"an error message after its retries is one", []agt.Event{user(), signal(agt.KindSystem, agt.OutcomeError, "overloaded"), signal(agt.KindSystem, agt.OutcomeError, "overloaded"), signal(agt.KindAssistant, agt.OutcomeError, "API Error: 529")}, agt.OutcomeError, "API Error: 529", 1},
		{"errors apart count apart", []agt.Event{user(), signal(agt.KindSystem, agt.OutcomeError, "API Error"), user(), say(), signal(agt.KindSystem, agt.OutcomeError, "API Error")}, agt.OutcomeError, "API Error", 2},
		{"unreadable line amid", []agt.Event{user(), bad(), say(), signal(agt.KindMeta, agt.OutcomeSuccess, "success")}, agt.OutcomeSuccess, "success", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := consolidateEvents(t, c.evs)
			want := transcript.Outcome{Status: c.status, Reason: c.reason, Errors: c.errors}
			if tr.Outcome != want {
				t.Errorf("outcome %+v, want %+v", tr.Outcome, want)
			}
		})
	}
}

// TestSubagentOutcome gives a subagent stream its own outcome, and the
// session the errors of all its streams.
func TestSubagentOutcome(t *testing.T) {
	evs := []agt.Event{
		{Session: "s", Stream: agt.StreamMain, Kind: agt.KindUser, ID: "u", Text: agt.String("go"), Src: agt.Src{Path: "s.jsonl", Line: 1}},
		{Session: "s", Stream: "sidechain:a", Kind: agt.KindSystem, ID: "x", Text: agt.String("API Error"), Meta: &agt.Meta{Type: "assistant", Outcome: &agt.Outcome{Status: agt.OutcomeError, Reason: "API Error"}}, Src: agt.Src{Path: "s.jsonl", Line: 2}},
		{Session: "s", Stream: agt.StreamMain, Kind: agt.KindAssistant, ID: "a", Text: agt.String("done"), Src: agt.Src{Path: "s.jsonl", Line: 3}},
		{Session: "s", Stream: agt.StreamMain, Kind: agt.KindMeta, ID: "r", Meta: &agt.Meta{Type: "result", Outcome: &agt.Outcome{Status: agt.OutcomeSuccess, Reason: "success"}}, Src: agt.Src{Path: "s.jsonl", Line: 4}},
	}
	tr := consolidateEvents(t, evs)
	if want := (transcript.Outcome{Status: agt.OutcomeSuccess, Reason: "success", Errors: 1}); tr.Outcome != want {
		t.Errorf("session outcome %+v, want %+v", tr.Outcome, want)
	}
	if len(tr.Subagents) != 1 {
		t.Fatalf("%d subagents", len(tr.Subagents))
	}
	if want := (transcript.Outcome{Status: agt.OutcomeError, Reason: "API Error", Errors: 1}); tr.Subagents[0].Outcome != want {
		t.Errorf("subagent outcome %+v, want %+v", tr.Subagents[0].Outcome, want)
	}
}

// TestCorpusOutcomes checks that every corpus transcript, and each of its
// subagents, says how it ended with one of the statuses (and that the
// transcript fits the schema), and logs how many say each.
func TestCorpusOutcomes(t *testing.T) {
	dir := providertest.CorpusDir(t)
	ts, _ := consolidate(t, provider.Config{}, dir)
	valid := map[string]bool{agt.OutcomeSuccess: true, agt.OutcomeError: true, agt.OutcomeMaxTurns: true,
		agt.OutcomeInterrupted: true, agt.OutcomeTruncated: true, agt.OutcomeUnknown: true}
	count := map[string]int{}
	for _, tr := range ts {
		validTranscript(t, tr)
		count[tr.Outcome.Status]++
		if !valid[tr.Outcome.Status] || tr.Outcome.Errors < 0 {
			t.Errorf("%s %s: outcome %+v", tr.Provider, tr.NativeSession, tr.Outcome)
		}
		for _, s := range tr.Subagents {
			if !valid[s.Outcome.Status] {
				t.Errorf("%s %s %s: outcome %+v", tr.Provider, tr.NativeSession, s.Stream, s.Outcome)
			}
		}
	}
	for _, s := range []string{agt.OutcomeSuccess, agt.OutcomeError, agt.OutcomeMaxTurns, agt.OutcomeTruncated} {
		if count[s] == 0 {
			t.Errorf("no corpus transcript says %s", s)
		}
	}
	t.Logf("%d transcripts: %v", len(ts), count)
}
