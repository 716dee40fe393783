package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// corpusUnits are the input units of the corpus: the entries of each
// provider's folder (a file, or a folder such as an OpenCode storage tree),
// in path order.
func corpusUnits(t *testing.T) []string {
	corpus := providertest.CorpusDir(t)
	var units []string
	for _, p := range []string{"claude", "codex", "copilot", "gemini", "opencode", "pi"} {
		ents, err := os.ReadDir(filepath.Join(corpus, p))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.Name() != "PROVENANCE.tsv" {
				units = append(units, filepath.Join(corpus, p, e.Name()))
			}
		}
	}
	sort.Strings(units)
	return units
}

// shardsOf groups units into shards: the units that hold events of one
// session (a session and its sidechain files, copies of one session) go
// to one shard. Shards are in the order of their first unit, units within
// a shard in path order.
func shardsOf(units []string, events []byte) [][]string {
	parent := make([]int, len(units))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	unitOf := func(path string) int {
		for i, u := range units {
			if path == u || strings.HasPrefix(path, u+"/") || strings.HasPrefix(path, u+"!") {
				return i
			}
		}
		return -1
	}
	first := map[string]int{} // session → its first unit
	byPath := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(events))
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		var ev struct {
			Session string `json:"session"`
			Src     struct {
				Path string `json:"path"`
			} `json:"src"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Session == "" {
			continue
		}
		u, ok := byPath[ev.Src.Path]
		if !ok {
			u = unitOf(ev.Src.Path)
			byPath[ev.Src.Path] = u
		}
		if u < 0 {
			continue
		}
		if f, ok := first[ev.Session]; ok {
			parent[find(u)] = find(f)
		} else {
			first[ev.Session] = u
		}
	}
	var shards [][]string
	at := map[int]int{}
	for i, u := range units {
		r := find(i)
		k, ok := at[r]
		if !ok {
			k = len(shards)
			at[r] = k
			shards = append(shards, nil)
		}
		shards[k] = append(shards[k], u)
	}
	return shards
}

// mapScript runs each shard list (one path a line) as its own process, two
// at a time: "$0 ARGS... PATHS" > NNNN.out, or with -o into NNNN.dir.
const mapScript = `cd "$1" && ls *.list | xargs -P 2 -I{} sh -c 'tr "\n" "\0" < "$1" | xargs -0 "$0" -q '"$2"' > "${1%.list}.out"' "$0" {}`

// TestShards: every input unit converts on its own, so a batch conversion
// is a map step. The corpus split into shards by unit (a session's units
// together), run as parallel processes of the built filters, gives, shard
// outputs concatenated in path order, the single run's bytes, for events
// and for transcripts; the -o folders of the shards, merged (files copied,
// indexes joined unit by unit as the README's jq command does), are the
// single run's folder, index included.
func TestShards(t *testing.T) {
	units := corpusUnits(t)
	dir := t.TempDir()
	tr := build(t)
	parse := buildParse(t, dir)
	single := func(bin string, args ...string) []byte {
		out, err := exec.Command(bin, append(append([]string{"-q"}, args...), units...)...).Output()
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(bin), err)
		}
		return out
	}
	events := single(parse)
	shards := shardsOf(units, events)
	if len(shards) < 10 || len(shards) >= len(units) {
		t.Fatalf("%d units in %d shards", len(units), len(shards))
	}
	work := filepath.Join(dir, "shards")
	os.Mkdir(work, 0o777)
	for i, s := range shards {
		if err := os.WriteFile(filepath.Join(work, fmt.Sprintf("%04d.list", i)), []byte(strings.Join(s, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mapped := func(bin, args string) []byte {
		for _, old := range must(filepath.Glob(filepath.Join(work, "*.out"))) {
			os.Remove(old)
		}
		if b, err := exec.Command("sh", "-c", mapScript, bin, work, args).CombinedOutput(); err != nil {
			t.Fatalf("map: %v\n%s", err, b)
		}
		var all []byte
		for i := range shards {
			b, err := os.ReadFile(filepath.Join(work, fmt.Sprintf("%04d.out", i)))
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, b...)
		}
		return all
	}
	if got := mapped(parse, ""); !bytes.Equal(got, events) {
		t.Errorf("events: %d shards give %d bytes, the single run %d (differ at %d)", len(shards), len(got), len(events), diffAt(got, events))
	}
	transcripts := single(tr)
	if got := mapped(tr, ""); !bytes.Equal(got, transcripts) {
		t.Errorf("transcripts: %d shards give %d bytes, the single run %d (differ at %d)", len(shards), len(got), len(transcripts), diffAt(got, transcripts))
	}
	t.Logf("%d units in %d shards: %d events bytes, %d transcripts", len(units), len(shards), len(events), bytes.Count(transcripts, []byte{'\n'}))

	// -o: each shard its folder, merged
	whole := filepath.Join(dir, "whole")
	single(tr, "-o", whole)
	mapped(tr, `-o "${1%.list}.dir"`)
	sameMerge(t, whole, filepath.Join(dir, "merged"), must(filepath.Glob(filepath.Join(work, "*.dir"))))

	// the shards as the README's recipes take them: one a line, its units
	// tab-separated
	tsv := filepath.Join(dir, "units.tsv")
	var lines []string
	for _, s := range shards {
		lines = append(lines, strings.Join(s, "\t"))
	}
	os.WriteFile(tsv, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	// examples/agt-map.sh, the mapper of the Hadoop and Spark recipes, on
	// two splits of the shard lines
	half := len(lines) / 2
	var split []byte
	for _, part := range [][]string{lines[:half], lines[half:]} {
		cmd := exec.Command("sh", filepath.Join(providertest.RepoRoot(t), "examples", "agt-map.sh"))
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(tr)+string(os.PathListSeparator)+os.Getenv("PATH"))
		cmd.Stdin = strings.NewReader(strings.Join(part, "\n") + "\n")
		b, err := cmd.Output()
		if err != nil {
			t.Fatalf("agt-map.sh: %v", err)
		}
		split = append(split, b...)
	}
	if !bytes.Equal(split, transcripts) {
		t.Errorf("agt-map.sh on two splits: %d bytes, the single run %d (differ at %d)", len(split), len(transcripts), diffAt(split, transcripts))
	}
	// GNU parallel, when installed, on stdout and with -o
	if _, err := exec.LookPath("parallel"); err != nil {
		t.Log("GNU parallel not installed: its recipe is not run")
		return
	}
	got, err := exec.Command("parallel", "-k", "-j", "2", "--colsep", `\t`, "-a", tsv, tr, "-q").Output()
	if err != nil {
		t.Fatalf("parallel: %v", err)
	}
	if !bytes.Equal(got, transcripts) {
		t.Errorf("GNU parallel: %d bytes, the single run %d (differ at %d)", len(got), len(transcripts), diffAt(got, transcripts))
	}
	out := filepath.Join(dir, "par")
	if b, err := exec.Command("parallel", "-j", "2", "--colsep", `\t`, "-a", tsv, tr, "-q", "-o", out+"/shard-{#}", "{}").CombinedOutput(); err != nil {
		t.Fatalf("parallel -o: %v\n%s", err, b)
	}
	sameMerge(t, whole, filepath.Join(dir, "par-merged"), must(filepath.Glob(filepath.Join(out, "shard-*"))))
}

// sameMerge merges the -o folders shards into merged (files copied, indexes
// joined unit by unit with the README's jq command, or in Go without jq)
// and checks it equals the single run's folder whole, byte for byte.
func sameMerge(t *testing.T, whole, merged string, shards []string) {
	t.Helper()
	if err := os.MkdirAll(merged, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, d := range shards {
		if b, err := exec.Command("cp", "-R", d+"/.", merged+"/").CombinedOutput(); err != nil {
			t.Fatalf("cp: %v\n%s", err, b)
		}
	}
	w, m := files(t, whole), files(t, merged)
	if _, err := exec.LookPath("jq"); err == nil {
		var idx []string
		for _, d := range shards { // a shard that wrote nothing has none
			if f := filepath.Join(d, ".agt-index.json"); fileExists(f) {
				idx = append(idx, f)
			}
		}
		out, err := exec.Command("jq", append([]string{"-cs", `{schema: .[0].schema, units: (map(.units) | add | to_entries | sort_by(.key) | from_entries)}`}, idx...)...).Output()
		if err != nil {
			t.Fatalf("jq: %v", err)
		}
		m[".agt-index.json"] = out
	} else { // the index joined in Go
		joined := map[string]json.RawMessage{}
		for _, d := range shards {
			b, _ := os.ReadFile(filepath.Join(d, ".agt-index.json"))
			for k, v := range index(t, b) {
				joined[k] = v
			}
		}
		want := index(t, w[".agt-index.json"])
		if len(joined) != len(want) {
			t.Errorf("joined index: %d units, the single run's %d", len(joined), len(want))
		}
		for k, v := range want {
			if !bytes.Equal(joined[k], v) {
				t.Errorf("joined index: unit %s differs", k)
			}
		}
		delete(w, ".agt-index.json")
		delete(m, ".agt-index.json")
	}
	if len(w) != len(m) {
		t.Errorf("merged folder: %d files, the single run's %d", len(m), len(w))
	}
	for name, b := range w {
		if !bytes.Equal(m[name], b) {
			t.Errorf("merged folder: %s differs from the single run's", name)
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func must[T any](v T, _ error) T { return v }

// diffAt is the offset of the first byte where a and b differ.
func diffAt(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
