package template_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/canon"
	"github.com/agt-project/agt/provider/internal/template"
	"github.com/agt-project/agt/provider/providertest"
)

// The registry row: all that adding the template to agt takes besides its
// folder (in the registry, a line of provider.go's init; with the agtstub
// build tag, provider/stub.go has registered it already).
func init() {
	if provider.Lookup("template") == nil {
		provider.Register(template.Provider{})
	}
}

var sample = []string{
	`{"tpl":"session","id":"s1","ts":"2026-01-02T03:04:05Z"}`,
	`{"tpl":"user","ts":"2026-01-02T03:04:06Z","text":"open a.go"}`,
	`{"tpl":"call","ts":"2026-01-02T03:04:07Z","id":"c1","name":"open_file","input":{"filename":"a.go"}}`,
	`{"tpl":"result","ts":"2026-01-02T03:04:08Z","id":"c1","output":"package a"}`,
	`{"tpl":"call","ts":"2026-01-02T03:04:09Z","id":"c2","name":"docs::search","input":{"q":"x"}}`,
	`{"tpl":"assistant","ts":"2026-01-02T03:04:10Z","model":"m-1","text":"done"}`,
	`{"tpl":"usage","model":"m-1","input":10,"output":5}`,
	`{"tpl":"later","ts":"2026-01-02T03:04:11Z"}`,
}

// TestOneFolder: the registered template is detected from content,
// parsed, normalized with its own canon rows and MCP style, rendered to
// with --to, and listed where the registry is.
func TestOneFolder(t *testing.T) {
	if p, f := provider.Detect(providertest.Head(sample...)); p == nil || p.Name() != "template" || f != template.FormatJSONL {
		t.Fatalf("detected %v %q", p, f)
	}
	if !slices.Contains(provider.Names(), "template") || !slices.Contains(provider.Targets(), "template") {
		t.Errorf("not listed: names %v, --to targets %v", provider.Names(), provider.Targets())
	}
	if len(canon.Definitions("template")) != 2 {
		t.Errorf("--tool-defs template: %d definitions, want 2", len(canon.Definitions("template")))
	}

	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(sample, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, _ := providertest.Parse(t, provider.Config{}, path) // detected, not forced
	evs := providertest.Events(t, out)
	var kinds []string
	calls := map[string]string{}
	for _, ev := range evs {
		kinds = append(kinds, ev.Kind)
		if ev.Provider != "template" || ev.Format != template.FormatJSONL || ev.NativeSession != "s1" {
			t.Errorf("event %s: provider %q format %q session %q", ev.ID, ev.Provider, ev.Format, ev.NativeSession)
		}
		if ev.Tool != nil {
			calls[ev.Tool.ID] = ev.ID
		}
		if ev.Result != nil && ev.Result.Call != calls[ev.Result.ID] {
			t.Errorf("result %s links %q, want %q", ev.Result.ID, ev.Result.Call, calls[ev.Result.ID])
		}
	}
	want := "meta user tool_call tool_result tool_call assistant usage unknown"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("kinds %s, want %s (stderr %q)", got, want, stderr)
	}

	// normalized: open_file is Read with file_path (its canon row), the
	// MCP call is the server's tool (its MCP style)
	n := &provider.Normalizer{}
	var got []string
	for i := range evs {
		if n.Event(&evs[i]); evs[i].Tool != nil {
			got = append(got, evs[i].Tool.Name+" "+string(evs[i].Tool.Input))
		}
	}
	if w := []string{`Read {"file_path":"a.go"}`, `mcp__docs__search {"q":"x"}`}; !slices.Equal(got, w) {
		t.Errorf("normalized %q, want %q", got, w)
	}

	// rendered to: a Claude call in the template's layout (--to template)
	ev := agt.Event{Kind: agt.KindToolCall, Provider: "claude", Tool: &agt.Tool{ID: "t", Name: "Read", NativeName: "Read", NativeInput: agt.Raw(`{"file_path":"b.go"}`)}}
	(&provider.Normalizer{}).Event(&ev)
	(&provider.Normalizer{To: "template"}).Event(&ev)
	if s := ev.Tool.Name + " " + string(ev.Tool.Input); s != `open_file {"filename":"b.go"}` {
		t.Errorf("--to template: %s", s)
	}
}

// FuzzParse fuzzes every registered provider, the template with the
// sample as its seed: `go test` runs the seeds.
func FuzzParse(f *testing.F) {
	providertest.FuzzParse(f, map[string][][]byte{"template": {[]byte(strings.Join(sample, "\n") + "\n")}})
}
