package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
)

// TestCorpusOneTranscriptPerSession: over the whole corpus, the files -o
// writes, the transcript lines on stdout and the distinct (provider, native
// session) pairs of agt-parse's events are the same number (a provisional
// session continued by a named one is the named one's), and -o writes no
// hashed name (no session split over two files).
func TestCorpusOneTranscriptPerSession(t *testing.T) {
	if raceBuild {
		t.Skip("a corpus-wide property, not concurrency: make long runs it")
	}
	corpus := providertest.CorpusDir(t)
	pairs := map[string]bool{}
	var continued []string
	for _, line := range bytes.Split(runApp(t, Parse, nil, "-q", corpus), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var ev struct {
			Provider      string `json:"provider"`
			NativeSession string `json:"native_session"`
			Meta          *struct {
				Type      string `json:"type"`
				Continues string `json:"continues"`
			} `json:"meta"`
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		pairs[ev.Provider+"\x00"+ev.NativeSession] = true
		if m := ev.Meta; m != nil && m.Type == agt.MetaNamed {
			continued = append(continued, ev.Provider+"\x00"+m.Continues)
		}
	}
	for _, p := range continued {
		delete(pairs, p)
	}
	stdout := runApp(t, Transcript, nil, "-q", corpus)
	lines := bytes.Count(stdout, []byte("\n"))
	out := t.TempDir()
	runApp(t, Transcript, nil, "-q", "-o", out, corpus)
	var files, hashed []string
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".transcript.jsonl") {
			files = append(files, p)
			if strings.Contains(filepath.Base(p), "~") {
				hashed = append(hashed, p)
			}
		}
		return nil
	})
	if len(pairs) < 50 || len(files) != len(pairs) || lines != len(pairs) {
		t.Errorf("%d distinct sessions in the events, %d transcript lines on stdout, %d files with -o", len(pairs), lines, len(files))
	}
	if len(hashed) > 0 {
		t.Errorf("sessions written under a hashed name: %v", hashed)
	}
}

// TestTruncatedCopyInArchive: a session given twice, as a full corpus file
// and as a truncated copy inside a .tar.gz (in either order), gives one
// transcript whose usage, cost and messages equal the full file's; the
// truncated copy alone gives less. The pipe gives the same bytes.
func TestTruncatedCopyInArchive(t *testing.T) {
	full := biggestClaudeSession(t)
	body, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(body, []byte("\n"))
	cut := bytes.Join(lines[:len(lines)/2], nil)
	dir := t.TempDir()
	archive := filepath.Join(dir, "backup.tar.gz")
	writeTarGz(t, archive, "projects/copy/"+filepath.Base(full), cut)

	type summary struct {
		NativeSession string          `json:"native_session"`
		Usage         json.RawMessage `json:"usage"`
		Cost          json.RawMessage `json:"cost_usd"`
		Messages      json.RawMessage `json:"messages"`
		Subagents     json.RawMessage `json:"subagents"`
	}
	one := func(out []byte) summary {
		t.Helper()
		if n := bytes.Count(out, []byte("\n")); n != 1 {
			t.Fatalf("%d transcripts, want 1", n)
		}
		var s summary
		if err := json.Unmarshal(out, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	want := one(runApp(t, Transcript, nil, "-q", full))
	if part := one(runApp(t, Transcript, nil, "-q", archive)); bytes.Equal(part.Usage, want.Usage) {
		t.Fatalf("the truncated copy alone has the full file's usage: the test proves nothing")
	}
	for _, args := range [][]string{{full, archive}, {archive, full}} {
		fused := runApp(t, Transcript, nil, append([]string{"-q"}, args...)...)
		got := one(fused)
		if got.NativeSession != want.NativeSession || !bytes.Equal(got.Usage, want.Usage) || !bytes.Equal(got.Cost, want.Cost) {
			t.Errorf("%v: session %s usage %s cost %s, want %s %s %s", args, got.NativeSession, got.Usage, got.Cost, want.NativeSession, want.Usage, want.Cost)
		}
		if !bytes.Equal(got.Messages, want.Messages) || !bytes.Equal(got.Subagents, want.Subagents) {
			t.Errorf("%v: the messages differ from the full file's", args)
		}
		piped := runApp(t, Transcript, runApp(t, Normalize, runApp(t, Parse, nil, append([]string{"-q"}, args...)...), "-q"), "-q")
		if !bytes.Equal(fused, piped) {
			t.Errorf("%v: agt-transcript differs from the pipe", args)
		}
		out := t.TempDir()
		runApp(t, Transcript, nil, append([]string{"-q", "-o", out}, args...)...)
		got2, _ := filepath.Glob(filepath.Join(out, "claude", "*.transcript.jsonl"))
		if len(got2) != 1 {
			t.Errorf("%v: -o wrote %v, want one file", args, got2)
		}
	}
}

// biggestClaudeSession is the largest Claude Code session file of the
// corpus that has usage.
func biggestClaudeSession(t *testing.T) string {
	dir := filepath.Join(providertest.CorpusDir(t), "claude")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Skip(err)
	}
	type file struct {
		path string
		size int64
	}
	var fs []file
	for _, e := range ents {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && strings.HasSuffix(e.Name(), ".jsonl") && !strings.HasPrefix(e.Name(), "agent-") {
			fs = append(fs, file{filepath.Join(dir, e.Name()), info.Size()})
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].size > fs[j].size })
	for _, f := range fs {
		if b, _ := os.ReadFile(f.path); bytes.Contains(b, []byte(`"output_tokens"`)) {
			return f.path
		}
	}
	t.Skip("no Claude Code session with usage in the corpus")
	return ""
}

func writeTarGz(t *testing.T, path, name string, body []byte) {
	t.Helper()
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	tw := tar.NewWriter(z)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write(body)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	z.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
