package provider_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
)

// TestGroupSessions: the inputs of one session are read as one group where
// the last of them was, the largest copy first; a sidechain file joins the
// unit of its session file in its folder, else of another copy of it; a sidechain file whose session
// file is absent is a group of its own; other sessions keep their place.
func TestGroupSessions(t *testing.T) {
	dir := t.TempDir()
	line := func(session, uuid, extra string) string {
		return `{"type":"user","uuid":"` + uuid + `","sessionId":"` + session + `"` + extra + `,"timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hello"}}` + "\n"
	}
	files := map[string]string{
		"a/s1.jsonl":      line("s1", "u1", ""),
		"other/s2.jsonl":  line("s2", "v1", ""),
		"b/s1.jsonl":      line("s1", "u1", "") + line("s1", "u2", ""),
		"a/agent-1.jsonl": line("s1", "c1", `,"isSidechain":true,"agentId":"1"`),
		"c/agent-2.jsonl": line("s3", "d1", `,"isSidechain":true,"agentId":"2"`),
		"d/agent-3.jsonl": line("s1", "e1", `,"isSidechain":true,"agentId":"3"`),
	}
	got := readGroups(t, dir, files, "a/s1.jsonl", "other/s2.jsonl", "b/s1.jsonl", "a/agent-1.jsonl", "c/agent-2.jsonl", "d/agent-3.jsonl")
	want := strings.Join([]string{
		"other/s2.jsonl: other/s2.jsonl",
		"c/agent-2.jsonl: c/agent-2.jsonl",
		"b/s1.jsonl: b/s1.jsonl a/s1.jsonl a/agent-1.jsonl d/agent-3.jsonl",
	}, "\n")
	if got != want {
		t.Fatalf("groups:\n%s\nwant:\n%s", got, want)
	}
}

// TestGroupDocuments: copies of a whole Gemini CLI session document, apart
// in the inputs, are one group: its provider tells the session from the
// document's first block.
func TestGroupDocuments(t *testing.T) {
	dir := t.TempDir()
	doc := "{\n  \"sessionId\": \"g1\",\n  \"projectHash\": \"h\",\n  \"messages\": [\n" +
		"    {\"id\": \"m1\", \"timestamp\": \"2026-01-15T10:00:00Z\", \"type\": \"user\", \"content\": \"" + strings.Repeat("x", 40000) + "\"}\n  ]\n}\n"
	claude := `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hello"}}` + "\n"
	var ins []stage.Input
	for name, body := range map[string]string{"a/g.json": doc, "a/s.jsonl": claude, "b/g.json": doc} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"a/g.json", "a/s.jsonl", "b/g.json"} {
		ins = append(ins, stage.FileInput(filepath.Join(dir, name)))
	}
	var groups []int
	cfg := provider.Config{
		Config: stage.Config{Quiet: true},
		Skip: func(unit string, fs []stage.Input) bool {
			groups = append(groups, len(fs))
			return true
		},
	}
	if _, err := provider.Parse(context.Background(), cfg, ins, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if len(groups) != 2 || groups[0] != 1 || groups[1] != 2 {
		t.Fatalf("groups of %v files, want [1 2]", groups)
	}
}

// TestGroupExports: copies of an OpenCode export document (pretty-printed,
// its session id in "info" at its start) are one group wherever they are,
// the larger copy first, so that one transcript holds the session.
func TestGroupExports(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "opencode", "bestcodes__0c-360aa9943d-0.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	line := `{"type":"user","uuid":"u1","sessionId":"s2","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hello"}}` + "\n"
	files := map[string]string{
		"a/export.json":  string(src),
		"b/other.jsonl":  line,
		"c/backup.json":  string(src) + "\n\n", // a larger copy
		"d/unknown.json": `{"info":{"id":"nope"}}`,
	}
	got := readGroups(t, dir, files, "a/export.json", "b/other.jsonl", "c/backup.json", "d/unknown.json")
	want := "b/other.jsonl: b/other.jsonl\nc/backup.json: c/backup.json a/export.json\nd/unknown.json: d/unknown.json"
	if got != want {
		t.Errorf("groups:\n%s\nwant:\n%s", got, want)
	}
}

// readGroups writes files below dir and parses the named ones in order,
// skipping every group: it returns the groups Skip was asked about, a line
// each, "UNIT: FILES…", relative to dir.
func readGroups(t *testing.T, dir string, files map[string]string, names ...string) string {
	t.Helper()
	var ins []stage.Input
	for _, name := range names {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, stage.FileInput(p))
	}
	var groups []string
	cfg := provider.Config{
		Config: stage.Config{Quiet: true},
		Skip: func(unit string, fs []stage.Input) bool {
			var names []string
			for _, f := range fs {
				r, _ := filepath.Rel(dir, f.Path)
				names = append(names, r)
			}
			u, _ := filepath.Rel(dir, unit)
			groups = append(groups, u+": "+strings.Join(names, " "))
			return true
		},
	}
	if _, err := provider.Parse(context.Background(), cfg, ins, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	return strings.Join(groups, "\n")
}

// TestGroupLineage: a resumed session's file (the records of another
// session's file under its own session id, then its own) is read in one
// group with that session's files wherever they are: the original (the
// session whose largest copy is the smallest) first, its copies together,
// the larger first; a session that shares no first record stays apart.
func TestGroupLineage(t *testing.T) {
	dir := t.TempDir()
	line := func(session, uuid string) string {
		return `{"type":"user","uuid":"` + uuid + `","sessionId":"` + session + `","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hello"}}` + "\n"
	}
	files := map[string]string{
		"b/s2.jsonl":     line("s2", "u1") + line("s2", "u2") + line("s2", "own"),
		"other/s3.jsonl": line("s3", "v1"),
		"a/s1.jsonl":     line("s1", "u1") + line("s1", "u2"),
		"c/s1.jsonl":     line("s1", "u1") + line("s1", "u2"),
	}
	got := readGroups(t, dir, files, "b/s2.jsonl", "other/s3.jsonl", "a/s1.jsonl", "c/s1.jsonl")
	want := strings.Join([]string{
		"other/s3.jsonl: other/s3.jsonl",
		"a/s1.jsonl: a/s1.jsonl c/s1.jsonl b/s2.jsonl",
	}, "\n")
	if got != want {
		t.Fatalf("groups:\n%s\nwant:\n%s", got, want)
	}
}
