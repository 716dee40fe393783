package canon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/canon"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

func loadCorpus(t *testing.T) []agt.Event {
	t.Helper()
	dir := providertest.CorpusDir(t)
	var calls []agt.Event
	for _, sub := range append(providertest.CorpusProviders(dir), "live") {
		ins, errs := stage.Expand([]string{filepath.Join(dir, sub)}, nil, provider.Claim)
		for _, err := range errs {
			t.Logf("%s: %v", sub, err)
		}
		var out, diag bytes.Buffer
		if _, err := provider.Parse(context.Background(), provider.Config{}, ins, &out, &diag); err != nil {
			t.Fatalf("parse %s: %v", sub, err)
		}
		for _, ev := range providertest.Events(t, out.Bytes()) {
			if ev.Kind == agt.KindToolCall && ev.Tool != nil {
				calls = append(calls, ev)
			}
		}
	}
	if len(calls) == 0 {
		t.Fatal("no tool calls in the corpus")
	}
	return calls
}

// jsonEqual compares two JSON values, member order aside.
func jsonEqual(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b) || string(a) == "null" || string(b) == "null"
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

func short(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// TestCorpusRoundTrip normalizes every tool call of the corpus and renders
// it back to its own provider.
func TestCorpusRoundTrip(t *testing.T) {
	calls := loadCorpus(t)
	type key struct{ provider, native, name string }
	counts := map[key]int{}
	pass, pure, total := 0, 0, 0
	var lossy []string
	lossyBy := map[string]int{}
	for _, ev := range calls {
		tool := *ev.Tool
		native := tool.NativeName
		nativeIn := append(agt.Raw(nil), tool.NativeInput...)
		canon.Normalize(canon.Source(ev.Provider, ev.Format), &tool)
		total++
		counts[key{ev.Provider, native, tool.Name}]++
		if tool.Name == native && tool.Origin == canon.OriginCustom && bytes.Equal(tool.Input, nativeIn) {
			pass++ // not in the table
		}
		where := fmt.Sprintf("%s:%d %s %s", filepath.Base(ev.Src.Path), ev.Src.Line, ev.Provider, native)
		if tool.NativeName != native || !bytes.Equal(tool.NativeInput, nativeIn) {
			t.Fatalf("%s: native name or input changed", where)
		}
		if tool.Kind == "" || tool.Origin == "" || tool.Name == "" {
			t.Errorf("%s: empty name, kind or origin: %+v", where, tool)
		}
		if len(tool.Input) > 0 && !json.Valid(tool.Input) || bytes.ContainsAny(tool.Input, "\n") {
			t.Errorf("%s: input not compact JSON: %s", where, short(tool.Input))
		}
		twice := tool
		canon.Normalize(canon.Source(ev.Provider, ev.Format), &twice)
		if !reflect.DeepEqual(twice, tool) {
			t.Errorf("%s: normalizing twice changed the call:\n%+v\n%+v", where, tool, twice)
		}
		name, in := canon.Render(ev.Provider, canon.Source(ev.Provider, ev.Format), &tool)
		if name != native || !bytes.Equal(in, nativeIn) {
			t.Errorf("%s: round trip gave %s %s, want %s", where, name, short(in), short(nativeIn))
		}
		name, in = canon.Render(ev.Provider, "", &tool)
		if name == native && jsonEqual(in, nativeIn) {
			pure++
		} else {
			lossy = append(lossy, fmt.Sprintf("%s → %s: %s %s", where, tool.Name, name, short(in)))
			lossyBy[ev.Provider+" "+native+" ("+ev.Format+")"]++
		}
	}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.provider != b.provider {
			return a.provider < b.provider
		}
		if a.native != b.native {
			return a.native < b.native
		}
		return a.name < b.name
	})
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%d\n", k.provider, k.native, k.name, counts[k])
	}
	t.Logf("native → canonical over %d calls:\n%s", total, b.String())
	t.Logf("passed through unchanged: %d of %d (%.1f%%); rendered back from the canonical form alone: %d (%.1f%%)",
		pass, total, 100*float64(pass)/float64(total), pure, 100*float64(pure)/float64(total))
	var lb []string
	for k, n := range lossyBy {
		lb = append(lb, fmt.Sprintf("%s: %d", k, n))
	}
	sort.Strings(lb)
	t.Logf("native layouts given back only through native_input:\n%s", strings.Join(lb, "\n"))
	if os.Getenv("CANON_LOSSY") != "" {
		t.Logf("rendered back only through the native input:\n%s", strings.Join(lossy, "\n"))
	}
}

// customReason says why a corpus call is custom (a name outside the
// table): a provider whose table maps well-known extension tools (rows of
// origin custom: Pi, which has no MCP) has extensions, and a tool beyond
// its built-ins (the tools it offers: rows of origin builtin that render)
// is an extension's; the corpus's fixtures scrubbed some names; the rest
// are unknown.
func customReason(p, name string) string {
	builtins, extensions := toolsOf(p)
	switch {
	case strings.Contains(name, "[trimmed for fixture]"):
		return "unknown: the name was scrubbed in its fixture"
	case extensions:
		return "extension tool (" + provider.Display(p) + "'s tools beyond " + strings.Join(builtins, " ") + " come from extensions)"
	}
	return "unknown: no tool of " + p + " has this name"
}

// toolsOf is what the registered provider p's rows say of its tools: its
// built-in tools' native names, in row order, and whether it has
// extension tools (a row of origin custom).
func toolsOf(p string) (builtins []string, extensions bool) {
	ts, ok := provider.Lookup(p).(provider.Toolset)
	if !ok {
		return nil, false
	}
	for _, r := range ts.Tools().Rows {
		switch {
		case r.Origin == canon.OriginCustom:
			extensions = true
		case r.Origin == "" && r.Out != "-" && !strings.HasSuffix(r.Native, "*") && !slices.Contains(builtins, r.Native):
			builtins = append(builtins, r.Native)
		}
	}
	return builtins, extensions
}

// TestCustomCalls lists every custom call of the corpus (origin custom:
// extension, plugin or unknown tools) with its reason, in
// testdata/custom.golden (-update rewrites it): a call that the table
// stops mapping, or a new unknown tool, shows as a diff.
func TestCustomCalls(t *testing.T) {
	calls := loadCorpus(t)
	type key struct{ provider, native, name string }
	n := map[key]int{}
	custom := 0
	for _, ev := range calls {
		tool := *ev.Tool
		canon.Normalize(canon.Source(ev.Provider, ev.Format), &tool)
		if tool.Origin != canon.OriginCustom {
			continue
		}
		custom++
		n[key{ev.Provider, ev.Tool.NativeName, tool.Name}]++
	}
	keys := make([]key, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].provider != keys[j].provider {
			return keys[i].provider < keys[j].provider
		}
		return keys[i].native < keys[j].native
	})
	var b strings.Builder
	fmt.Fprintf(&b, "# custom calls of the corpus: %d of %d (%.1f%%)\n# provider\tnative name\tcanonical name\tcalls\treason\n", custom, len(calls), 100*float64(custom)/float64(len(calls)))
	for _, k := range keys {
		reason := customReason(k.provider, k.native)
		if k.name != k.native {
			reason = "extension tool, mapped to " + k.name + " by its row (origin custom)"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%d\t%s\n", k.provider, k.native, k.name, n[k], reason)
	}
	golden := filepath.Join("testdata", "custom.golden")
	if *providertest.Update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != b.String() {
		t.Errorf("custom calls differ from %s (go test -update rewrites it):\n%s", golden, b.String())
	}
	for _, k := range keys {
		if _, extensions := toolsOf(k.provider); !extensions && !strings.Contains(k.native, "[trimmed for fixture]") {
			t.Logf("not an extension or plugin tool: %s %s", k.provider, k.native)
		}
	}
}

// TestCorpusToolNames: every canonical name over the corpus is a name a
// Claude Code tool may have (letters, digits, "_" and "-"; Claude's own
// MCP names keep only those), and an MCP tool's is mcp__<server>__<tool>
// with both parts of that alphabet. A name the corpus's redaction wrote
// ("[trimmed for fixture]") is left out.
func TestCorpusToolNames(t *testing.T) {
	name := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)
	mcp := regexp.MustCompile(`^mcp__[a-zA-Z0-9_-]+?__[a-zA-Z0-9_-]+$`)
	for _, ev := range loadCorpus(t) {
		if strings.Contains(ev.Tool.NativeName, "[trimmed") {
			continue
		}
		tool := *ev.Tool
		canon.Normalize(canon.Source(ev.Provider, ev.Format), &tool)
		if !name.MatchString(tool.Name) || strings.HasPrefix(tool.Name, "mcp__") && !mcp.MatchString(tool.Name) {
			t.Errorf("%s %s:%d: canonical name %q (native %q)", ev.Provider, ev.Src.Path, ev.Src.Line, tool.Name, ev.Tool.NativeName)
		}
	}
}
