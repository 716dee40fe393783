package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sessionLine = `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hello"}}` + "\n"

// TestOutputFresh checks what makes a unit fresh: its inputs, the options
// of the run (the price file by content) and its output files as written.
func TestOutputFresh(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.jsonl")
	os.WriteFile(in, []byte(sessionLine), 0o644)
	out := t.TempDir()
	prices := filepath.Join(t.TempDir(), "prices.json")
	os.WriteFile(prices, []byte(`{"m1":{"input_cost_per_token":1e-6,"output_cost_per_token":2e-6}}`), 0o644)
	file := filepath.Join(out, "claude", "s1.transcript.jsonl")

	run := func(want string, args ...string) {
		t.Helper()
		code, _, stderr := runCode(t, Transcript, nil, append(args, "-o", out, in)...)
		if code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", args, code, stderr, want)
		}
	}
	run("1 session, 0 inputs skipped", "--prices", prices)
	run("0 sessions, 1 input skipped", "--prices", prices)

	// a changed output file (same size) or a missing one is written again
	b, _ := os.ReadFile(file)
	os.WriteFile(file, []byte(strings.Replace(string(b), "hello", "HELLO", 1)), 0o644)
	run("1 session, 0 inputs skipped", "--prices", prices)
	if b2, _ := os.ReadFile(file); string(b2) != string(b) {
		t.Errorf("the changed file was not written again:\n%s", b2)
	}
	os.Remove(file)
	run("1 session, 0 inputs skipped", "--prices", prices)

	// the price file's content, not its name, is part of the fingerprint
	os.WriteFile(prices, []byte(`{"m1":{"input_cost_per_token":3e-6,"output_cost_per_token":2e-6}}`), 0o644)
	run("1 session, 0 inputs skipped", "--prices", prices)
	run("0 sessions, 1 input skipped", "--prices", prices)
	// so are --provider, --raw and --to
	run("1 session, 0 inputs skipped", "--prices", prices, "--provider", "claude")
	run("1 session, 0 inputs skipped", "--prices", prices, "--provider", "claude", "--raw")
	run("1 session, 0 inputs skipped", "--prices", prices, "--provider", "claude", "--raw", "--to", "codex")
	run("0 sessions, 1 input skipped", "--prices", prices, "--provider", "claude", "--raw", "--to", "codex")

	// every file the index names is in the folder, with the size it has
	var ix struct {
		Units map[string]struct {
			Fingerprint string
			Files       []struct {
				Path string
				Size int64
			}
		}
	}
	b, _ = os.ReadFile(filepath.Join(out, ".agt-index.json"))
	if err := json.Unmarshal(b, &ix); err != nil || len(ix.Units) != 1 {
		t.Fatalf("index: %v %s", err, b)
	}
	for _, e := range ix.Units {
		if e.Fingerprint == "" || len(e.Files) != 1 {
			t.Errorf("entry %+v", e)
		}
		for _, f := range e.Files {
			if st, err := os.Stat(filepath.Join(out, f.Path)); err != nil || st.Size() != f.Size {
				t.Errorf("%s: %v", f.Path, err)
			}
		}
	}
}

// TestOutputStaleTemps: the temporary files a killed run left (the
// index's too) are removed by the next run, which holds the lock; files
// through a linked folder are left alone.
func TestOutputStaleTemps(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.jsonl")
	os.WriteFile(in, []byte(sessionLine), 0o644)
	out, away := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(out, "claude"), 0o755)
	stale := []string{".agt-index.json.tmp-0badcafe-1", "claude/.s1.transcript.jsonl.tmp-0badcafe-2"}
	for _, f := range stale {
		os.WriteFile(filepath.Join(out, f), []byte("{\"partial"), 0o644)
	}
	os.WriteFile(filepath.Join(away, ".x.tmp-1"), nil, 0o644)
	os.Symlink(away, filepath.Join(out, "link"))
	// --force: the link is the user's, in a folder with no index yet
	if code, _, stderr := runCode(t, Transcript, nil, "--force", "-o", out, in); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range stale {
		if _, err := os.Lstat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s left behind", f)
		}
	}
	if _, err := os.Stat(filepath.Join(away, ".x.tmp-1")); err != nil {
		t.Errorf("a file behind a link was removed: %v", err)
	}
}

// TestOutputCaseFold: two ids that differ only in case never share a file,
// as the folder may be copied to a file system that does not tell them
// apart.
func TestOutputCaseFold(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte(sessionLine), 0o644)
	os.WriteFile(b, []byte(strings.Replace(sessionLine, `"s1"`, `"S1"`, 1)), 0o644)
	out := t.TempDir()
	code, _, stderr := runCode(t, Transcript, nil, "-o", out, a, b)
	got := treeContents(t, out)
	if code != 0 || len(got) != 2 || got["claude/s1.transcript.jsonl"] == "" {
		t.Errorf("exit %d, files %v, stderr %s", code, keys(got), stderr)
	}
}
