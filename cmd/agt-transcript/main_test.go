package main

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agt-project/agt/provider/providertest"
)

// bigTree generates a log tree with the shared generator, or skips.
func bigTree(t *testing.T) string {
	corpus := providertest.CorpusDir(t)
	out := filepath.Join(t.TempDir(), "tree")
	cmd := exec.Command("python3", filepath.Join(corpus, "..", "tools", "gen-big-logs.py"), "30", "15", "--out", out, "--samples", corpus)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("generating a log tree: %v\n%s", err, b)
	}
	return out
}

func build(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "agt-transcript")
	if b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return bin
}

// buildParse builds agt-parse into dir.
func buildParse(t *testing.T, dir string) string {
	parse := filepath.Join(dir, "agt-parse")
	if b, err := exec.Command("go", "build", "-o", parse, "../agt-parse").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return parse
}

// files maps the files below root to their contents, the index and the
// lock file included.
func files(t *testing.T, root string) map[string][]byte {
	m := map[string][]byte{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		m[rel] = b
		return nil
	})
	return m
}

// TestKilledBatch kills a batch conversion midway with SIGKILL: no
// transcript is ever partial, and the re-run produces exactly the files of
// an uninterrupted run.
func TestKilledBatch(t *testing.T) {
	tree := bigTree(t)
	bin := build(t)
	whole, killed := t.TempDir(), t.TempDir()
	if b, err := exec.Command(bin, "-q", "--stream-log", "raw", "-o", whole, tree).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, b)
	}

	cmd := exec.Command(bin, "-q", "-j", "1", "--stream-log", "raw", "-o", killed, tree)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// wait for the first transcript, then kill
	for i := 0; i < 2000; i++ {
		m, _ := filepath.Glob(filepath.Join(killed, "*", "*.transcript.jsonl"))
		if len(m) > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	done := files(t, killed)
	complete := 0
	for name, b := range done {
		if strings.Contains(filepath.Base(name), ".tmp-") || name == ".agt-index.json" || name == ".agt-lock" {
			continue // a temporary file: never under a final name; the index checked below
		}
		one := bytes.Count(b, []byte("\n")) == 1 && json.Valid(bytes.TrimSuffix(b, []byte("\n")))
		if !bytes.HasSuffix(b, []byte("\n")) || strings.HasSuffix(name, ".transcript.jsonl") && !one {
			t.Errorf("%s is partial", name)
		}
		if !bytes.Equal(b, files(t, whole)[name]) {
			t.Errorf("%s differs from the uninterrupted run's", name)
		}
		complete++
	}
	t.Logf("killed after %d of %d files", complete, len(files(t, whole)))

	if b, err := exec.Command(bin, "-q", "--stream-log", "raw", "-o", killed, tree).CombinedOutput(); err != nil {
		t.Fatalf("re-run: %v\n%s", err, b)
	}
	sameTree(t, whole, killed)
}

// sameTree checks that the folders a and b hold the same files, byte for
// byte (the index and the lock file included).
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	fa, fb := files(t, a), files(t, b)
	if len(fa) != len(fb) {
		t.Errorf("%d files after the re-run, %d after the uninterrupted run", len(fb), len(fa))
	}
	for name, c := range fa {
		if d, ok := fb[name]; !ok {
			t.Errorf("%s missing after the re-run", name)
		} else if !bytes.Equal(c, d) {
			t.Errorf("%s differs after the re-run", name)
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			t.Errorf("%s: not written by the uninterrupted run", name)
		}
	}
}

// index reads the units of an output folder's index.
func index(t *testing.T, b []byte) map[string]json.RawMessage {
	var ix struct {
		Units map[string]json.RawMessage `json:"units"`
	}
	if err := json.Unmarshal(b, &ix); err != nil {
		t.Fatalf("index: %v", err)
	}
	return ix.Units
}

// TestKilledCorpus is the acceptance test of -o: 20 runs over the whole
// corpus (every other one with --force, so that it writes every file
// again), each killed with SIGKILL at a random moment, then one run to the
// end. After every kill, each file under its final name is whole and
// equal to the uninterrupted run's, and each unit the index records is
// recorded as the uninterrupted run records it; after the last run the
// folder equals the uninterrupted run's, byte for byte, index included.
func TestKilledCorpus(t *testing.T) {
	corpus := providertest.CorpusDir(t)
	bin := build(t)
	args := func(dir string) []string { return []string{"-q", "--stream-log", "raw", "-o", dir, corpus} }
	whole, killed := t.TempDir(), t.TempDir()
	begin := time.Now()
	if b, err := exec.Command(bin, args(whole)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, b)
	}
	took := time.Since(begin)
	clean := files(t, whole)
	want := index(t, clean[".agt-index.json"])
	n := 0
	for name, b := range clean {
		if strings.HasSuffix(name, ".transcript.jsonl") {
			n++
		}
		for _, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
			if name != ".agt-lock" && !json.Valid(l) {
				t.Fatalf("%s: a line that is not JSON: %.200q", name, l)
			}
		}
	}
	if n < 90 || len(want) < 90 { // 99 sessions in the corpus
		t.Fatalf("the uninterrupted run wrote %d transcripts, %d units", n, len(want))
	}

	// kills within the first second: on a busy machine a run takes longer,
	// and the runs that resume still get to the end in a few rounds
	window := min(took, time.Second)
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewSource(seed))
	t.Logf("seed %d; an uninterrupted run takes %v", seed, took)
	finished := 0
	for run := 0; run < 20; run++ {
		a := args(killed)
		if run%2 == 1 {
			a = append([]string{"--force"}, a...) // every file written again, over whole ones
		}
		cmd := exec.Command(bin, a...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-time.After(time.Duration(rng.Int63n(int64(window)))):
			cmd.Process.Signal(syscall.SIGKILL)
			<-done
		case <-done:
		}
		if cmd.ProcessState.ExitCode() >= 0 {
			finished++ // it ended before the kill
		}
		got := files(t, killed)
		recorded := 0
		for name, b := range got {
			switch {
			case strings.Contains(filepath.Base(name), ".tmp-"): // a dead run's, removed by the next
			case name == ".agt-index.json":
				for unit, e := range index(t, b) {
					if !bytes.Equal(e, want[unit]) {
						t.Errorf("run %d: the index records %s as %s, the uninterrupted run as %s", run, unit, e, want[unit])
					}
					recorded++
				}
			case !bytes.Equal(b, clean[name]):
				t.Errorf("run %d: %s is not the uninterrupted run's (%d bytes, want %d)", run, name, len(b), len(clean[name]))
			}
		}
		t.Logf("run %d: %d files, %d units recorded", run, len(got), recorded)
	}
	t.Logf("%d of 20 runs ended before their kill", finished)
	if b, err := exec.Command(bin, args(killed)...).CombinedOutput(); err != nil {
		t.Fatalf("last run: %v\n%s", err, b)
	}
	sameTree(t, whole, killed)
}
