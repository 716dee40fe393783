package cli

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestBoundedRunCollectsLater: a run under the soft memory limit collects
// at boundedGCPercent unless GOGC is set, and keeps GOGC when it is.
func TestBoundedRunCollectsLater(t *testing.T) {
	gc, limit := debug.SetGCPercent(gcPercent), debug.SetMemoryLimit(math.MaxInt64)
	defer func() { debug.SetGCPercent(gc); debug.SetMemoryLimit(limit) }()
	t.Setenv("GOMEMLIMIT", "")
	t.Setenv("GOGC", "")
	limitMemory()
	if got := debug.SetGCPercent(gcPercent); got != boundedGCPercent {
		t.Errorf("GOGC unset: GC percent %d, want %d", got, boundedGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != softMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, softMemoryLimit)
	}
	t.Setenv("GOGC", "150")
	debug.SetGCPercent(150)
	limitMemory()
	if got := debug.SetGCPercent(gcPercent); got != 150 {
		t.Errorf("GOGC=150: GC percent %d, want 150 kept", got)
	}
}
