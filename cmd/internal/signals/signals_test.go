package signals

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFilterName: only programs named agt-* catch interrupts here.
func TestFilterName(t *testing.T) {
	for path, want := range map[string]bool{
		"agt-parse": true, "/usr/local/bin/agt-transcript": true, "./agt-": true,
		"signals.test": false, "/usr/lib/agt/x": false, "agt": false, "": false, "/opt/agt-x/bin/run": false,
	} {
		if got := filter(path); got != want {
			t.Errorf("filter(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestInitEarly: a built filter initialises this package before reflect,
// which the JSON codec, the compressors and every heavy package of its
// start need (GODEBUG inittrace), so that an interrupt in the rest of its
// start is caught.
func TestInitEarly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a filter")
	}
	bin := filepath.Join(t.TempDir(), "agt-parse")
	if b, err := exec.Command("go", "build", "-o", bin, "../../agt-parse").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var inits []string
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "init" {
			inits = append(inits, f[1])
		}
	}
	at := slices.Index(inits, "github.com/agt-project/agt/cmd/internal/signals")
	if at < 0 {
		t.Fatalf("no init of the signals package in:\n%s", out)
	}
	if r := slices.Index(inits, "reflect"); r >= 0 && r < at {
		t.Errorf("the signals package is initialised after reflect and %d other packages: %v", at, inits[:at])
	}
}
