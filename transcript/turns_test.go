package transcript_test

import (
	"math"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// TestTurns groups a session into turns: context before the first prompt
// is a turn with no prompt; a tool result and injected context do not
// start a turn; a slash command does; a run-scope total counts in the turn
// it came in; a subagent counts in the turn of the call that started it.
func TestTurns(t *testing.T) {
	cost := func(f float64) *float64 { return &f }
	n := 0
	ev := func(stream, kind string, ts string, set func(*agt.Event)) agt.Event {
		n++
		e := agt.Event{Schema: agt.Schema, ID: "e" + string(rune('a'+n)), Session: "s", NativeSession: "n", Provider: providertest.Stub,
			Format: providertest.StubFormat, Seq: int64(n), TS: ts, Stream: stream, Kind: kind, Src: agt.Src{Path: "f", Line: int64(n)}}
		if set != nil {
			set(&e)
		}
		return e
	}
	text := func(s string) func(*agt.Event) { return func(e *agt.Event) { e.Text = agt.String(s) } }
	usage := func(scope string, in int64, c float64) func(*agt.Event) {
		return func(e *agt.Event) {
			e.Usage = &agt.Usage{Scope: scope, Input: in, Total: in, CostUSD: cost(c)}
		}
	}
	evs := []agt.Event{
		ev("main", agt.KindSystem, "2026-01-01T00:00:00.000Z", text("instructions")),
		ev("main", agt.KindUser, "2026-01-01T00:00:01.000Z", text("  fix "+strings.Repeat("é", 300))),
		ev("main", agt.KindAssistant, "2026-01-01T00:00:02.000Z", text("on it")),
		ev("main", agt.KindToolCall, "2026-01-01T00:00:02.000Z", func(e *agt.Event) {
			e.Tool = &agt.Tool{ID: "t1", Name: "Task", NativeName: "Task"}
		}),
		ev("main", agt.KindUsage, "2026-01-01T00:00:02.000Z", usage(agt.ScopeCall, 10, 0.5)),
		ev("main", agt.KindToolResult, "2026-01-01T00:00:05.000Z", func(e *agt.Event) {
			e.Result = &agt.Result{ID: "t1", Call: "ed", Output: agt.String("done")}
			e.Meta = &agt.Meta{Type: "user", Agent: "a1"}
		}),
		ev("main", agt.KindSystem, "2026-01-01T00:00:05.500Z", text("<system-reminder>")),
		ev("main", agt.KindAssistant, "2026-01-01T00:00:06.000Z", text("fixed")),
		ev("main", agt.KindUsage, "2026-01-01T00:00:06.000Z", usage(agt.ScopeCall, 20, 0.25)),
		ev("main", agt.KindSlashCommand, "2026-01-01T00:01:00.000Z", text("/review")),
		ev("main", agt.KindAssistant, "2026-01-01T00:01:01.000Z", text("looks good")),
		ev("main", agt.KindUsage, "2026-01-01T00:01:02.000Z", usage(agt.ScopeRun, 7, 0.125)),
		ev("sidechain:a1", agt.KindAssistant, "2026-01-01T00:00:03.000Z", text("searching")),
		ev("sidechain:a1", agt.KindUsage, "2026-01-01T00:00:04.000Z", usage(agt.ScopeCall, 100, 1)),
	}
	tr := consolidateEvents(t, evs)
	validTranscript(t, tr)
	checkTurns(t, "synthetic", tr)
	if len(tr.Turns) != 3 {
		t.Fatalf("%d turns, want 3: %+v", len(tr.Turns), tr.Turns)
	}
	want := []struct {
		prompt        string
		first, last   int
		input         int64
		cost          float64
		calls, models int
		start, end    string
		subagents     int
	}{
		{"", 0, 0, 0, 0, 0, 0, "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z", 0},
		{"fix " + strings.Repeat("é", transcript.PromptCut-4) + "…", 1, 4, 130, 1.75, 1, 3, "2026-01-01T00:00:01.000Z", "2026-01-01T00:00:06.000Z", 1},
		{"/review", 5, 6, 7, 0.125, 0, 1, "2026-01-01T00:01:00.000Z", "2026-01-01T00:01:02.000Z", 0},
	}
	for i, w := range want {
		g := tr.Turns[i]
		if g.Index != i || g.Prompt != w.prompt || g.Messages[0] != w.first || g.Messages[1] != w.last || g.Usage.Input != w.input ||
			g.CostUSD == nil && w.cost != 0 || g.CostUSD != nil && *g.CostUSD != w.cost || g.ToolCalls != w.calls || g.ModelCalls != w.models ||
			g.StartedAt != w.start || g.EndedAt != w.end || len(g.Subagents) != w.subagents || g.Usage.Scope != transcript.ScopeTurn {
			t.Errorf("turn %d: %+v (cost %v), want %+v", i, g, g.CostUSD, w)
		}
	}
}

// checkTurns holds a transcript's turns to their rules: they number from
// 0, their message ranges follow each other and cover every message, a
// turn after the first starts at a prompt, and their usage, costs and tool
// calls sum to the transcript's.
func checkTurns(t *testing.T, name string, tr *transcript.Transcript) {
	t.Helper()
	if len(tr.Messages) > 0 && len(tr.Turns) == 0 {
		t.Errorf("%s: %d messages, no turns", name, len(tr.Messages))
	}
	var u agt.Usage
	var calls int
	next := 0
	for i, tu := range tr.Turns {
		if tu.Index != i {
			t.Errorf("%s: turn %d has index %d", name, i, tu.Index)
		}
		if tu.Messages != nil {
			if tu.Messages[0] != next || tu.Messages[1] < tu.Messages[0] {
				t.Errorf("%s: turn %d holds messages %v after %d", name, i, tu.Messages, next)
			}
			next = tu.Messages[1] + 1
			if m := tr.Messages[tu.Messages[0]]; (i > 0 || tu.Prompt != "") && m.Role != transcript.RoleUser {
				t.Errorf("%s: turn %d starts at a %s message", name, i, m.Role)
			}
		}
		x := tu.Usage
		x.CostUSD, x.NativeCostUSD = tu.CostUSD, tu.NativeCostUSD
		u.Add(&x)
		calls += tu.ToolCalls
	}
	if next != len(tr.Messages) {
		t.Errorf("%s: turns cover %d of %d messages", name, next, len(tr.Messages))
	}
	w := tr.Usage
	if u.Input != w.Input || u.CacheRead != w.CacheRead || u.CacheWrite != w.CacheWrite || u.CacheWrite1h != w.CacheWrite1h ||
		u.Output != w.Output || u.Reasoning != w.Reasoning || u.Total != w.Total {
		t.Errorf("%s: turns sum to %+v, the transcript has %+v", name, u, w)
	}
	if !sameCost(u.CostUSD, tr.CostUSD) || !sameCost(u.NativeCostUSD, tr.NativeCostUSD) {
		t.Errorf("%s: turns cost %v/%v, the transcript %v/%v", name, show(u.CostUSD), show(u.NativeCostUSD), show(tr.CostUSD), show(tr.NativeCostUSD))
	}
	if calls != tr.Counts.ToolCalls {
		t.Errorf("%s: turns hold %d tool calls, counts say %d", name, calls, tr.Counts.ToolCalls)
	}
}

func sameCost(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Abs(*a-*b) < 1e-9
}

func show(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// TestCorpusTurns checks the turns of every corpus and live-capture
// transcript: their usage and costs sum to the transcript's.
func TestCorpusTurns(t *testing.T) {
	dir := providertest.CorpusDir(t)
	ts, _ := consolidate(t, provider.Config{}, dir)
	var turns, prompted int
	for _, tr := range ts {
		checkTurns(t, tr.Provider+" "+tr.NativeSession, tr)
		turns += len(tr.Turns)
		for _, tu := range tr.Turns {
			if tu.Prompt != "" {
				prompted++
			}
		}
	}
	if turns == 0 {
		t.Fatal("no turns")
	}
	t.Logf("%d transcripts, %d turns, %d with a prompt", len(ts), turns, prompted)
}
