// Package providertest holds what the provider tests share: running the
// parse pipeline in-process, decoding its events, golden files, and the
// shared corpus of real logs.
package providertest

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
)

// Update rewrites golden files instead of comparing with them.
var Update = flag.Bool("update", false, "rewrite golden files")

// CorpusDir is the shared corpus (../shared/corpus from the repository, or
// $AGT_CORPUS). Tests that need it skip when it is absent.
func CorpusDir(t testing.TB) string {
	dir := os.Getenv("AGT_CORPUS")
	if dir == "" {
		dir = filepath.Join(RepoRoot(t), "..", "shared", "corpus")
	}
	if _, err := os.Stat(filepath.Join(dir, "PROVENANCE.tsv")); err != nil {
		t.Skipf("corpus not found at %s (set AGT_CORPUS)", dir)
	}
	return dir
}

// TestdataAndCorpus are the provider's folders of testdata and, unless
// -short, of the shared corpus (when it is there).
func TestdataAndCorpus(t testing.TB, name string) []string {
	paths := []string{Testdata(t, name)}
	if dir := filepath.Join(RepoRoot(t), "..", "shared", "corpus", name); !testing.Short() {
		if _, err := os.Stat(dir); err == nil {
			paths = append(paths, dir)
		}
	}
	return paths
}

// CorpusProviders are the registered providers that have a folder in the
// corpus at dir, by name.
func CorpusProviders(dir string) []string {
	var ps []string
	for _, n := range provider.Names() {
		if st, err := os.Stat(filepath.Join(dir, n)); err == nil && st.IsDir() {
			ps = append(ps, n)
		}
	}
	return ps
}

// RepoRoot is the folder of go.mod.
func RepoRoot(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// Testdata is the path of elem below the repository's testdata folder.
func Testdata(t testing.TB, elem ...string) string {
	return filepath.Join(append([]string{RepoRoot(t), "testdata"}, elem...)...)
}

// Parse runs the parse pipeline in-process over files and returns stdout,
// stderr and the run's counts.
func Parse(t testing.TB, cfg provider.Config, paths ...string) ([]byte, string, provider.Stats) {
	t.Helper()
	var out, diag bytes.Buffer
	ins, errs := stage.Expand(paths, nil, provider.Claim)
	if len(errs) > 0 {
		t.Fatalf("expand %v: %v", paths, errs)
	}
	st, err := provider.Parse(context.Background(), cfg, ins, &out, &diag)
	if err != nil {
		t.Fatalf("parse %v: %v", paths, err)
	}
	return out.Bytes(), diag.String(), st
}

// ParseClean is Parse for a run that must report no diagnostic, no error
// and no unknown record (else the test fails at once); it returns stdout.
func ParseClean(t testing.TB, cfg provider.Config, paths ...string) []byte {
	t.Helper()
	out, diag, st := Parse(t, cfg, paths...)
	if st.Errors != 0 || st.Unknown != 0 || diag != "" {
		t.Fatalf("errors %d, unknown %d: %s", st.Errors, st.Unknown, diag)
	}
	return out
}

// Events decodes JSONL output, failing on any line that is not JSON.
func Events(t testing.TB, b []byte) []agt.Event {
	t.Helper()
	var evs []agt.Event
	for i, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if !json.Valid(line) {
			t.Fatalf("output line %d is not JSON: %.200s", i+1, line)
		}
		var ev agt.Event
		if err := agt.API.Unmarshal(line, &ev); err != nil {
			t.Fatalf("output line %d: %v", i+1, err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// Golden compares got with the golden file at path (rewritten with -update).
func Golden(t testing.TB, got []byte, path string) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("%s differs at line %d:\n got  %.400s\n want %.400s\n(rerun with -update if the change is intended)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: got %d lines, want %d (rerun with -update if the change is intended)", path, len(gl), len(wl))
	}
}

// GoldenFiles runs a golden test for every file of testdata/<dir> matching
// patterns: its events, with src paths relative to the file's folder, are
// compared with testdata/<dir>/golden/<the file's path> (".jsonl" added
// when the name lacks it). With clean, the run must report no diagnostic,
// no error and no unknown record.
func GoldenFiles(t *testing.T, dir string, clean bool, patterns ...string) {
	root := Testdata(t, dir)
	n := 0
	for _, pattern := range patterns {
		files, _ := filepath.Glob(filepath.Join(root, pattern))
		for _, f := range files {
			n++
			rel, _ := filepath.Rel(root, f)
			t.Run(rel, func(t *testing.T) {
				out, diag, st := Parse(t, provider.Config{}, f)
				if clean && (diag != "" || st.Errors != 0 || st.Unknown != 0) {
					t.Errorf("errors %d, unknown %d: %s", st.Errors, st.Unknown, diag)
				}
				out = bytes.ReplaceAll(out, []byte(filepath.Dir(f)+string(filepath.Separator)), nil)
				name := rel
				if !strings.HasSuffix(name, ".jsonl") {
					name += ".jsonl"
				}
				Golden(t, out, filepath.Join(root, "golden", name))
			})
		}
	}
	if n == 0 {
		t.Fatalf("no test data in %s matching %v", root, patterns)
	}
}

// Head is what detection sees of lines (for Sniff tests).
func Head(lines ...string) agt.Head {
	var h agt.Head
	for _, l := range lines {
		h.Lines = append(h.Lines, []byte(l))
	}
	return h
}

// SniffCase is a case of Sniff: a head and the format it should be named
// ("" for none).
type SniffCase = struct {
	Name string
	Head agt.Head
	Want string
}

// Sniff checks the format p's Sniff names for the head of each case.
func Sniff(t *testing.T, p provider.Provider, cases []SniffCase) {
	t.Helper()
	for _, c := range cases {
		if got := p.Sniff(c.Head); got != c.Want {
			t.Errorf("%s: got %q, want %q", c.Name, got, c.Want)
		}
	}
}

// LiveFiles lists the files of corpus/live/<format> matching pattern, and
// skips the test when there are none.
func LiveFiles(t *testing.T, format, pattern string) []string {
	files, _ := filepath.Glob(filepath.Join(CorpusDir(t), "live", format, pattern))
	if len(files) == 0 {
		t.Skipf("no corpus/live/%s/%s", format, pattern)
	}
	return files
}

// Stub is a provider name no provider is registered under, and
// StubFormat its format: the provider of the events and transcripts a
// test makes up for code that takes nothing of a provider but what the
// registry says of it (a test about one provider's data lives in its
// folder).
const (
	Stub       = "stub"
	StubFormat = "stub-jsonl"
)

// Sample is the path of a provider's sample in the repository's testdata,
// by its path below the provider's folder (testdata/<provider>/rel, rel a
// file name or "live/<name>"): a test that reads a real log but knows no
// provider finds it by its name. It fails unless exactly one registered
// provider's folder holds it.
func Sample(t testing.TB, rel string) string {
	t.Helper()
	return only(t, rel, func(p string) string { return Testdata(t, p, rel) })
}

// only is the one path at(p) of a registered provider p that exists.
func only(t testing.TB, rel string, at func(p string) string) string {
	t.Helper()
	var found []string
	for _, p := range provider.Names() {
		if _, err := os.Stat(at(p)); err == nil {
			found = append(found, at(p))
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s: %d samples of that name %v, want 1", rel, len(found), found)
	}
	return found[0]
}
