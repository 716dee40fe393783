package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// claudeTree lays the corpus's Claude Code files out as a Claude Code tree
// under root (root/.claude/projects/<project>/), as --discover finds it.
func claudeTree(t *testing.T, root string) string {
	t.Helper()
	src := filepath.Join(providertest.CorpusDir(t), "claude")
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Skip(err)
	}
	proj := filepath.Join(root, ".claude", "projects", "-home-user-work")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(proj, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(root, ".claude")
}

// tarGzTree writes the tree under dir/name as a .tar.gz at path, its
// members named name/...
func tarGzTree(t *testing.T, path, dir, name string) {
	t.Helper()
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	tw := tar.NewWriter(z)
	var files []string
	filepath.WalkDir(filepath.Join(dir, name), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(b)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	z.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sessionCosts is the cost_usd of each transcript line, by provider and
// native session, and their sum.
func sessionCosts(t *testing.T, lines [][]byte) (map[string]float64, float64) {
	t.Helper()
	costs := map[string]float64{}
	var keys []string
	for _, l := range lines {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var tr struct {
			Provider      string   `json:"provider"`
			NativeSession string   `json:"native_session"`
			Cost          *float64 `json:"cost_usd"`
		}
		if err := json.Unmarshal(l, &tr); err != nil {
			t.Fatal(err)
		}
		k := tr.Provider + "/" + tr.NativeSession
		if _, dup := costs[k]; dup {
			t.Errorf("session %s twice", k)
		}
		costs[k] = 0
		if tr.Cost != nil {
			costs[k] = *tr.Cost
		}
		keys = append(keys, k)
	}
	sort.Strings(keys) // one order of addition, whatever the files' or lines'
	sum := 0.0
	for _, k := range keys {
		sum += costs[k]
	}
	return costs, sum
}

// checkOnce checks that the output folder out holds one transcript file
// per session of want (the transcript lines of one run), none under a
// hashed name, and that their costs and the sum of cost_usd over the
// folder equal the run's.
func checkOnce(t *testing.T, out string, want []byte, step string) {
	t.Helper()
	var lines [][]byte
	var hashed []string
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".transcript.jsonl") {
			b, _ := os.ReadFile(p)
			lines = append(lines, b)
			if strings.Contains(filepath.Base(p), "~") {
				hashed = append(hashed, filepath.Base(p))
			}
		}
		return nil
	})
	wantCosts, wantSum := sessionCosts(t, bytes.Split(want, []byte("\n")))
	gotCosts, gotSum := sessionCosts(t, lines)
	if len(lines) != len(wantCosts) || len(hashed) > 0 {
		t.Errorf("%s: %d transcript files for %d sessions; under a hashed name: %v", step, len(lines), len(wantCosts), hashed)
	}
	for k, c := range wantCosts {
		if g, ok := gotCosts[k]; !ok || math.Abs(g-c) > 1e-9 {
			t.Errorf("%s: session %s costs %v in the folder, %v in one run (there: %v)", step, k, g, c, ok)
		}
	}
	if math.Abs(gotSum-wantSum) > 1e-9 || wantSum == 0 {
		t.Errorf("%s: cost_usd over the folder sums to %.6f, one run's to %.6f", step, gotSum, wantSum)
	}
}

// TestOutputFourSpellings is issue 23's sequence: one archive converted
// into one -o folder as typed from its folder, by its absolute path, from
// the parent folder, then the tree it was made from. The folder holds one
// transcript per session, and the sum of cost_usd over it is one run's.
// The later runs convert nothing.
func TestOutputFourSpellings(t *testing.T) {
	root := t.TempDir()
	x := filepath.Join(root, "x")
	claudeTree(t, x)
	tarGzTree(t, filepath.Join(x, "claude.tar.gz"), x, ".claude")
	want := runApp(t, Transcript, nil, "-q", filepath.Join(x, "claude.tar.gz"))
	if !bytes.Equal(want, runApp(t, Transcript, nil, "-q", filepath.Join(x, ".claude"))) {
		t.Fatal("the archive and its tree give other transcripts: the test proves nothing")
	}

	t.Chdir(x)
	runApp(t, Transcript, nil, "-q", "-o", "out", "claude.tar.gz")
	checkOnce(t, filepath.Join(x, "out"), want, "relative")
	runApp(t, Transcript, nil, "-q", "-o", "out", filepath.Join(x, "claude.tar.gz"))
	checkOnce(t, filepath.Join(x, "out"), want, "absolute")
	t.Chdir(root)
	runApp(t, Transcript, nil, "-q", "-o", "x/out", "x/claude.tar.gz")
	checkOnce(t, filepath.Join(x, "out"), want, "from the parent folder")
	code, _, stderr := runCode(t, Transcript, nil, "-o", "x/out", "x/.claude")
	checkOnce(t, filepath.Join(x, "out"), want, "the tree")
	if code != 0 || !strings.Contains(stderr, " 0 sessions, ") {
		t.Errorf("the tree after its archive: exit %d, %s", code, stderr)
	}
	// the tree is now known by its paths: a run again does not hash it
	code, _, stderr = runCode(t, Transcript, nil, "-o", "x/out", "x/.claude")
	if code != 0 || !strings.Contains(stderr, " 0 sessions, ") {
		t.Errorf("the tree again: exit %d, %s", code, stderr)
	}
	checkOnce(t, filepath.Join(x, "out"), want, "the tree again")
}

// TestOutputThenDiscover: a tree converted by a relative path, then found
// by --discover (HOME holding it), is converted once.
func TestOutputThenDiscover(t *testing.T) {
	home := t.TempDir()
	claudeTree(t, home)
	for _, v := range agentVars {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	t.Setenv("HOME", home)
	want := runApp(t, Transcript, nil, "-q", filepath.Join(home, ".claude", "projects"))
	t.Chdir(home)
	out := filepath.Join(t.TempDir(), "out")
	runApp(t, Transcript, nil, "-q", "-o", out, ".claude/projects")
	checkOnce(t, out, want, "the path")
	code, _, stderr := runCode(t, Transcript, nil, "-o", out, "--discover")
	checkOnce(t, out, want, "--discover")
	if code != 0 || !strings.Contains(stderr, " 0 sessions, ") {
		t.Errorf("--discover after the path: exit %d, %s", code, stderr)
	}
}

// TestOutputBackupLater: a tree, then in a later run its backup (a copy
// elsewhere, with other times), into one folder: one transcript per
// session, the costs of one run.
func TestOutputBackupLater(t *testing.T) {
	root := t.TempDir()
	tree := claudeTree(t, filepath.Join(root, "live"))
	backup := claudeTree(t, filepath.Join(root, "backup"))
	want := runApp(t, Transcript, nil, "-q", tree)
	out := filepath.Join(root, "out")
	runApp(t, Transcript, nil, "-q", "-o", out, tree)
	checkOnce(t, out, want, "the tree")
	runApp(t, Transcript, nil, "-q", "-o", out, backup)
	checkOnce(t, out, want, "its backup")
	// both given in one run: one group per session (read again, as its
	// inputs are grouped otherwise), written over its own file
	runApp(t, Transcript, nil, "-q", "-o", out, tree, backup)
	checkOnce(t, out, want, "both")
}
