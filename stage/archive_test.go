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

// tarBytes is a tar (gzip-compressed when gz) of ms.
func tarBytes(t *testing.T, gz bool, ms []member) string {
	p := filepath.Join(t.TempDir(), "t.tar")
	writeTar(t, p, gz, ms)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A gzip-compressed member is read through gzip; a tar inside a tar is
// read, members in any order; a zip inside a tar is refused with a
// warning; a tar read from a pipe is refused.
func TestNestedMembers(t *testing.T) {
	dir := t.TempDir()
	var gb bytes.Buffer
	gw := gzip.NewWriter(&gb)
	gw.Write([]byte("{\"g\":1}\n"))
	gw.Close()
	deeper := tarBytes(t, false, []member{{name: "d.jsonl", body: "{\"d\":1}\n"}})
	inner := tarBytes(t, true, []member{
		{name: "n1.jsonl", body: "{\"n\":1}\n"},
		{name: "n2.jsonl", body: "{\"n\":2}\n"},
		{name: "deeper.tar", body: deeper},
	})
	writeTar(t, filepath.Join(dir, "x.tar"), false, []member{
		{name: "a.jsonl.gz", body: gb.String()},
		{name: "n.tar.gz", body: inner},
		{name: "c.jsonl", body: "{}\n"},
		{name: "z.zip", body: "PK"},
	})
	x := filepath.Join(dir, "x.tar")
	ins, errs := Expand([]string{x}, nil, nil)
	want := map[string]string{
		"x.tar!/a.jsonl.gz":                    "{\"g\":1}\n",
		"x.tar!/n.tar.gz!/n1.jsonl":            "{\"n\":1}\n",
		"x.tar!/n.tar.gz!/n2.jsonl":            "{\"n\":2}\n",
		"x.tar!/n.tar.gz!/deeper.tar!/d.jsonl": "{\"d\":1}\n",
		"x.tar!/c.jsonl":                       "{}\n",
	}
	var names []string
	for _, in := range ins {
		names = append(names, strings.TrimPrefix(in.Path, dir+string(filepath.Separator)))
		if in.Walk != x {
			t.Errorf("%s: walk %q, want the archive", in.Path, in.Walk)
		}
	}
	if got := strings.Join(names, " "); got != "x.tar!/a.jsonl.gz x.tar!/n.tar.gz!/n1.jsonl x.tar!/n.tar.gz!/n2.jsonl x.tar!/n.tar.gz!/deeper.tar!/d.jsonl x.tar!/c.jsonl" {
		t.Fatalf("inputs %s", got)
	}
	for _, order := range [][]int{{0, 1, 2, 3, 4}, {4, 2, 0, 3, 1, 1, 3}} {
		for _, i := range order {
			if got := readAll(t, ins[i]); got != want[names[i]] {
				t.Errorf("%s: %q, want %q", names[i], got, want[names[i]])
			}
		}
	}
	var r *Refused
	if len(errs) != 1 || !errors.As(errs[0], &r) || r.Member != "z.zip" {
		t.Errorf("errors %v, want z.zip refused", errs)
	}

	// a tar inside a zip is read, a zip inside a zip refused
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, m := range []member{{name: "t.tar", body: tarBytes(t, false, []member{{name: "in.jsonl", body: "{\"t\":1}\n"}})}, {name: "z2.zip", body: "PK"}} {
		w, _ := zw.Create(m.name)
		w.Write([]byte(m.body))
	}
	zw.Close()
	zp := filepath.Join(dir, "y.zip")
	os.WriteFile(zp, zb.Bytes(), 0o644)
	ins, errs = Expand([]string{zp}, nil, nil)
	if len(ins) != 1 || ins[0].Path != zp+"!/t.tar!/in.jsonl" || readAll(t, ins[0]) != "{\"t\":1}\n" {
		t.Errorf("tar in a zip: inputs %v", ins)
	}
	if len(errs) != 1 || !errors.As(errs[0], &r) || r.Member != "z2.zip" {
		t.Errorf("errors %v, want z2.zip refused", errs)
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
