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
	if testing.Short() {
		t.Skip("over the corpus: run without -short (the race run leaves it out)")
	}
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
	if testing.Short() {
		t.Skip("over the corpus: run without -short (the race run leaves it out)")
	}
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
	if testing.Short() {
		t.Skip("over the corpus: run without -short (the race run leaves it out)")
	}
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

// twoCopies writes a session as live/a.jsonl and as backup/a.jsonl, each
// with a record the other lacks, under dir.
func twoCopies(t *testing.T, dir string) (live, backup string) {
	t.Helper()
	line := func(uuid, ts, text string) string {
		return `{"type":"user","uuid":"` + uuid + `","sessionId":"s1","timestamp":"2026-01-15T10:00:0` + ts + `Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	live, backup = filepath.Join(dir, "live", "a.jsonl"), filepath.Join(dir, "backup", "a.jsonl")
	for p, body := range map[string]string{
		live:   line("u1", "0", "first") + line("u3", "2", "only in the live file"),
		backup: line("u1", "0", "first") + line("u2", "1", "only in the backup"),
	} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return live, backup
}

// TestOutputIndexV2: a folder whose index has the previous layout
// (agt.index/2: units keyed by their path as typed, inputs as paths) keeps
// its names: the unit is converted again once, over its own file, and the
// index is then of the current layout.
func TestOutputIndexV2(t *testing.T) {
	dir, live, out, written := convertedOnce(t)
	var ix struct {
		Units map[string]struct {
			Files []json.RawMessage `json:"files"`
		} `json:"units"`
	}
	b, _ := os.ReadFile(filepath.Join(out, ".agt-index.json"))
	if err := json.Unmarshal(b, &ix); err != nil || len(ix.Units) != 1 {
		t.Fatalf("index: %v, %s", err, b)
	}
	var files []json.RawMessage
	for _, e := range ix.Units {
		files = e.Files
	}
	// as agt wrote it before: the path as typed (relative), inputs as paths
	old, _ := json.Marshal(map[string]any{"schema": "agt.index/2", "units": map[string]any{
		"live/a.jsonl": map[string]any{"fingerprint": "0000", "files": files, "inputs": []string{"live/a.jsonl"}}}})
	if err := os.WriteFile(filepath.Join(out, ".agt-index.json"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	// the file changed by hand: a unit that lost its name would leave it be
	os.WriteFile(filepath.Join(out, "claude", "s1.transcript.jsonl"), []byte("{}\n"), 0o644)
	t.Chdir(dir)
	convertedAgain(t, out, written, "-o", "out", "live/a.jsonl")
	code, _, stderr := runCode(t, Transcript, nil, "-o", "out", live)
	if code != 0 || !strings.Contains(stderr, " 0 sessions, 1 input skipped") {
		t.Errorf("again, by its absolute path: exit %d, %s", code, stderr)
	}
}

// convertedOnce converts one of twoCopies into the folder out, in dir:
// live is the input, written the transcript it gave.
func convertedOnce(t *testing.T) (dir, live, out string, written []byte) {
	dir = t.TempDir()
	live, _ = twoCopies(t, dir)
	out = filepath.Join(dir, "out")
	runApp(t, Transcript, nil, "-q", "-o", out, live)
	written, _ = os.ReadFile(filepath.Join(out, "claude", "s1.transcript.jsonl"))
	return dir, live, out, written
}

// convertedAgain runs agt-transcript with args over the folder out, whose
// index an earlier version wrote: the unit is converted again once, into
// the name it had (the transcript written, the only file), and the index
// is then of the current layout.
func convertedAgain(t *testing.T, out string, written []byte, args ...string) {
	t.Helper()
	code, _, stderr := runCode(t, Transcript, nil, args...)
	if code != 0 || !strings.Contains(stderr, " 1 session, 0 inputs skipped") || strings.Contains(stderr, "is written as") {
		t.Errorf("after the old index: exit %d, %s", code, stderr)
	}
	names, _ := filepath.Glob(filepath.Join(out, "claude", "*"))
	if got, _ := os.ReadFile(filepath.Join(out, "claude", "s1.transcript.jsonl")); len(names) != 1 || !bytes.Equal(got, written) {
		t.Errorf("files %v; s1.transcript.jsonl %q, want the first run's", names, got)
	}
	if b, _ := os.ReadFile(filepath.Join(out, ".agt-index.json")); !bytes.Contains(b, []byte(`"schema":"agt.index/4"`)) || bytes.Contains(b, []byte(`"sha256"`)) {
		t.Errorf("index not migrated: %s", b)
	}
}

// TestOutputIndexV3: a folder whose index has the previous layout
// (agt.index/3: SHA-256 sums) keeps its names; its sums, of another hash,
// are not read, so that the unit is converted again once, over its own
// file, and then skipped under the current layout.
func TestOutputIndexV3(t *testing.T) {
	_, live, out, written := convertedOnce(t)
	b, _ := os.ReadFile(filepath.Join(out, ".agt-index.json"))
	if !bytes.Contains(b, []byte(`"xxh3":"`)) {
		t.Fatalf("no sums in the index: %s", b)
	}
	old := bytes.ReplaceAll(bytes.Replace(b, []byte(`"schema":"agt.index/4"`), []byte(`"schema":"agt.index/3"`), 1), []byte(`"xxh3":"`), []byte(`"sha256":"`))
	if err := os.WriteFile(filepath.Join(out, ".agt-index.json"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	convertedAgain(t, out, written, "-o", out, live)
	code, _, stderr := runCode(t, Transcript, nil, "-o", out, live)
	if code != 0 || !strings.Contains(stderr, " 0 sessions, 1 input skipped") {
		t.Errorf("again: exit %d, %s", code, stderr)
	}
}

// TestOutputRecallNotFromFolder: whatever the index names as a session's
// earlier inputs, a file in the output folder (or a relative path) is
// never read back when the session is met again.
func TestOutputRecallNotFromFolder(t *testing.T) {
	dir := t.TempDir()
	live, backup := twoCopies(t, dir)
	out := filepath.Join(dir, "out")
	runApp(t, Transcript, nil, "-q", "-o", out, live)
	planted := filepath.Join(out, "claude", "planted.jsonl")
	os.WriteFile(planted, []byte(`{"type":"user","uuid":"u9","sessionId":"s1","timestamp":"2026-01-15T10:00:09Z","message":{"role":"user","content":"read back from the folder"}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "rel.jsonl"), []byte(`{"type":"user","uuid":"u8","sessionId":"s1","timestamp":"2026-01-15T10:00:08Z","message":{"role":"user","content":"read by a relative path"}}`+"\n"), 0o644)
	var ix map[string]any
	b, _ := os.ReadFile(filepath.Join(out, ".agt-index.json"))
	if err := json.Unmarshal(b, &ix); err != nil {
		t.Fatal(err)
	}
	for _, e := range ix["units"].(map[string]any) {
		e := e.(map[string]any)
		e["inputs"] = append(e["inputs"].([]any), map[string]any{"path": planted, "size": 1, "mtime": "x"}, map[string]any{"path": "rel.jsonl", "size": 1, "mtime": "x"})
	}
	b, _ = json.Marshal(ix)
	os.WriteFile(filepath.Join(out, ".agt-index.json"), b, 0o644)
	t.Chdir(dir)
	runApp(t, Transcript, nil, "-q", "-o", out, backup)
	got, _ := os.ReadFile(filepath.Join(out, "claude", "s1.transcript.jsonl"))
	if !bytes.Contains(got, []byte("only in the backup")) || !bytes.Contains(got, []byte("only in the live file")) {
		t.Errorf("the copies were not merged: %s", got)
	}
	if bytes.Contains(got, []byte("read back")) || bytes.Contains(got, []byte("relative path")) {
		t.Errorf("an input the index named in the output folder or by a relative path was read: %s", got)
	}
}

// TestOutputOlderBackupThenTree: an older backup (every session file cut to
// its first half) converted first, then in a later run the tree: each
// session is read again with its backup copy and rewritten in place, so
// the folder holds one transcript per session with the tree's costs, as
// one run over both gives; the backup given again converts nothing new.
func TestOutputOlderBackupThenTree(t *testing.T) {
	if testing.Short() {
		t.Skip("over the corpus: run without -short (the race run leaves it out)")
	}
	root := t.TempDir()
	tree := claudeTree(t, filepath.Join(root, "live"))
	backup := claudeTree(t, filepath.Join(root, "backup"))
	filepath.WalkDir(backup, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			lines := bytes.SplitAfter(b, []byte("\n"))
			os.WriteFile(p, bytes.Join(lines[:(len(lines)+1)/2], nil), 0o644)
		}
		return nil
	})
	want := runApp(t, Transcript, nil, "-q", tree)
	if both := runApp(t, Transcript, nil, "-q", tree, backup); !bytes.Equal(both, want) {
		t.Fatal("the tree with its older backup differs from the tree: the union rule of one run does not hold")
	}
	if part := runApp(t, Transcript, nil, "-q", backup); bytes.Equal(part, want) {
		t.Fatal("the cut backup gives the tree's transcripts: the test proves nothing")
	}
	out := filepath.Join(root, "out")
	runApp(t, Transcript, nil, "-q", "-o", out, backup)
	code, _, stderr := runCode(t, Transcript, nil, "-o", out, tree)
	if code != 0 || strings.Contains(stderr, "is written as") || strings.Contains(stderr, "kept as it is") {
		t.Errorf("the tree after its backup: exit %d, %s", code, stderr)
	}
	checkOnce(t, out, want, "the tree after its older backup")
	var got [][]byte
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".transcript.jsonl") {
			b, _ := os.ReadFile(p)
			got = append(got, b)
		}
		return nil
	})
	sort.Slice(got, func(i, j int) bool { return bytes.Compare(got[i], got[j]) < 0 })
	lines := bytes.SplitAfter(want, []byte("\n"))
	lines = lines[:len(lines)-1]
	sort.Slice(lines, func(i, j int) bool { return bytes.Compare(lines[i], lines[j]) < 0 })
	if !bytes.Equal(bytes.Join(got, nil), bytes.Join(lines, nil)) {
		t.Error("the folder's transcripts are not the one run's, byte for byte")
	}
	code, _, stderr = runCode(t, Transcript, nil, "-o", out, backup)
	if code != 0 || !strings.Contains(stderr, " 0 sessions, ") {
		t.Errorf("the backup again: exit %d, %s", code, stderr)
	}
	checkOnce(t, out, want, "the backup again")
}

// TestOutputTreeThenArchive: the reverse of the four spellings' last step:
// a tree, then its archive in a later run. The archive's members are
// known only once read, so its sessions are read with the tree's files and
// rewritten in place (the same transcripts); a run after that converts
// nothing.
func TestOutputTreeThenArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("over the corpus: run without -short (the race run leaves it out)")
	}
	root := t.TempDir()
	claudeTree(t, root)
	archive := filepath.Join(root, "claude.tar.gz")
	tarGzTree(t, archive, root, ".claude")
	want := runApp(t, Transcript, nil, "-q", filepath.Join(root, ".claude"))
	out := filepath.Join(root, "out")
	runApp(t, Transcript, nil, "-q", "-o", out, filepath.Join(root, ".claude"))
	code, _, stderr := runCode(t, Transcript, nil, "-o", out, archive)
	if code != 0 || strings.Contains(stderr, "is written as") || strings.Contains(stderr, "kept as it is") {
		t.Errorf("the archive after its tree: exit %d, %s", code, stderr)
	}
	checkOnce(t, out, want, "the archive after its tree")
	code, _, stderr = runCode(t, Transcript, nil, "-o", out, archive)
	if code != 0 || !strings.Contains(stderr, " 0 sessions, ") {
		t.Errorf("the archive again: exit %d, %s", code, stderr)
	}
}
