package transcript

import (
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agt-project/agt/provider/providertest"
)

// TestFolderWritesInParallel: a folder has as many writers as the run has
// encoding workers, so that as many files are written at once: four
// exports that each wait until four are under way all end. With the two
// writers of OpenDir, the first two wait for ever and the run stalls.
func TestFolderWritesInParallel(t *testing.T) {
	const n = 4
	out := t.TempDir()
	var mu sync.Mutex
	busy := 0
	all := make(chan struct{})
	export := Export{Ext: ".x.json", Write: func(w io.Writer, tr *Transcript) error {
		mu.Lock()
		if busy++; busy == n {
			close(all)
		}
		mu.Unlock()
		<-all
		_, err := io.WriteString(w, tr.Session)
		return err
	}}
	f, err := OpenFolder(out, FolderConfig{Writers: n, Exports: []Export{export}, UnitKey: func(p string) string { return p }})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for _, s := range []string{"a", "b", "c", "d"} {
			if err := f.Write(filepath.Join(out, s), &Transcript{Schema: Schema, Session: s, NativeSession: s, Provider: providertest.Stub}, nil); err != nil {
				done <- err
				return
			}
		}
		done <- f.Close()
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a measure
		t.Fatalf("the writers never had %d files under way at once", n)
	}
	for _, s := range []string{"a", "b", "c", "d"} {
		if b, err := os.ReadFile(filepath.Join(out, providertest.Stub, s+".x.json")); err != nil || string(b) != s {
			t.Errorf("%s: %q, %v", s, b, err)
		}
	}
	if f.Transcripts() != 4 {
		t.Errorf("%d transcripts written, want 4", f.Transcripts())
	}
}

// TestFolderWriters: as many writers as encoding workers, no fewer than
// OpenDir's two, no more than maxDirWriters; 0 workers is one per core.
func TestFolderWriters(t *testing.T) {
	for _, c := range []struct{ workers, want int }{{1, 2}, {2, 2}, {8, 8}, {16, 16}, {256, maxDirWriters}} {
		if got := writers(c.workers); got != c.want {
			t.Errorf("writers(%d) = %d, want %d", c.workers, got, c.want)
		}
	}
	if writers(0) < dirWriters {
		t.Errorf("writers(0) = %d", writers(0))
	}
}
