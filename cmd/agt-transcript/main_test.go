package main

import (
	"bytes"
	"encoding/json"
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

// files maps the files below root to their contents, the index left out.
func files(t *testing.T, root string) map[string][]byte {
	m := map[string][]byte{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == ".agt-index.json" {
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
		if strings.Contains(filepath.Base(name), ".tmp-") {
			continue // a temporary file: never under a final name
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
	a, b := files(t, whole), files(t, killed)
	if len(a) != len(b) {
		t.Errorf("re-run wrote %d files, the uninterrupted run %d", len(b), len(a))
	}
	for name, c := range a {
		if !bytes.Equal(c, b[name]) {
			t.Errorf("%s differs after the re-run", name)
		}
	}
}
