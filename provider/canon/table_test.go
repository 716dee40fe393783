package canon_test

import (
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/canon"
)

var kindsAll = map[string]bool{"read": true, "write": true, "execute": true, "search": true, "fetch": true, "plan": true, "ask": true, "think": true, "other": true}

// TestTable checks the table's shape: providers of the registry, one row per native
// name and condition, a default row per provider for the core tools.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	def := map[string]map[string]int{}
	for _, r := range canon.Table() {
		if provider.Lookup(r.Provider) == nil {
			t.Errorf("row %s/%s: no such provider in the registry", r.Provider, r.Native)
		}
		k := r.Provider + "\x00" + r.Native + "\x00" + r.If + "\x00" + r.Name
		if seen[k] {
			t.Errorf("row %s/%s if %q repeated", r.Provider, r.Native, r.If)
		}
		seen[k] = true
		if r.Out == "" {
			if def[r.Provider] == nil {
				def[r.Provider] = map[string]int{}
			}
			def[r.Provider][r.Name]++
		}
		// every row normalizes to a known kind
		tool := &agt.Tool{NativeName: strings.TrimSuffix(r.Native, "*") + map[bool]string{true: "x"}[strings.HasSuffix(r.Native, "*")], NativeInput: agt.Raw(`{}`)}
		p := r.Provider
		if p == "acp" {
			p = "copilot"
		}
		canon.Normalize(p, tool)
		if !kindsAll[tool.Kind] {
			t.Errorf("row %s/%s: kind %q", r.Provider, r.Native, tool.Kind)
		}
	}
	for p, names := range def {
		for n, c := range names {
			if c > 1 {
				t.Errorf("%s has %d default rows for %s", p, c, n)
			}
		}
	}
	core := map[string][]string{
		"claude":   {"Read", "Write", "Edit", "Bash", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "Task", "TodoWrite", "Skill", "AskUserQuestion", "ExitPlanMode"},
		"codex":    {"Bash", "Edit", "Write", "TodoWrite", "WebSearch"},
		"gemini":   {"Read", "Write", "Edit", "Bash", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "TodoWrite", "Skill", "AskUserQuestion", "ExitPlanMode"},
		"copilot":  {"Read", "Write", "Edit", "Bash", "Grep", "Glob", "WebFetch", "WebSearch", "Task", "TodoWrite", "Skill", "AskUserQuestion"},
		"pi":       {"Read", "Write", "Edit", "Bash", "Grep", "Glob", "LS"},
		"opencode": {"Read", "Write", "Edit", "Bash", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "Task", "TodoWrite", "Skill", "AskUserQuestion", "ExitPlanMode"},
		"cline":    {"Read", "Write", "Edit", "Bash", "Grep", "LS", "WebFetch", "Task", "Skill"},
		"goose":    {"Read", "Write", "Edit", "Bash"},
	}
	for p, names := range core {
		for _, n := range names {
			if def[p][n] != 1 {
				t.Errorf("%s: no default row for %s", p, n)
			}
		}
	}
}

// TestPassThrough: names outside the table keep name and input.
func TestPassThrough(t *testing.T) {
	for _, p := range providers {
		in := agt.Raw(`{"b":1,"a":[2]}`)
		tool := &agt.Tool{NativeName: "frobnicate", NativeInput: in}
		canon.Normalize(p, tool)
		if tool.Name != "frobnicate" || tool.Kind != "other" || tool.Origin != "custom" || string(tool.Input) != string(in) || tool.MCP != nil {
			t.Errorf("%s: %+v", p, tool)
		}
	}
}

// TestIdempotent: normalizing twice, and normalizing a call whose Name and
// Input were already rewritten, give the same call.
func TestIdempotent(t *testing.T) {
	for _, c := range rowCases {
		var in agt.Raw
		if c.in != "" {
			in = agt.Raw(c.in)
		}
		a := &agt.Tool{NativeName: c.native, Name: c.native, NativeInput: in, Input: in}
		canon.Normalize(c.provider, a)
		b := *a
		canon.Normalize(c.provider, &b)
		if b.Name != a.Name || b.Kind != a.Kind || b.Origin != a.Origin || string(b.Input) != string(a.Input) || (a.MCP == nil) != (b.MCP == nil) || a.MCP != nil && *a.MCP != *b.MCP {
			t.Errorf("%s/%s: %+v then %+v", c.provider, c.native, a, b)
		}
	}
}
