package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTranscriptHTML: --format html writes one page on stdout and refuses a
// second session there; with -o a page beside each transcript and an
// index.html of every page the folder holds, kept up to date by later
// runs (a session added, nothing new, the index lost).
func TestTranscriptHTML(t *testing.T) {
	claude := testdataFile(t, "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	codex := testdataFile(t, "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl")
	code, stdout, stderr := runCode(t, Transcript, nil, "--format", "html", claude)
	if code != 0 || !strings.HasPrefix(stdout, "<!DOCTYPE html>\n<!-- agt-row ") || !strings.HasSuffix(stdout, "</html>\n") {
		t.Fatalf("stdout: exit %d, %.80s, %s", code, stdout, stderr)
	}
	if code, _, stderr := runCode(t, Transcript, nil, "--format", "html", claude, codex); code != 1 || !strings.Contains(stderr, "give -o DIR") {
		t.Errorf("two sessions on stdout: exit %d, %s", code, stderr)
	}
	out := t.TempDir()
	page := "claude/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.html"
	other := "codex/019b04ae-b1c6-7c72-a134-a4c2de66058c.html"
	index := filepath.Join(out, "index.html")
	links := func(what string, want ...string) {
		t.Helper()
		b, err := os.ReadFile(index)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if n := strings.Count(string(b), "<tr><td"); n != len(want) {
			t.Errorf("%s: %d rows in the index, want %d", what, n, len(want))
		}
		for _, p := range want {
			if !strings.Contains(string(b), `<a href="`+p+`">`) {
				t.Errorf("%s: the index does not link %s", what, p)
			}
		}
	}
	if code, _, stderr := runCode(t, Transcript, nil, "-o", out, "--format", "html", claude); code != 0 {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(out, page)); string(b) != stdout {
		t.Errorf("the page differs from the stdout run's")
	}
	links("first run", page)
	steps := []struct {
		what, skip string
		before     func()
	}{
		{"a session added", "1 session, 1 input skipped", nil},
		{"nothing new", "0 sessions, 2 inputs skipped", nil},
		{"the index lost", "0 sessions, 2 inputs skipped", func() { os.Remove(index) }},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		_, _, stderr := runCode(t, Transcript, nil, "-o", out, "--format", "html", claude, codex)
		if !strings.Contains(stderr, s.skip) {
			t.Errorf("%s: %s", s.what, stderr)
		}
		links(s.what, page, other)
	}
}
