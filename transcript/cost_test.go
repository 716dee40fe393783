package transcript_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/transcript"
)

func usageEv(stream, scope string, line int64, cost, native float64, window int64) agt.Event {
	u := &agt.Usage{Scope: scope, Input: 10, Output: 1, CostUSD: &cost, NativeCostUSD: &native, ContextWindow: window}
	u.Sum()
	return agt.Event{Session: "s", Stream: stream, Kind: agt.KindUsage, Model: "m1", Usage: u, Src: agt.Src{Path: "s.jsonl", Line: line}}
}

// TestCostTotals checks that a transcript carries both cost totals, the
// table's and the agent's own, per session (subagents included) and per
// subagent, out of its usage object, and that run totals give the window.
func TestCostTotals(t *testing.T) {
	evs := []agt.Event{
		{Session: "s", Stream: agt.StreamMain, Kind: agt.KindAssistant, Text: agt.String("hi"), Src: agt.Src{Path: "s.jsonl", Line: 1}},
		usageEv(agt.StreamMain, agt.ScopeCall, 1, 1, 2, 0),
		usageEv(agt.StreamMain, agt.ScopeRun, 2, 0.5, 0.5, 400000),
		{Session: "s", Stream: "agent-1", Kind: agt.KindAssistant, Text: agt.String("sub"), Src: agt.Src{Path: "s.jsonl", Line: 3}},
		usageEv("agent-1", agt.ScopeCall, 3, 0.25, 0.375, 0),
	}
	tr := consolidateEvents(t, evs)
	switch {
	case tr.CostUSD == nil || *tr.CostUSD != 1.75:
		t.Errorf("cost_usd %v, want 1.75", tr.CostUSD)
	case tr.NativeCostUSD == nil || *tr.NativeCostUSD != 2.875:
		t.Errorf("native_cost_usd %v, want 2.875", tr.NativeCostUSD)
	case tr.Usage.CostUSD != nil || tr.Usage.NativeCostUSD != nil:
		t.Errorf("costs left in the session's usage: %+v", tr.Usage)
	case tr.ContextWindow != 400000:
		t.Errorf("context_window %d, want the run total's 400000", tr.ContextWindow)
	case len(tr.Subagents) != 1:
		t.Fatalf("%d subagents", len(tr.Subagents))
	}
	sub := tr.Subagents[0]
	if sub.CostUSD == nil || *sub.CostUSD != 0.25 || sub.NativeCostUSD == nil || *sub.NativeCostUSD != 0.375 || sub.Usage.NativeCostUSD != nil {
		t.Errorf("subagent costs %v %v, usage %+v", sub.CostUSD, sub.NativeCostUSD, sub.Usage)
	}
}

// TestWindowWithoutUsage checks that a session whose usage names no window
// (here: none at all) takes its model's from the Window hook, and that a
// window the usage gives is kept.
func TestWindowWithoutUsage(t *testing.T) {
	run := func(evs []agt.Event) *transcript.Transcript {
		var got *transcript.Transcript
		cons := transcript.NewConsolidator(func(string) string { return "u" }, false, func(_ string, tr *transcript.Transcript, _ []agt.Event) error {
			got = tr
			return nil
		})
		cons.Window = func(model string) int64 {
			if model == "m1" {
				return 200000
			}
			return 0
		}
		if err := cons.Add(evs); err != nil {
			t.Fatal(err)
		}
		if err := cons.Close(); err != nil {
			t.Fatal(err)
		}
		return got
	}
	say := agt.Event{Session: "s", Stream: agt.StreamMain, Kind: agt.KindAssistant, Model: "m1", Text: agt.String("hi"), Src: agt.Src{Path: "s.jsonl", Line: 1}}
	if tr := run([]agt.Event{say}); tr.Model != "m1" || tr.ContextWindow != 200000 {
		t.Errorf("model %q window %d, want m1 200000", tr.Model, tr.ContextWindow)
	}
	if tr := run([]agt.Event{say, usageEv(agt.StreamMain, agt.ScopeCall, 1, 0, 0, 258400)}); tr.ContextWindow != 258400 {
		t.Errorf("window %d, want the usage's 258400", tr.ContextWindow)
	}
	other := say
	other.Model = "unknown"
	if tr := run([]agt.Event{other}); tr.ContextWindow != 0 {
		t.Errorf("window %d for a model the hook does not know", tr.ContextWindow)
	}
}
