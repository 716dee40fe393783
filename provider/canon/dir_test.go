package canon

import (
	"runtime"
	"strings"
	"testing"
)

// TestDirIsJoinPath checks that a dir walked by a sequence of cd operands
// has the value joinPath gives applied at each step.
func TestDirIsJoinPath(t *testing.T) {
	ops := []string{"x", "x/", "..", "../y", ".", "/a", "/", "~/h", "$D/e", "a/./b", "a//b", "", "../../..", "/../z"}
	var walk func(prefix []string)
	walk = func(prefix []string) {
		var d dir
		want := ""
		for _, p := range prefix {
			d.cd(p)
			if p == "" {
				want = ""
			} else {
				want = joinPath(want, p)
			}
			if got := d.String(); got != want {
				t.Fatalf("cd %q: got %q, want %q", prefix, got, want)
			}
		}
		if len(prefix) < 4 {
			for _, p := range ops {
				walk(append(prefix[:len(prefix):len(prefix)], p))
			}
		}
	}
	walk(nil)
}

// cdChain is a command of n "cd x &&" before a read.
func cdChain(n int) string { return strings.Repeat("cd x && ", n) + "cat f" }

// TestCdChainLinear classifies chains of n and 2n cd and checks that the
// bytes allocated double, not quadruple (the directory used to be joined
// again at every cd).
func TestCdChainLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		cmd := cdChain(n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := classify(cmd)
		runtime.ReadMemStats(&after)
		if want := strings.Repeat("x/", n) + "f"; r.name != "Read" || len(r.files) != 1 || r.files[0] != want {
			t.Fatalf("classify: %s %d files, want Read of x/…/f", r.name, len(r.files))
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	a, b := alloc(5000), alloc(10000)
	if b > 3*a {
		t.Errorf("bytes allocated: %d for 5000 cd, %d for 10000: not linear", a, b)
	}
}

// BenchmarkCdChain classifies a 628 KB command of cd chains.
func BenchmarkCdChain(b *testing.B) {
	cmd := cdChain(628 << 10 / 8)
	b.ReportAllocs()
	for b.Loop() {
		classify(cmd)
	}
}
