package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestOddNamesPipeEqualsFused: file names with a line end, an escape
// sequence or bytes that are not UTF-8 give valid JSON in every filter, the
// same src.path whoever reads the file, and agt-parse | agt-normalize |
// agt-transcript == agt-transcript.
func TestOddNamesPipeEqualsFused(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"new\nline\x1b[2J.jsonl", "bad\xff\xfe.jsonl", "cut\xe2\x82.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(claudeLine+"\nnot json\n"), 0o644); err != nil {
			t.Skipf("cannot name a file %q here: %v", name, err)
		}
	}
	fused := runApp(t, Transcript, nil, "-q", dir)
	parsed := runApp(t, Parse, nil, "-q", dir)
	piped := runApp(t, Transcript, runApp(t, Normalize, parsed, "-q"), "-q")
	if !bytes.Equal(fused, piped) {
		t.Errorf("agt-transcript differs from the pipe:\n fused %.400s\n piped %.400s", fused, piped)
	}
	for _, out := range [][]byte{fused, parsed} {
		for _, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
			if !json.Valid(line) || !utf8.Valid(line) {
				t.Fatalf("not a valid JSON line: %.300q", line)
			}
		}
	}
	for _, want := range []string{`bad\\xff\\xfe.jsonl","line":2}`, `cut\\xe2\\x82.jsonl","line":1}`, `new\nline\u001b[2J.jsonl","line":2}`} {
		if !bytes.Contains(parsed, []byte(want)) {
			t.Errorf("agt-parse output lacks %s:\n%s", want, parsed)
		}
	}
}

// TestOddNamesRerunSkips: with -o, a second run skips inputs whose names are
// not UTF-8 like any other (the index names their unit as events do).
func TestOddNamesRerunSkips(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad\xff.jsonl"), []byte(claudeLine+"\n"), 0o644); err != nil {
		t.Skipf("cannot name a file so here: %v", err)
	}
	out := filepath.Join(t.TempDir(), "out")
	for i, want := range []string{"1 session, 0 inputs skipped", "0 sessions, 1 input skipped"} {
		var o, e bytes.Buffer
		if code := Run(context.Background(), Transcript(IO{Out: &o, Err: &e}), []string{"agt-transcript", "-o", out, dir}); code != ExitOK {
			t.Fatalf("run %d: exit %d: %s", i+1, code, e.String())
		}
		if !strings.Contains(e.String(), want) {
			t.Errorf("run %d: %s, want %q", i+1, e.String(), want)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, ".agt-index.json"))
	if err != nil || !json.Valid(b) || !bytes.Contains(b, []byte(`bad\\xff.jsonl`)) {
		t.Errorf("index %s (%v)", b, err)
	}
}
