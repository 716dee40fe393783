package providertest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
)

// seedLines and seedBytes cap a corpus seed: fuzzing works on small inputs.
const (
	seedLines = 12
	seedBytes = 8 << 10
)

// Seeds adds the first lines of every corpus file of the given folders
// (whole small documents) as seeds, and a few hand-made bad inputs.
func Seeds(t testing.TB, add func([]byte), dirs ...string) {
	add([]byte(""))
	add([]byte("not json\n{\"type\":\n[1,2]\n\"s\"\n"))
	corpus := corpusPath(t)
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(corpus, d, "*"))
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil || len(b) == 0 {
				continue
			}
			// small seeds: the first lines that fit in seedBytes
			if seed := head(b); len(seed) > 0 {
				add(seed)
			}
		}
	}
}

// TestdataSeeds adds the first lines of the samples in the repository's
// testdata/<name>/ as seeds (a provider whose samples are not in the shared
// corpus): a store a provider claims (a database) as the lines its Claim
// makes of it; provenance tables and large pretty-printed documents (no
// small seed) are left out.
func TestdataSeeds(t testing.TB, add func([]byte), name string) {
	files, _ := filepath.Glob(Testdata(t, name, "*"))
	for _, p := range files {
		var b []byte
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || strings.HasSuffix(p, ".tsv") {
			continue
		}
		if in, ok := provider.Claim(p, false); ok {
			r, err := in.Open()
			if err != nil {
				continue
			}
			b, _ = io.ReadAll(r)
			r.Close()
		} else if b, _ = os.ReadFile(p); len(b) > seedBytes && (b[0] == '[' || b[0] == '{') && bytes.Count(b[:seedBytes], []byte("\n")) > seedLines {
			continue
		}
		if seed := head(b); len(seed) > 0 {
			add(seed)
		}
	}
}

// head is the first lines of b that fit in seedBytes (a whole document
// when it is small).
func head(b []byte) []byte {
	var seed []byte
	for _, l := range bytes.SplitAfter(b, []byte("\n"))[:min(seedLines, bytes.Count(b, []byte("\n"))+1)] {
		if len(seed)+len(l) > seedBytes {
			break
		}
		seed = append(seed, l...)
	}
	return seed
}

// CheckParse checks the properties every parser must keep on any input: no
// panic, every output line a JSON object of the agt.event/1 schema, every
// non-blank input line named in some event's src (or, for a JSON document,
// at least one event; or, for binary data, no event and one line saying
// so), identical bytes on a second run.
func CheckParse(t *testing.T, prov string, data []byte) {
	in := stage.Input{Path: "fuzz.jsonl", Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
	var diag bytes.Buffer
	run := func() []byte {
		var out bytes.Buffer
		diag.Reset()
		if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Workers: 1}, Provider: prov}, []stage.Input{in}, &out, &diag); err != nil {
			t.Fatalf("parse: %v", err)
		}
		return out.Bytes()
	}
	out := run()
	if again := run(); !bytes.Equal(out, again) {
		t.Fatal("second run differs")
	}
	if len(out) == 0 && diag.String() == "fuzz.jsonl: binary data, not an agent log\n" {
		return // binary data is no log: refused whole, in one line, as an unreadable input is
	}
	seen := map[int64]bool{}
	events := 0
	for _, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		events++
		if !json.Valid(line) {
			t.Fatalf("output line is not JSON: %.300q", line)
		}
		var ev agt.Event
		if err := agt.API.Unmarshal(line, &ev); err != nil || ev.Schema != agt.Schema {
			t.Fatalf("output line is not an event: %v %.300q", err, line)
		}
		seen[ev.Src.Line] = true
	}
	if seen[0] { // a whole document
		if events == 0 {
			t.Fatal("a document yields no event")
		}
		return
	}
	lines := strings.Split(string(data), "\n")
	if inBlocks(out) {
		// blocks of lines: an event names its block's first line, which is
		// a line of the input; the first non-blank line starts a block
		for n := range seen {
			if n < 1 || n > int64(len(lines)) || strings.TrimSpace(lines[n-1]) == "" {
				t.Fatalf("an event names line %d, not a non-blank line of the input", n)
			}
		}
		for i, line := range lines {
			if strings.TrimSpace(line) != "" {
				if !seen[int64(i+1)] {
					t.Fatalf("first line %d (%.100q) yields no event", i+1, line)
				}
				break
			}
		}
		return
	}
	for i, line := range lines {
		if strings.TrimSpace(line) != "" && !seen[int64(i+1)] {
			t.Fatalf("line %d (%.100q) yields no event", i+1, line)
		}
	}
}

// corpusPath is the shared corpus, present or not (see CorpusDir).
func corpusPath(t testing.TB) string {
	if dir := os.Getenv("AGT_CORPUS"); dir != "" {
		return dir
	}
	return filepath.Join(RepoRoot(t), "..", "shared", "corpus")
}

// SeedDirs are the corpus folders of a provider, from its registry name:
// <name> (session logs) and live/<name>* (live output).
func SeedDirs(t testing.TB, name string) []string {
	dirs := []string{name}
	corpus := corpusPath(t)
	live, _ := filepath.Glob(filepath.Join(corpus, "live", name+"*"))
	for _, d := range live {
		dirs = append(dirs, "live/"+filepath.Base(d))
	}
	return dirs
}

// FuzzParse is the fuzz target of every registered provider's parsers (the
// provider forced, the format detected or its default): its first value
// picks the provider, in registry order. A provider added to the registry
// is fuzzed with the seeds of its corpus folders (SeedDirs), of its test
// data (TestdataSeeds) and the extra seeds given by its name.
func FuzzParse(f *testing.F, extra map[string][][]byte) {
	all := provider.All()
	for i, p := range all {
		add := func(b []byte) { f.Add(uint8(i), b) }
		Seeds(f, add, SeedDirs(f, p.Name())...)
		TestdataSeeds(f, add, p.Name())
		for _, b := range extra[p.Name()] {
			add(b)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, b []byte) { CheckParse(t, all[int(which)%len(all)].Name(), b) })
}

// inBlocks reports whether the output comes from a provider whose records
// are blocks of lines (provider.Blocks).
func inBlocks(out []byte) bool {
	var ev struct {
		Provider string `json:"provider"`
	}
	line, _, _ := bytes.Cut(out, []byte("\n"))
	if json.Unmarshal(line, &ev) != nil {
		return false
	}
	b, ok := provider.Lookup(ev.Provider).(provider.Blocks)
	return ok && b.Blocks()
}
