package qwen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/provider/qwen"
)

// TestGolden parses a real chat record file and compares the events with a
// reviewed golden file.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "qwen", true, "*.jsonl")
}

func TestSniff(t *testing.T) {
	const (
		user         = `{"uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-06-15T14:40:22.832Z","type":"user","cwd":"/w","version":"0.18.1","message":{"role":"user","parts":[{"text":"hi"}]}}`
		system       = `{"uuid":"u2","parentUuid":"u1","sessionId":"s","timestamp":"2026-06-15T14:40:22.842Z","type":"system","subtype":"custom_title","systemPayload":{"customTitle":"t"}}`
		claude       = `{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}`
		claudeSystem = `{"type":"system","sessionId":"s","uuid":"u","subtype":"compact_boundary","content":"x"}`
	)
	providertest.Sniff(t, qwen.Provider{}, []providertest.SniffCase{
		{"user record", providertest.Head(user), qwen.FormatSession},
		{"system record first", providertest.Head(system, user), qwen.FormatSession},
		{"after a bad line", providertest.Head(`{"uuid":`, user), qwen.FormatSession},
		{"claude session", providertest.Head(claude), ""},
		{"claude system", providertest.Head(claudeSystem), ""},
		{"no session id", providertest.Head(`{"uuid":"u","type":"user","message":{"parts":[]}}`), ""},
		{"document", agt.Head{Doc: []byte(user)}, ""},
	})
}

// TestUsage checks the usage of the sample against the figures the agent
// wrote in its own usageMetadata: prompt 500 + 600 (50 of them cached),
// candidates 20 + 5, totals 520 + 605.
func TestUsage(t *testing.T) {
	f := providertest.Testdata(t, "qwen", "Piebald-AI__splitrail__qwen_code.jsonl")
	out, _, st := providertest.Parse(t, provider.Config{}, f)
	if st.Lines != 8 || st.Unknown != 0 || st.Errors != 0 {
		t.Fatalf("lines %d unknown %d errors %d", st.Lines, st.Unknown, st.Errors)
	}
	var sum agt.Usage
	n := 0
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind == agt.KindUsage {
			n++
			sum.Add(ev.Usage)
		}
	}
	if n != 2 || sum.Input != 1050 || sum.CacheRead != 50 || sum.Output != 25 || sum.Total != 1125 {
		t.Errorf("%d usage events, sum %+v", n, sum)
	}
}

// TestThoughtsAndSubagent: thought parts are reasoning, counted in output;
// a subagent's records go to its own stream; an unknown record type is an
// unknown event.
func TestThoughtsAndSubagent(t *testing.T) {
	lines := `{"uuid":"a","sessionId":"s","timestamp":"2026-06-15T14:40:22.832Z","type":"assistant","agentId":"explore-1","model":"qwen3-coder","message":{"role":"model","parts":[{"text":"hmm","thought":true},{"text":"ok"}]},"usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":10,"thoughtsTokenCount":7,"cachedContentTokenCount":40,"totalTokenCount":117}}
{"uuid":"b","sessionId":"s","timestamp":"2026-06-15T14:40:23.000Z","type":"checkpoint"}
`
	f := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(f, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, st := providertest.Parse(t, provider.Config{Quiet: true}, f)
	if st.Unknown != 1 {
		t.Errorf("unknown %d, want 1", st.Unknown)
	}
	var kinds []string
	for _, ev := range providertest.Events(t, out) {
		kinds = append(kinds, ev.Kind)
		if ev.Kind == agt.KindUsage {
			u := ev.Usage
			if u.Input != 60 || u.CacheRead != 40 || u.Output != 17 || u.Reasoning != 7 || u.Total != 117 {
				t.Errorf("usage %+v", u)
			}
		}
		if ev.Kind == agt.KindAssistant && ev.Stream != "subagent:explore-1" {
			t.Errorf("stream %q", ev.Stream)
		}
	}
	want := []string{"meta", "reasoning", "assistant", "usage", "unknown"}
	if len(kinds) != len(want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("kinds %v, want %v", kinds, want)
		}
	}
}
