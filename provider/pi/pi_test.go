package pi_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/pi"
	"github.com/agt-project/agt/provider/providertest"
)

// TestGolden parses licensed excerpts of real session files and generated
// live outputs and compares the events with reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "pi", true, "*.jsonl", "live/*.jsonl")
}

func TestSniff(t *testing.T) {
	const (
		v3header = `{"type":"session","version":3,"id":"019f4e6f-89f2-7f82-9bf9-a4790d571aa6","timestamp":"2026-07-10T23:49:20.498Z","cwd":"/w"}`
		v1header = `{"type":"session","id":"d703a1a9-1b7b-4fb1-b512-c9738b1fe617","timestamp":"2025-11-20T23:33:50.805Z","cwd":"/w","provider":"anthropic","modelId":"claude-sonnet-4-5","thinkingLevel":"off"}`
		entry    = `{"type":"model_change","id":"a5b443fc","parentId":null,"timestamp":"2026-07-10T23:49:21.990Z","provider":"openai-codex","modelId":"gpt-5.6-sol"}`
		v1msg    = `{"type":"message","timestamp":"2025-11-20T23:33:01.550Z","message":{"role":"user","content":[{"type":"text","text":"/mode"}],"timestamp":1763681581544}}`
		msgStart = `{"type":"message_start","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1795335664783}}`
	)
	providertest.Sniff(t, pi.Provider{}, []providertest.SniffCase{
		{"v3 session", providertest.Head(v3header, entry), pi.FormatSession},
		{"v1 session", providertest.Head(v1header, v1msg), pi.FormatSession},
		{"header only", providertest.Head(v3header), pi.FormatSession},
		{"entries without header", providertest.Head(entry, v1msg), pi.FormatSession},
		{"json mode", providertest.Head(v3header, `{"type":"agent_start"}`, `{"type":"turn_start"}`), pi.FormatJSON},
		{"rpc", providertest.Head(`{"id":"req-1","type":"response","command":"prompt","success":true}`, `{"type":"agent_start"}`), pi.FormatRPC},
		{"rpc events only", providertest.Head(`{"type":"agent_start"}`, `{"type":"turn_start"}`, msgStart), pi.FormatRPC},
		{"rpc after stderr noise", providertest.Head(`warning: something`, msgStart), pi.FormatRPC},
		{"weak events only", providertest.Head(`{"type":"agent_start"}`, `{"type":"turn_start"}`), ""},
		{"message without pi role", providertest.Head(`{"type":"message","timestamp":"2026-01-01T00:00:00Z","message":{"role":"model"}}`), ""},
		{"gemini stream message", providertest.Head(`{"type":"message","timestamp":"2026-11-22T08:18:14.017Z","role":"user","content":"hi"}`), ""},
		{"codex", providertest.Head(`{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}`), ""},
		{"droid", providertest.Head(`{"type":"session_start","id":"a31fbbb0","title":"x"}`), ""},
		{"claude", providertest.Head(`{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}`), ""},
		{"session without id", providertest.Head(`{"type":"session","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}`), ""},
		{"document", agt.Head{Doc: []byte(`{"type":"session"}`)}, ""},
	})
}

// TestTentative: a session header alone is tentative (a session file and
// json mode output both open with it); with its next line, or as a head of
// anything else, detection is final.
func TestTentative(t *testing.T) {
	const header = `{"type":"session","version":3,"id":"019f4e6f-89f2-7f82-9bf9-a4790d571aa6","timestamp":"2026-07-10T23:49:20.498Z","cwd":"/w"}`
	cases := []struct {
		name string
		h    agt.Head
		want bool
	}{
		{"header alone", providertest.Head(header), true},
		{"header and entry", providertest.Head(header, `{"type":"model_change","id":"a","parentId":null,"timestamp":"2026-07-10T23:49:21.990Z","modelId":"m"}`), false},
		{"header and agent event", providertest.Head(header, `{"type":"agent_start"}`), false},
		{"rpc response", providertest.Head(`{"id":"req-1","type":"response","command":"prompt","success":true}`), false},
		{"entry alone", providertest.Head(`{"type":"model_change","id":"a","parentId":null,"timestamp":"2026-07-10T23:49:21.990Z","modelId":"m"}`), false},
		{"document", agt.Head{Doc: []byte(header)}, false},
	}
	for _, c := range cases {
		if got := (pi.Provider{}).Tentative(c.h); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// readHead reads the head of a file as the pipeline does: its first five
// non-blank lines, or the whole file when it is one JSON document.
func readHead(t *testing.T, path string) agt.Head {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var h agt.Head
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if len(h.Lines) == 0 && (l[0] == '{' || l[0] == '[') && !agt.API.Valid([]byte(l)) {
			return agt.Head{Doc: b}
		}
		h.Lines = append(h.Lines, []byte(l))
		if len(h.Lines) == 5 {
			break
		}
	}
	return h
}

// TestSniffCorpus checks detection on every file of the shared corpus: pi
// files get their format, no other provider's file is claimed.
func TestSniffCorpus(t *testing.T) {
	dir := providertest.CorpusDir(t)
	want := map[string]string{"pi": pi.FormatSession, "live/pi-json": pi.FormatJSON, "live/pi-rpc": pi.FormatRPC}
	n := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".tsv") || strings.HasSuffix(path, ".md") || filepath.Base(path) == "reference.json" {
			return err
		}
		rel, _ := filepath.Rel(dir, filepath.Dir(path))
		got := (pi.Provider{}).Sniff(readHead(t, path))
		if got != want[filepath.ToSlash(rel)] {
			t.Errorf("%s: Sniff = %q, want %q", path, got, want[filepath.ToSlash(rel)])
		}
		n++
		return nil
	})
	if n == 0 {
		t.Fatal("no corpus files")
	}
}
