package transcript

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
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

// TestFolderInputsReadAsThemselves: the folder's inputs, which hash what
// is read, are read as the inputs themselves are: a plain file tells its
// size (the reader's blocks fit it; without it every file's tail took a
// batch's block, 40% more bytes allocated on the Claude bench tree) and
// is no stream, a pipe is one.
func TestFolderInputsReadAsThemselves(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(plain, []byte("{}\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	f, err := OpenFolder(filepath.Join(dir, "out"), FolderConfig{UnitKey: func(p string) string { return p }})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pipe := stage.Input{Path: filepath.Join(dir, "pipe"), Open: func() (io.ReadCloser, error) { return pr, nil }}
	ins := f.Inputs([]stage.Input{stage.FileInput(plain), pipe})
	rc, err := ins[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	st, ok := rc.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		t.Fatalf("%T has no Stat", rc)
	}
	if fi, err := st.Stat(); err != nil || fi.Size() != 6 {
		t.Errorf("Stat: %v, %v; want the file's, 6 bytes", fi, err)
	}
	if stage.IsStream(rc) {
		t.Error("a plain file read as a stream")
	}
	prc, err := ins[1].Open()
	if err != nil {
		t.Fatal(err)
	}
	if !stage.IsStream(prc) {
		t.Error("a pipe not read as a stream")
	}
}
