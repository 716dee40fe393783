package transcript

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt/provider/providertest"

	"github.com/agt-project/agt/stage"
)

// TestIndexKey: a path typed relative, absolute, or through a link to
// its folder is one key; an archive member's key is its archive's, then
// the member's name.
func TestIndexKey(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "real", "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "real", "sub", "a.jsonl"), []byte("{}\n"), 0o644)
	if err := os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "link")); err != nil {
		t.Skip(err)
	}
	out := t.TempDir()
	ix, err := LoadIndex(out, "salt")
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	want := ix.Key(filepath.Join(root, "real", "sub", "a.jsonl"))
	t.Chdir(filepath.Join(root, "real"))
	for _, p := range []string{"sub/a.jsonl", "./sub/../sub/a.jsonl", filepath.Join(root, "link", "sub", "a.jsonl")} {
		if got := ix.Key(p); got != want {
			t.Errorf("Key(%q) = %q, want %q", p, got, want)
		}
	}
	if got := ix.Key("sub/x.tar.gz!/a/b.jsonl"); got != filepath.Join(filepath.Dir(want), "x.tar.gz")+"!/a/b.jsonl" {
		t.Errorf("member key %q", got)
	}
	if ix.Key(stage.StdinPath) != stage.StdinPath {
		t.Error("stdin has a key of its own")
	}
}

// TestIndexSameContent: a unit converted, then a copy of its file under
// another path (a unit the index does not know) is up to date without
// being converted, recorded as the first unit's, and again up to date by
// a stat alone; a copy that differs is not, nor is a copy once the first
// unit's file is damaged, nor under other options.
func TestIndexSameContent(t *testing.T) {
	in := t.TempDir()
	body := "{\"a\":1}\n{\"b\":2}\n"
	for name, b := range map[string]string{"a.jsonl": body, "copy.jsonl": body, "other.jsonl": "{\"a\":1}\n{\"b\":3}\n"} {
		os.WriteFile(filepath.Join(in, name), []byte(b), 0o644)
	}
	input := func(name string) stage.Input { return stage.FileInput(filepath.Join(in, name)) }
	out := t.TempDir()
	run := func(salt string, f func(ix *Index, d *Dir)) {
		t.Helper()
		ix, err := LoadIndex(out, salt)
		if err != nil {
			t.Fatal(err)
		}
		d, err := OpenDir(out, LogOff, ix)
		if err != nil {
			t.Fatal(err)
		}
		f(ix, d)
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if err := ix.Save(); err != nil {
			t.Fatal(err)
		}
		ix.Close()
	}
	convert := func(ix *Index, d *Dir, name string) {
		t.Helper()
		ins := ix.Watch([]stage.Input{input(name)})
		if ix.Fresh(ins[0].Path, ins) {
			t.Fatalf("%s fresh before its conversion", name)
		}
		rc, _ := ins[0].Open() // the read of the conversion
		io.Copy(io.Discard, rc)
		rc.Close()
		if err := d.Flush(ins[0].Path, &Transcript{Schema: Schema, Session: "s", NativeSession: "s", Provider: providertest.Stub}, nil); err != nil {
			t.Fatal(err)
		}
	}
	fresh := func(ix *Index, name string) bool { return ix.Fresh(input(name).Path, []stage.Input{input(name)}) }
	run("salt", func(ix *Index, d *Dir) { convert(ix, d, "a.jsonl") })
	run("salt", func(ix *Index, d *Dir) {
		if !fresh(ix, "copy.jsonl") {
			t.Error("a copy of a converted file is not up to date")
		}
		if fresh(ix, "other.jsonl") {
			t.Error("a file of other content is up to date")
		}
	})
	run("salt", func(ix *Index, d *Dir) {
		e := ix.Units[ix.Key(input("copy.jsonl").Path)]
		if e.Same != ix.Key(input("a.jsonl").Path) || len(e.Files) != 0 || len(e.Inputs) != 1 || e.Inputs[0].Sum == "" {
			t.Errorf("the copy is recorded as %+v", e)
		}
		if len(ix.read) != 0 {
			t.Errorf("the copy known by its path was read again: %v", ix.read)
		}
		if !fresh(ix, "copy.jsonl") || len(ix.read) != 0 {
			t.Errorf("the copy is not up to date by a stat (read %v)", ix.read)
		}
	})
	run("other options", func(ix *Index, d *Dir) {
		if fresh(ix, "copy.jsonl") {
			t.Error("a copy is up to date under other options")
		}
	})
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(in, "copy.jsonl"), later, later) // its record no longer fits: hashed again
	os.WriteFile(filepath.Join(out, providertest.Stub, "s.transcript.jsonl"), []byte("damaged\n"), 0o644)
	run("salt", func(ix *Index, d *Dir) {
		if fresh(ix, "copy.jsonl") {
			t.Error("a copy is up to date while the file holding its content is damaged")
		}
	})
	if b, _ := os.ReadFile(filepath.Join(out, IndexName)); !strings.Contains(string(b), `"schema":"agt.index/4"`) {
		t.Errorf("index: %s", b)
	}
}
