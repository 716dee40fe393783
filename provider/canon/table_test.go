package canon_test

import (
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/canon"
)

var kindsAll = map[string]bool{"read": true, "write": true, "execute": true, "search": true, "fetch": true, "plan": true, "ask": true, "think": true, "other": true}

// TestTable checks the table's shape: providers of the registry, one row
// per native name and condition, at most one default row per provider for
// a canonical tool (the providers' tests name the tools they must have
// one for: providertest.CheckDefaults).
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
		canon.Normalize(r.Provider, tool)
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
}

// TestPassThrough: names outside the table keep name and input.
func TestPassThrough(t *testing.T) {
	for _, p := range canon.Targets() {
		in := agt.Raw(`{"b":1,"a":[2]}`)
		tool := &agt.Tool{NativeName: "frobnicate", NativeInput: in}
		canon.Normalize(p, tool)
		if tool.Name != "frobnicate" || tool.Kind != "other" || tool.Origin != "custom" || string(tool.Input) != string(in) || tool.MCP != nil {
			t.Errorf("%s: %+v", p, tool)
		}
	}
}
