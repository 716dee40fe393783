package continuedev_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/continuedev"
	"github.com/agt-project/agt/provider/providertest"
)

// TestGolden parses a real session file and session index and compares
// the events with reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "continue", true, "*.json")
}

func TestSniff(t *testing.T) {
	providertest.Sniff(t, continuedev.Provider{}, []providertest.SniffCase{
		{"session", agt.Head{Doc: []byte("{\n \"sessionId\": \"s\", \"title\": \"t\", \"workspaceDirectory\": \"/w\", \"history\": []\n}")}, continuedev.FormatSession},
		{"index", agt.Head{Doc: []byte("[\n {\"sessionId\": \"s\", \"title\": \"t\", \"dateCreated\": \"1734518111194\", \"workspaceDirectory\": \"/w\"}\n]")}, continuedev.FormatIndex},
		{"tokens", providertest.Head(`{"model":"qwen2.5-coder:7b","provider":"ollama","promptTokens":252,"generatedTokens":370}`), continuedev.FormatTokens},
		{"tokens 0.2.0", providertest.Head(`{"timestamp":"2025-03-01T10:00:00.000Z","model":"m","provider":"p","promptTokens":1,"generatedTokens":2,"eventName":"tokensGenerated"}`), continuedev.FormatTokens},
		{"session without history", agt.Head{Doc: []byte(`{"sessionId":"s","workspaceDirectory":"/w"}`)}, ""},
		{"trajectory", agt.Head{Doc: []byte(`[{"id":0,"timestamp":"t","source":"user","action":"message"}]`)}, ""},
	})
}

// TestJoin lays the real files out as Continue does (sessions/<id>.json
// beside sessions/sessions.json): the session's transcript takes its
// creation time from the index.
func TestJoin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	os.MkdirAll(dir, 0o755)
	for from, to := range map[string]string{
		"oleg121203__Developer__session-28fdaafd.json": "28fdaafd-5b3a-4342-90db-c3581e27b607.json",
		"oleg121203__Developer__sessions-index.json":   "sessions.json",
	} {
		b, err := os.ReadFile(providertest.Testdata(t, "continue", from))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, to), b, 0o644)
	}
	out := providertest.ParseClean(t, provider.Config{}, filepath.Join(dir, "28fdaafd-5b3a-4342-90db-c3581e27b607.json"))
	found := false
	for _, ev := range providertest.Events(t, out) {
		if ev.Meta != nil && ev.Meta.Type == "session_index" {
			found = true
			if ev.TS != "2024-12-19T03:53:56.896Z" || ev.NativeSession != "28fdaafd-5b3a-4342-90db-c3581e27b607" || filepath.Base(ev.Src.Path) != "sessions.json" {
				t.Errorf("index event %+v", ev)
			}
		}
	}
	if !found {
		t.Error("no index entry joined")
	}
}

// TestTokens: every line of the token log is one call's usage with the
// agent's own counts (the sums of promptTokens and generatedTokens).
func TestTokens(t *testing.T) {
	f := providertest.Testdata(t, "continue", "oleg121203__Developer__dev_data-tokens_generated.jsonl")
	r, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var in, out, lines int64
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var l struct{ PromptTokens, GeneratedTokens int64 }
		json.Unmarshal(sc.Bytes(), &l)
		in, out, lines = in+l.PromptTokens, out+l.GeneratedTokens, lines+1
	}
	got := providertest.ParseClean(t, provider.Config{}, f)
	var sum agt.Usage
	n := int64(0)
	for _, ev := range providertest.Events(t, got) {
		if ev.Kind == agt.KindUsage {
			n++
			sum.Add(ev.Usage)
		}
	}
	if n != lines || sum.Input != in || sum.Output != out || sum.Total != in+out {
		t.Errorf("%d usage events of %d lines, sum %+v, want %d in %d out", n, lines, sum, in, out)
	}
	t.Logf("%d calls, %d prompt, %d generated tokens", n, in, out)
}
