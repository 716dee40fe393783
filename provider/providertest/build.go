package providertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
