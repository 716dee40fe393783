package codex_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/codex"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// TestGolden parses real rollouts, the synthetic legacy ones and generated
// exec output, and compares the events with reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "codex", false, "*.jsonl", "*.json", "live/*.jsonl")
}

// parse runs the pipeline over content written to a file named name.
func parse(t *testing.T, name, content string) ([]agt.Event, string) {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	out, diag, _ := providertest.Parse(t, provider.Config{}, f)
	again, _, _ := providertest.Parse(t, provider.Config{Config: stage.Config{Workers: 1}}, f)
	if !bytes.Equal(out, again) {
		t.Errorf("output differs with 1 worker")
	}
	return providertest.Events(t, out), diag
}

func lines(l ...string) string { return strings.Join(l, "\n") + "\n" }

func sum(evs []agt.Event) agt.Usage {
	var u agt.Usage
	for _, ev := range evs {
		if ev.Kind == agt.KindUsage {
			u.Add(ev.Usage)
		}
	}
	return u
}

func count(evs []agt.Event, kind string) int {
	n := 0
	for _, ev := range evs {
		if ev.Kind == kind {
			n++
		}
	}
	return n
}

// checkLinks fails when a result does not point at a call of its id.
func checkLinks(t *testing.T, evs []agt.Event) {
	t.Helper()
	calls := map[string]string{}
	for _, ev := range evs {
		if ev.Kind == agt.KindToolCall {
			calls[ev.ID] = ev.Tool.ID
		}
	}
	for _, ev := range evs {
		if ev.Kind == agt.KindToolResult {
			if id, ok := calls[ev.Result.Call]; !ok || id != ev.Result.ID {
				t.Errorf("result %q at %v links to %q (a call of %q)", ev.Result.ID, ev.Src, ev.Result.Call, id)
			}
		}
	}
}

func TestSniff(t *testing.T) {
	providertest.Sniff(t, codex.Provider{}, []providertest.SniffCase{
		{"session_meta", providertest.Head(`{"timestamp":"2025-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"x"}}`), codex.FormatRollout},
		{"truncated rollout", providertest.Head(`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":null}}`), codex.FormatRollout},
		{"ordinal", providertest.Head(`{"timestamp":"t","ordinal":0,"type":"response_item","payload":{"type":"message"}}`), codex.FormatRollout},
		{"legacy header", providertest.Head(`{"id":"0198","timestamp":"2025-08-20T13:20:47.060Z","instructions":null}`, `{"record_type":"state"}`), codex.FormatRolloutLegacy},
		{"legacy state", providertest.Head(`{"record_type":"state"}`), codex.FormatRolloutLegacy},
		{"ts doc line", providertest.Head(`{"session":{"timestamp":"t","id":"x","instructions":""},"items":[]}`), codex.FormatLegacyJSON},
		{"ts doc", agt.Head{Doc: []byte("{\n  \"session\": {\"id\": \"x\", \"timestamp\": \"t\"},\n  \"items\": [\n  ]\n}\n")}, codex.FormatLegacyJSON},
		{"exec", providertest.Head(`{"type":"thread.started","thread_id":"t"}`), codex.FormatExecJSON},
		{"exec after stderr", providertest.Head(`Reading additional input from stdin...`, `{"type":"thread.started","thread_id":"t"}`), codex.FormatExecJSON},
		{"exec resumed", providertest.Head(`{"type":"turn.started"}`), codex.FormatExecJSON},
		{"exec 0.41 items", providertest.Head(`{"type":"session.created","session_id":"s"}`), codex.FormatExecJSON},
		{"exec protocol", providertest.Head(`{"model":"gpt-5","sandbox":"read-only"}`, `{"prompt":"hi"}`, `{"id":"0","msg":{"type":"task_started"}}`), codex.FormatExecJSON},
		{"claude", providertest.Head(`{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}`), ""},
		{"pi", providertest.Head(`{"type":"session","id":"x","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/"}`), ""},
		{"copilot", providertest.Head(`{"type":"session.start","data":{"sessionId":"s"},"id":"i","timestamp":"t"}`), ""},
		{"gemini doc", agt.Head{Doc: []byte("{\n \"sessionId\": \"s\",\n \"messages\": []\n}")}, ""},
		{"not json", providertest.Head(`hello`), ""},
	})
}

// TestSniffCorpus runs detection over every corpus file: Codex files get
// their format, no other provider's file is claimed.
func TestSniffCorpus(t *testing.T) {
	dir := providertest.CorpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	live, _ := filepath.Glob(filepath.Join(dir, "live", "*", "*"))
	real, _ := filepath.Glob(filepath.Join(dir, "live", "*", "*", "*"))
	files = append(append(files, live...), real...)
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.IsDir() || strings.HasSuffix(f, ".tsv") || strings.HasSuffix(f, ".md") || filepath.Base(f) == "reference.json" {
			continue
		}
		rel, _ := filepath.Rel(dir, f)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got := (codex.Provider{}).Sniff(head(b))
		var want string
		switch {
		case strings.HasPrefix(rel, "live/codex-exec-json/"):
			want = codex.FormatExecJSON
		case strings.HasPrefix(rel, "codex/synthetic__legacy-rust"):
			want = codex.FormatRolloutLegacy
		case strings.HasPrefix(rel, "codex/synthetic__legacy-ts"):
			want = codex.FormatLegacyJSON
		case strings.HasPrefix(rel, "codex/"):
			want = codex.FormatRollout
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", rel, got, want)
		}
	}
}

// head builds what the pipeline shows detection: the first five non-blank
// lines, or the document when the first line opens one.
func head(b []byte) agt.Head {
	var h agt.Head
	for _, l := range bytes.Split(b, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		if len(h.Lines) == 0 && (l[0] == '{' || l[0] == '[') && !agt.API.Valid(l) {
			return agt.Head{Doc: b}
		}
		h.Lines = append(h.Lines, l)
		if len(h.Lines) == 5 {
			break
		}
	}
	return h
}
