package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// runApp runs a filter in-process and returns its stdout.
func runApp(t *testing.T, app App, stdin []byte, args ...string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), app(IO{In: bytes.NewReader(stdin), Out: &out, Err: &errb}), append([]string{"agt"}, args...))
	if code != ExitOK {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	return out.Bytes()
}

// corpusInputs lists every input of the shared corpus but the agents agt
// does not read.
func corpusInputs(t *testing.T) []string {
	dir := providertest.CorpusDir(t)
	ins, _ := stage.Expand([]string{dir}, nil, provider.Claim)
	var paths []string
	for _, in := range ins {
		if !strings.Contains(in.Path, string(filepath.Separator)+"other"+string(filepath.Separator)) && filepath.Base(in.Path) != "reference.json" {
			paths = append(paths, in.Path)
		}
	}
	return paths
}

// TestPipeEqualsFused: agt-parse x | agt-normalize | agt-transcript gives
// the same bytes as agt-transcript x, for every corpus input; and
// agt-normalize run twice changes nothing, event count in = count out.
// With -short (the race detector's run) every fifth input is taken.
func TestPipeEqualsFused(t *testing.T) {
	for i, p := range corpusInputs(t) {
		if testing.Short() && i%5 != 0 {
			continue
		}
		name, _ := filepath.Rel(filepath.Dir(filepath.Dir(p)), p)
		t.Run(name, func(t *testing.T) {
			fused := runApp(t, Transcript, nil, "-q", p)
			parsed := runApp(t, Parse, nil, "-q", p)
			normalized := runApp(t, Normalize, parsed, "-q")
			piped := runApp(t, Transcript, normalized, "-q")
			if !bytes.Equal(fused, piped) {
				t.Errorf("agt-transcript differs from the pipe:\n fused %.300s\n piped %.300s", fused, piped)
			}
			if again := runApp(t, Normalize, normalized, "-q"); !bytes.Equal(again, normalized) {
				t.Errorf("normalizing twice changes the events")
			}
			if a, b := bytes.Count(parsed, []byte("\n")), bytes.Count(normalized, []byte("\n")); a != b {
				t.Errorf("%d events in, %d out of agt-normalize", a, b)
			}
			if fusedNorm := runApp(t, Normalize, nil, "-q", p); !bytes.Equal(fusedNorm, normalized) {
				t.Errorf("agt-normalize x differs from agt-parse x | agt-normalize")
			}
		})
	}
}

// TestWorkersSameTranscripts: -j 1 and -j 8 write the same files.
func TestWorkersSameTranscripts(t *testing.T) {
	dir := providertest.CorpusDir(t)
	if raceBuild { // the race detector on the Claude Code part, the largest
		dir = filepath.Join(dir, "claude")
	}
	out1, out8 := t.TempDir(), t.TempDir()
	runApp(t, Transcript, nil, "-q", "-j", "1", "--stream-log", "raw", "-o", out1, dir)
	runApp(t, Transcript, nil, "-q", "-j", "8", "--stream-log", "raw", "-o", out8, dir)
	a, b := treeContents(t, out1), treeContents(t, out8)
	if len(a) == 0 {
		t.Fatal("no files written")
	}
	// no silent overwrite: -o writes a transcript file for every transcript
	// line a stdout run prints
	files := 0
	for f := range a {
		if strings.HasSuffix(f, ".transcript.jsonl") {
			files++
		}
	}
	if lines := bytes.Count(runApp(t, Transcript, nil, "-q", dir), []byte("\n")); files != lines {
		t.Errorf("-o wrote %d transcript files, stdout has %d transcripts", files, lines)
	}
	if len(a) != len(b) {
		t.Fatalf("%d files with -j 1, %d with -j 8", len(a), len(b))
	}
	for f, c := range a {
		if b[f] != c {
			t.Errorf("%s differs between -j 1 and -j 8", f)
		}
	}
}

// treeContents maps every file below root (but the index) to its content.
func treeContents(t *testing.T, root string) map[string]string {
	m := map[string]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == ".agt-index.json" || filepath.Base(p) == ".agt-lock" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		m[rel] = string(b)
		return nil
	})
	return m
}
