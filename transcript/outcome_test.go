package transcript_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/price"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
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

// TestErrorRunOutcomes builds the transcripts of the real captures of
// failed runs kept in testdata (generated outputs of the agents' CLIs):
// each says how its run ended.
func TestErrorRunOutcomes(t *testing.T) {
	cases := []struct {
		file   string
		status string
		reason string
	}{
		{"claude/live/gen__claude-2.1.197__error-max-turns.jsonl", agt.OutcomeMaxTurns, "Reached maximum number of turns (1)"},
		{"claude/live/gen__claude-2.1.197__api-error-400.jsonl", agt.OutcomeError, "API Error: 400 mock: invalid request (simulated)"},
		{"claude/live/gen__claude-2.1.197__tools.jsonl", agt.OutcomeSuccess, "success"},
		{"codex/live/gen__codex-0.169.0__turn-failed-400.jsonl", agt.OutcomeError, `{"error": {"message": "mock: invalid request (simulated)", "type": "invalid_request_error", "code": "invalid_request"}}`},
		{"codex/live/gen__codex-0.169.0__turn-failed-disconnect.jsonl", agt.OutcomeError, "stream disconnected before completion: error sending request"},
		{"codex/live/gen__codex-0.169.0__tools.jsonl", agt.OutcomeSuccess, "turn.completed"},
		{"gemini/live/gen__gemini-cli-0.61.0__api-error-400.jsonl", agt.OutcomeError, `[API Error: {"error":{"message":"mock: invalid request (simulated)","type":"invalid_request_error","code":"invalid_request"}}]`},
		{"gemini/live/gen__gemini-cli-0.61.0__api-error-400.stderr.json", agt.OutcomeError, `{"error":{"message":"mock: invalid request (simulated)","type":"invalid_request_error","code":"invalid_request"}}`},
		{"pi/live/gen__pi-0.73.1__api-error-400.jsonl", agt.OutcomeError, "400 mock: invalid request (simulated)"},
		{"opencode/live/gen__opencode-1.18.33__api-error-400.jsonl", agt.OutcomeError, "APIError: mock: invalid request (simulated)"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			ts, _ := consolidate(t, provider.Config{}, providertest.Testdata(t, c.file))
			if len(ts) != 1 {
				t.Fatalf("%d transcripts", len(ts))
			}
			o := ts[0].Outcome
			if o.Status != c.status || o.Reason != c.reason {
				t.Errorf("outcome %+v, want status %s reason %q", o, c.status, c.reason)
			}
			if agt.Failed(c.status) != (o.Errors > 0) {
				t.Errorf("outcome %+v: errors do not fit the status", o)
			}
		})
	}
}

// TestCutLogOutcome cuts a real capture of a successful run: after its
// first tool call (the call has no result), and in the middle of a line
// (the last line is not complete JSON). The first says interrupted (live
// output cut before its result line: its usage is still provisional), the
// second truncated.
func TestCutLogOutcome(t *testing.T) {
	data, err := os.ReadFile(providertest.Testdata(t, "claude/live/gen__claude-2.1.197__tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	call := -1
	for i, l := range lines {
		if strings.Contains(l, `"type":"tool_use"`) && strings.HasPrefix(l, `{"type":"assistant"`) {
			call = i
			break
		}
	}
	if call < 0 {
		t.Fatal("no tool call in the capture")
	}
	dir := t.TempDir()
	cases := []struct {
		name, text, status, reason string
	}{
		{"mid-call", strings.Join(lines[:call+1], ""), agt.OutcomeInterrupted, "the run ended before its final usage"},
		{"mid-line", strings.Join(lines[:call+2], "") + lines[call+2][:len(lines[call+2])/2], agt.OutcomeTruncated, "the log's last line could not be read: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name+".jsonl")
			if err := os.WriteFile(p, []byte(c.text), 0o600); err != nil {
				t.Fatal(err)
			}
			ts, _ := consolidate(t, provider.Config{Provider: "claude"}, p)
			if len(ts) != 1 {
				t.Fatalf("%d transcripts", len(ts))
			}
			if o := ts[0].Outcome; o.Status != c.status || !strings.HasPrefix(o.Reason, c.reason) {
				t.Errorf("outcome %+v, want %s: %s…", o, c.status, c.reason)
			}
		})
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

// TestInterruptedLiveUsage cuts real `claude -p --output-format
// stream-json` captures before every line up to their result line: the
// transcript of each cut counts the usage its assistant lines carried
// (each message once, its largest output), says it is provisional and
// that the run was interrupted; the whole capture gives the result line's
// figures, final.
func TestInterruptedLiveUsage(t *testing.T) {
	files, _ := filepath.Glob(providertest.Testdata(t, "claude/live/*.jsonl"))
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		type usage struct {
			Input      int64 `json:"input_tokens"`
			CacheRead  int64 `json:"cache_read_input_tokens"`
			CacheWrite int64 `json:"cache_creation_input_tokens"`
			Output     int64 `json:"output_tokens"`
		}
		var rec struct {
			Type    string `json:"type"`
			Message struct {
				ID    string `json:"id"`
				Model string `json:"model"`
				Usage *usage `json:"usage"`
			} `json:"message"`
			ModelUsage map[string]struct {
				Input      int64 `json:"inputTokens"`
				Output     int64 `json:"outputTokens"`
				CacheRead  int64 `json:"cacheReadInputTokens"`
				CacheWrite int64 `json:"cacheCreationInputTokens"`
			} `json:"modelUsage"`
		}
		calls := map[string]usage{}
		var order []string
		dir := t.TempDir()
		for i, l := range lines {
			if strings.TrimSpace(l) == "" {
				continue
			}
			rec.Message.Usage, rec.ModelUsage = nil, nil
			if err := json.Unmarshal([]byte(l), &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Type == "result" {
				var want agt.Usage
				for _, mu := range rec.ModelUsage {
					want.Add(&agt.Usage{Input: mu.Input, CacheRead: mu.CacheRead, CacheWrite: mu.CacheWrite, Output: mu.Output})
				}
				want.Sum()
				whole := filepath.Join(dir, "whole.jsonl")
				if err := os.WriteFile(whole, []byte(strings.Join(lines[:i+1], "")), 0o600); err != nil {
					t.Fatal(err)
				}
				ts, _ := consolidate(t, provider.Config{Provider: "claude"}, whole)
				if got := ts[0].Usage; got.Provisional || got.Total != want.Total || got.Input != want.Input || got.Output != want.Output {
					t.Errorf("%s: whole run: usage %+v, want the result's %+v", filepath.Base(f), got, want)
				}
				break
			}
			if i > 0 && len(calls) > 0 {
				// the capture cut before line i
				var want agt.Usage
				for _, id := range order {
					u := calls[id]
					want.Add(&agt.Usage{Input: u.Input, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, Output: u.Output})
				}
				want.Sum()
				cut := filepath.Join(dir, "cut.jsonl")
				if err := os.WriteFile(cut, []byte(strings.Join(lines[:i], "")), 0o600); err != nil {
					t.Fatal(err)
				}
				ts, _ := consolidate(t, provider.Config{Config: stage.Config{Transform: (&provider.Normalizer{Prices: price.Default()}).Event}, Provider: "claude"}, cut)
				if len(ts) != 1 {
					t.Fatalf("%d transcripts", len(ts))
				}
				tr := ts[0]
				got := tr.Usage
				if !got.Provisional || got.Total != want.Total || got.Input != want.Input || got.CacheRead != want.CacheRead || got.CacheWrite != want.CacheWrite || got.Output != want.Output {
					t.Errorf("%s cut before line %d: usage %+v, want %+v, provisional", filepath.Base(f), i+1, got, want)
				}
				if tr.CostUSD == nil || *tr.CostUSD <= 0 {
					t.Errorf("%s cut before line %d: no cost", filepath.Base(f), i+1)
				}
				if tr.Outcome.Status != agt.OutcomeInterrupted && tr.Outcome.Status != agt.OutcomeError {
					t.Errorf("%s cut before line %d: outcome %+v, want interrupted", filepath.Base(f), i+1, tr.Outcome)
				}
				n++
			}
			if rec.Type == "assistant" && rec.Message.Usage != nil {
				u, seen := calls[rec.Message.ID]
				if !seen {
					order = append(order, rec.Message.ID)
				}
				if !seen || rec.Message.Usage.Output > u.Output {
					calls[rec.Message.ID] = *rec.Message.Usage
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no capture cut")
	}
	t.Logf("%d cuts", n)
}
