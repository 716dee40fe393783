package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// TestDemo runs make demo's recipe with the test's filters: it shows the
// readable summary of a session, one line per transcript, and where to go
// next, and no raw agt.event/1 line.
func TestDemo(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	if raceBuild {
		t.Skip("under the race detector: make demo runs in the plain build")
	}
	dir, env := docSandbox(t)
	cmd := exec.Command("make", "-s", "-o", "build", "demo", "BIN="+filepath.Join(dir, "bin"))
	cmd.Dir = providertest.RepoRoot(t)
	cmd.Env = append(env, "MAKEFLAGS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make demo: %v\n%s", err, out)
	}
	s := string(out)
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if strings.HasPrefix(lines[0], "{") || !strings.HasPrefix(lines[0], "==") {
		t.Errorf("make demo opens with %q, not a heading", lines[0])
	}
	if strings.Contains(s, `{"schema":"agt.event/1"`) {
		t.Error("make demo prints raw events")
	}
	for _, want := range []string{" end ", " tool ", "== next", "README.md", "docs/"} {
		if !strings.Contains(s, want) {
			t.Errorf("make demo: no %q in\n%s", want, s)
		}
	}
	for _, page := range regexp.MustCompile(`(?:docs/[a-z-]+|README)\.md`).FindAllString(s, -1) {
		if _, err := os.Stat(filepath.Join(providertest.RepoRoot(t), page)); err != nil {
			t.Errorf("make demo names %s: %v", page, err)
		}
	}
	if len(out) > 8000 {
		t.Errorf("make demo: %d bytes, more than a screenful or two", len(out))
	}
}
