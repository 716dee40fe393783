package provider_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/price"
)

func usageEvent(model string, scope string, in, read, out int64, native *float64) *agt.Event {
	u := &agt.Usage{Scope: scope, Input: in, CacheRead: read, Output: out, NativeCostUSD: native}
	u.Sum()
	return &agt.Event{Kind: agt.KindUsage, Model: model, Usage: u}
}

func TestNormalizeCostAndWindow(t *testing.T) {
	n := &provider.Normalizer{Prices: price.Default()}
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		name       string
		ev         *agt.Event
		cost       *float64 // nil: none
		window     int64
		wantNative bool
	}{
		{"priced: the table's cost, the agent's kept apart", usageEvent("claude-sonnet-4-5", agt.ScopeCall, 1000, 0, 100, f(9)),
			f(1000*3e-6 + 100*1.5e-5), 200000, true},
		{"unpriced: the agent's own figure", usageEvent("no-such-model-7", agt.ScopeCall, 1000, 0, 100, f(0.25)), f(0.25), 0, true},
		{"unpriced, no figure: no cost", usageEvent("no-such-model-7", agt.ScopeCall, 1000, 0, 100, nil), nil, 0, false},
		{"no model: the agent's figure", usageEvent("", agt.ScopeRun, 1000, 0, 100, f(0.5)), f(0.5), 0, true},
		{"Claude sold with 200k and 1M: the smaller", usageEvent("claude-opus-4-6", agt.ScopeCall, 10, 169000, 100, nil),
			f(10*5e-6 + 169000*5e-7 + 100*2.5e-5), 200000, false},
		{"a prompt above 200k: the larger", usageEvent("claude-opus-4-6", agt.ScopeCall, 10, 200000, 100, nil),
			f(10*5e-6 + 200000*5e-7 + 100*2.5e-5), 1000000, false},
		{"asked for with [1m]", usageEvent("claude-opus-4-6[1m]", agt.ScopeCall, 10, 0, 1, nil), f(10*5e-6 + 1*2.5e-5), 1000000, false},
		{"run totals: the smaller", usageEvent("claude-sonnet-4.6", agt.ScopeRun, 10, 500000, 1, nil), f(10*3e-6 + 500000*3e-7 + 1*1.5e-5), 200000, false},
		{"a single-window model keeps the table's", usageEvent("gemini-2.5-pro", agt.ScopeCall, 10, 0, 1, nil), f(10*1.25e-6 + 1*1e-5), 1048576, false},
	} {
		for pass := 1; pass <= 2; pass++ { // normalizing twice changes nothing
			n.Event(c.ev)
			u := c.ev.Usage
			switch {
			case (u.CostUSD == nil) != (c.cost == nil) || c.cost != nil && !near(*u.CostUSD, *c.cost):
				t.Errorf("%s (pass %d): cost_usd %v, want %v", c.name, pass, fmtp(u.CostUSD), fmtp(c.cost))
			case u.ContextWindow != c.window:
				t.Errorf("%s (pass %d): context_window %d, want %d", c.name, pass, u.ContextWindow, c.window)
			case (u.NativeCostUSD != nil) != c.wantNative:
				t.Errorf("%s (pass %d): native_cost_usd %v", c.name, pass, fmtp(u.NativeCostUSD))
			}
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func fmtp(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestNormalizerWindow(t *testing.T) {
	n := &provider.Normalizer{Prices: price.Default()}
	for model, want := range map[string]int64{
		"claude-opus-4-6": 200000, "claude-opus-4-6[1m]": 1000000, "claude-sonnet-4.6": 200000,
		"claude-opus-4-5-20251101": 200000, "gemini-2.5-pro": 1048576, "gpt-5.3-codex-spark": 272000,
		"no-such-model-7": 0, "": 0,
	} {
		if got := n.Window(model); got != want {
			t.Errorf("Window(%q) = %d, want %d", model, got, want)
		}
	}
	if got := (&provider.Normalizer{}).Window("claude-opus-4-6"); got != 0 {
		t.Errorf("no price table: window %d", got)
	}
}

// TestNormalizeDropsOrig: an event read from agt.event/1 input is written as
// read (Orig) unless normalizing changed it; taking the agent's cost changes it.
func TestNormalizeDropsOrig(t *testing.T) {
	n := &provider.Normalizer{Prices: price.Default()}
	c := 0.5
	for _, model := range []string{"", "no-such-model-7"} {
		ev := usageEvent(model, agt.ScopeRun, 10, 0, 1, &c)
		ev.Orig = []byte(`{"as":"read"}`)
		n.Event(ev)
		if ev.Orig != nil || ev.Usage.CostUSD == nil {
			t.Errorf("model %q: the agent's cost taken but the line kept as read", model)
		}
	}
}

// TestNormalizeWorkingFolder: relative paths of reclassified shell calls
// and of patches are joined to the working folder the session's meta
// events state (Claude Code's records, Copilot's session.start context),
// and --to warns of a call its provider has no tool for.
func TestNormalizeWorkingFolder(t *testing.T) {
	call := func(sess, provider, name, in string) agt.Event {
		raw := agt.Raw(in)
		return agt.Event{Kind: agt.KindToolCall, Session: sess, Provider: provider, Tool: &agt.Tool{ID: "t", Name: name, NativeName: name, Input: raw, NativeInput: raw}}
	}
	evs := []agt.Event{
		{Kind: agt.KindMeta, Session: "a", Provider: "claude", Meta: &agt.Meta{Type: "system", Cwd: "/home/u/proj"}},
		call("a", "claude", "Bash", `{"command":"cat README.md docs/*.md","description":"Show"}`),
		call("a", "claude", "Bash", `{"command":"ls","description":"List"}`),
		{Kind: agt.KindMeta, Session: "b", Provider: "copilot", Meta: &agt.Meta{Type: "session.start", Cwd: "/w"}},
		call("b", "copilot", "bash", `{"command":"rg -n TODO src","description":"Find"}`),
		call("b", "copilot", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch"}`),
		call("c", "claude", "Bash", `{"command":"cat README.md"}`), // no folder known
	}
	want := []string{
		"",
		`Read {"command":"cat README.md docs/*.md","description":"Show","pattern":"/home/u/proj/docs/*.md","file_path":"/home/u/proj/README.md","files":[{"path":"/home/u/proj/README.md","op":"read"},{"path":"/home/u/proj/docs/*.md","op":"read"}]}`,
		`LS {"command":"ls","description":"List","path":"/home/u/proj"}`,
		"",
		`Grep {"command":"rg -n TODO src","description":"Find","pattern":"TODO","path":"/w/src"}`,
		`Edit {"patch":"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch","file_path":"/w/a.go","files":[{"path":"/w/a.go","op":"update","edits":[{"old_string":"x","new_string":"y"}]}],"old_string":"x","new_string":"y"}`,
		`Read {"command":"cat README.md","file_path":"README.md"}`,
	}
	for pass := 1; pass <= 2; pass++ { // normalizing twice changes nothing
		n := &provider.Normalizer{}
		n.Prepare(evs)
		for i := range evs {
			n.Event(&evs[i])
			if evs[i].Tool == nil {
				continue
			}
			if got := evs[i].Tool.Name + " " + string(evs[i].Tool.Input); got != want[i] {
				t.Errorf("pass %d, call %d:\n got  %s\n want %s", pass, i, got, want[i])
			}
		}
	}
	// a multi-edit for Gemini, whose replace takes one edit: the canonical
	// call and a warning
	n := &provider.Normalizer{To: "gemini"}
	ev := call("a", "pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}`)
	w := n.Event(&ev)
	if ev.Tool.Name != "Edit" || w == "" {
		t.Errorf("multi-edit to gemini: %s %s, warning %q", ev.Tool.Name, ev.Tool.Input, w)
	}
}

// TestNormalizeModel: Model names the model of usage and assistant events
// that name none, and of no other event; a named model is kept.
func TestNormalizeModel(t *testing.T) {
	n := &provider.Normalizer{Prices: price.Default(), Model: "gpt-5"}
	for _, c := range []struct {
		ev   *agt.Event
		want string
	}{
		{usageEvent("", agt.ScopeRun, 1000, 0, 100, nil), "gpt-5"},
		{usageEvent("claude-sonnet-4-5", agt.ScopeCall, 1000, 0, 100, nil), "claude-sonnet-4-5"},
		{&agt.Event{Kind: agt.KindAssistant}, "gpt-5"},
		{&agt.Event{Kind: agt.KindUser}, ""},
	} {
		n.Event(c.ev)
		if c.ev.Model != c.want {
			t.Errorf("%s: model %q, want %q", c.ev.Kind, c.ev.Model, c.want)
		}
		if c.ev.Kind == agt.KindUsage && c.ev.Usage.CostUSD == nil {
			t.Errorf("%s: no cost", c.ev.Model)
		}
	}
}
