package stage

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestNotifyWakes: with inotify, a line written wakes the reader of a
// followed file at once: with a poll of an hour, only the wake can bring it
// (a missing wake hangs the test until its guard).
func TestNotifyWakes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendTo(t, path, "one\n")
	fl := &Follower{Poll: time.Hour}
	ctx, cancel := fl.Start(context.Background())
	defer cancel()
	if fl.notify == nil {
		t.Skip("no inotify here")
	}
	r := openRead(t, ctx, fl, path, "one\n")
	for _, line := range []string{"two\n", "three\n"} {
		c := readAsync(r)
		appendTo(t, path, line)
		if got := await(t, c); got.text != line {
			t.Fatalf("read %q, %v; want %q", got.text, got.err, line)
		}
	}
	// removed: the wake tells it too
	c := readAsync(r)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if got := await(t, c); got.text != "" || got.err == nil {
		t.Fatalf("after removal read %q, %v; want the end", got.text, got.err)
	}
}
