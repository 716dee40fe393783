package stage

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

type member struct {
	name, body, link string
}

func writeTar(t *testing.T, p string, gz bool, ms []member) {
	var buf bytes.Buffer
	var w io.Writer = &buf
	var z *gzip.Writer
	if gz {
		z = gzip.NewWriter(&buf)
		w = z
	}
	tw := tar.NewWriter(w)
	for _, m := range ms {
		h := &tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.body)), Typeflag: tar.TypeReg}
		if m.link != "" {
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, m.link, 0
		}
		tw.WriteHeader(h)
		tw.Write([]byte(m.body))
	}
	tw.Close()
	if z != nil {
		z.Close()
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, in Input) string {
	rc, err := in.Open()
	if err != nil {
		t.Fatalf("%s: %v", in.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("%s: %v", in.Path, err)
	}
	return string(b)
}

func TestArchives(t *testing.T) {
	dir := t.TempDir()
	ms := []member{
		{name: "proj/a.jsonl", body: "{\"a\":1}\n"},
		{name: "../evil.jsonl", body: "{}\n"},
		{name: "/abs.jsonl", body: "{}\n"},
		{name: "proj/out.jsonl", link: "../../etc/passwd"},
		{name: "proj/in.jsonl", link: "a.jsonl"},
		{name: "proj/notes.txt", body: "x"},
		{name: "proj/b.json", body: "{\"b\":2}"},
	}
	writeTar(t, filepath.Join(dir, "x.tar"), false, ms)
	writeTar(t, filepath.Join(dir, "x.tar.gz"), true, ms)
	// zip
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, m := range []member{{name: "z/a.jsonl", body: "{\"a\":1}\n"}, {name: "../up.jsonl", body: "{}"}} {
		w, _ := zw.Create(m.name)
		w.Write([]byte(m.body))
	}
	zw.Close()
	os.WriteFile(filepath.Join(dir, "x.zip"), zb.Bytes(), 0o644)
	// gz
	var gb bytes.Buffer
	gw := gzip.NewWriter(&gb)
	gw.Write([]byte("{\"g\":1}\n"))
	gw.Close()
	os.WriteFile(filepath.Join(dir, "s.jsonl.gz"), gb.Bytes(), 0o644)

	ins, errs := Expand([]string{dir}, nil, nil)
	got := map[string]string{}
	var order []string
	for _, in := range ins {
		rel := strings.TrimPrefix(in.Path, dir+string(filepath.Separator))
		order = append(order, rel)
		got[rel] = readAll(t, in)
	}
	want := "s.jsonl.gz x.tar!/proj/a.jsonl x.tar!/proj/b.json x.tar.gz!/proj/a.jsonl x.tar.gz!/proj/b.json x.zip!/z/a.jsonl"
	if strings.Join(order, " ") != want {
		t.Errorf("inputs\n got  %s\n want %s", strings.Join(order, " "), want)
	}
	if got["x.tar.gz!/proj/b.json"] != `{"b":2}` || got["s.jsonl.gz"] != "{\"g\":1}\n" {
		t.Errorf("member contents: %q", got)
	}
	// reading an earlier member again reopens the stream
	if s := readAll(t, ins[3]); s != "{\"a\":1}\n" {
		t.Errorf("re-read: %q", s)
	}
	var refused []string
	for _, e := range errs {
		var r *Refused
		if !errors.As(e, &r) {
			t.Errorf("unexpected error %v", e)
			continue
		}
		refused = append(refused, strings.TrimPrefix(e.Error(), dir+string(filepath.Separator)))
	}
	wantRefused := []string{
		`x.tar!/../evil.jsonl: refused: path climbs out of the archive with ".."`,
		`x.tar!//abs.jsonl: refused: absolute path`,
		`x.tar!/proj/out.jsonl: refused: link to ../../etc/passwd points outside the archive`,
	}
	for _, w := range wantRefused {
		if !contains(refused, w) {
			t.Errorf("no refusal %q in %q", w, refused)
		}
	}
	if len(refused) != 7 { // three per tar, one for the zip
		t.Errorf("%d refusals, want 7: %q", len(refused), refused)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestGzipBomb(t *testing.T) {
	var gb bytes.Buffer
	gw := gzip.NewWriter(&gb)
	zeros := make([]byte, 1<<20)
	for i := 0; i < (MinExpansionLimit>>20)+8; i++ { // a little past the floor
		gw.Write(zeros)
	}
	gw.Close()
	p := filepath.Join(t.TempDir(), "bomb.jsonl.gz")
	os.WriteFile(p, gb.Bytes(), 0o644)
	ins, _ := Expand([]string{p}, nil, nil)
	rc, err := ins[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	n, err := io.Copy(io.Discard, rc)
	if !errors.Is(err, ErrBomb) || n > MinExpansionLimit {
		t.Errorf("read %d bytes, err %v; want ErrBomb at %d", n, err, MinExpansionLimit)
	}
}

// A gzip-compressed member is read through gzip; an archive member that is
// an archive is refused with a warning; a tar read from a pipe is refused.
func TestNestedMembers(t *testing.T) {
	dir := t.TempDir()
	var gb bytes.Buffer
	gw := gzip.NewWriter(&gb)
	gw.Write([]byte("{\"g\":1}\n"))
	gw.Close()
	writeTar(t, filepath.Join(dir, "x.tar"), false, []member{
		{name: "a.jsonl.gz", body: gb.String()},
		{name: "b.tar.gz", body: "whatever"},
		{name: "c.jsonl", body: "{}\n"},
	})
	ins, errs := Expand([]string{filepath.Join(dir, "x.tar")}, nil, nil)
	if len(ins) != 2 || !strings.HasSuffix(ins[0].Path, "x.tar!/a.jsonl.gz") || readAll(t, ins[0]) != "{\"g\":1}\n" || readAll(t, ins[1]) != "{}\n" {
		t.Errorf("inputs %v", ins)
	}
	for _, in := range ins {
		if in.Walk != filepath.Join(dir, "x.tar") {
			t.Errorf("%s: walk %q, want the archive", in.Path, in.Walk)
		}
	}
	var r *Refused
	if len(errs) != 1 || !errors.As(errs[0], &r) || r.Member != "b.tar.gz" {
		t.Errorf("errors %v, want b.tar.gz refused", errs)
	}

	fifo := filepath.Join(dir, "p.tar")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	ins, errs = Expand([]string{fifo}, nil, nil)
	if len(ins) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "not a regular file") {
		t.Errorf("a tar from a pipe: inputs %v, errors %v", ins, errs)
	}
}
