package provider

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/agt-project/agt"
)

// warmer is a provider that counts its Warm calls.
type warmer struct {
	Provider
	name  string
	calls atomic.Int32
	done  chan string
}

func (w *warmer) Name() string { return w.name }

func (w *warmer) Warm(format string, _ agt.Options) {
	w.calls.Add(1)
	w.done <- format
}

// TestWarmOnce: Warm runs once per provider, format and options in the
// process, on a goroutine of its own, however many inputs of the format
// the grouping pass meets.
func TestWarmOnce(t *testing.T) {
	w := &warmer{name: "warm-test-" + t.Name(), done: make(chan string, 8)}
	for range 3 {
		warm(w, "f1", agt.Options{})
		warm(w, "f2", agt.Options{})
		warm(w, "f1", agt.Options{Usage: true})
	}
	got := map[string]int{}
	for range 3 {
		select {
		case f := <-w.done:
			got[f]++
		case <-time.After(10 * time.Second):
			t.Fatalf("Warm not called: %v", got)
		}
	}
	if got["f1"] != 2 || got["f2"] != 1 || w.calls.Load() != 3 {
		t.Errorf("Warm calls %v (%d), want f1 twice (two options), f2 once", got, w.calls.Load())
	}
	warm(struct{ Provider }{}, "f1", agt.Options{}) // no Warmer: nothing to do
}
