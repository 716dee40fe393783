package providertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// built are the filters Filter built, by name, in one folder per test
// binary (removed by RemoveFilters).
var built struct {
	sync.Mutex
	dir  string
	bins map[string]string
}

// Filter builds the filter cmd/name of the repository once per test
// binary and returns its path; a package whose tests call it removes the
// builds in its TestMain with RemoveFilters.
func Filter(t testing.TB, name string) string {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	if bin, ok := built.bins[name]; ok {
		return bin
	}
	if built.dir == "" {
		dir, err := os.MkdirTemp("", "agt-test-filters")
		if err != nil {
			t.Fatal(err)
		}
		built.dir, built.bins = dir, map[string]string{}
	}
	bin := filepath.Join(built.dir, name)
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/"+name)
	cmd.Dir = RepoRoot(t)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatal(fmt.Errorf("go build %s: %v\n%s", name, err, b))
	}
	built.bins[name] = bin
	return bin
}

// RemoveFilters removes what Filter built.
func RemoveFilters() {
	built.Lock()
	defer built.Unlock()
	if built.dir != "" {
		os.RemoveAll(built.dir)
		built.dir, built.bins = "", nil
	}
}

// BenchTree returns a generated log tree of about mib MiB of Claude Code
// and mib/2 of Codex logs, made once by the shared generator and kept in
// the temp folder ($AGT_BENCH_DIR overrides it); it skips without the
// corpus or the generator.
func BenchTree(b testing.TB, mib int) string {
	if d := os.Getenv("AGT_BENCH_DIR"); d != "" {
		return d
	}
	corpus := CorpusDir(b)
	out := filepath.Join(os.TempDir(), "agt-bench-"+strconv.Itoa(mib))
	if _, err := os.Stat(filepath.Join(out, "MANIFEST.json")); err == nil {
		return out
	}
	cmd := exec.Command("python3", filepath.Join(corpus, "..", "tools", "gen-big-logs.py"), strconv.Itoa(mib), strconv.Itoa(mib/2), "--out", out, "--samples", corpus)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		b.Skipf("generating the tree: %v", err)
	}
	return out
}
