package provider

import (
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt/stage"
)

// TestBlockFor: a file's tail is read into a block of what is left of
// it, not a batch's size; a file with a batch's bytes or more left, a
// batch's size.
func TestBlockFor(t *testing.T) {
	for _, c := range []struct {
		left int64
		want int
	}{
		{1 << 30, batchBytes}, {batchBytes, batchBytes}, {batchBytes - 1, batchBytes},
		{100 << 10, 100<<10 + 1}, {firstBlock, firstBlock + 1}, {10, firstBlock}, {0, firstBlock}, {-5, firstBlock},
	} {
		if got := blockFor(c.left); got != c.want {
			t.Errorf("blockFor(%d) = %d, want %d", c.left, got, c.want)
		}
	}
}

// TestFileSize: the size of a plain file is known, also through a reader
// that passes its bytes on with its Stat; a compressed file's, read
// decompressed, is not.
func TestFileSize(t *testing.T) {
	dir := t.TempDir()
	plain, packed := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl.gz")
	if err := os.WriteFile(plain, []byte("{}\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, _ := os.Create(packed)
	z := gzip.NewWriter(w)
	z.Write([]byte("{}\n{}\n{}\n"))
	z.Close()
	w.Close()
	ins, errs := stage.Expand([]string{plain, packed}, nil, Claim)
	if len(errs) > 0 || len(ins) != 2 {
		t.Fatalf("expand: %v %v", ins, errs)
	}
	want := map[string]int64{plain: 6, packed: -1}
	for _, in := range ins {
		rc, err := in.Open()
		if err != nil {
			t.Fatal(err)
		}
		f := &fileRead{in: in, rc: rc, br: stage.NewBlockReader(rc)}
		if got := f.size(); got != want[in.Path] {
			t.Errorf("%s: size %d, want %d", in.Path, got, want[in.Path])
		}
		// a reader that passes the bytes on as they are, with their Stat
		// (agt-transcript -o's, which hashes them)
		f.rc = passOn{rc}
		if got := f.size(); got != want[in.Path] {
			t.Errorf("%s passed on: size %d, want %d", in.Path, got, want[in.Path])
		}
		rc.Close()
	}
}

// passOn is a reader of another's bytes, with its Stat when it has one.
type passOn struct{ io.ReadCloser }

func (p passOn) Stat() (fs.FileInfo, error) {
	if s, ok := p.ReadCloser.(interface{ Stat() (fs.FileInfo, error) }); ok {
		return s.Stat()
	}
	return nil, errors.ErrUnsupported
}
