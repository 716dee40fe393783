package stage

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

const codecBody = "{\"t\":1}\n{\"t\":2}\n"

// compressed is data through codec c; bzip2, which Go does not write, comes
// from files made by the bzip2 tool (testdata/*.bz2: s.jsonl.bz2 holds
// codecBody, s.tar.bz2 a tar of logs/s.jsonl, bomb.bz2 8 MiB of zeros).
func compressed(t *testing.T, c codec, data []byte, bz2File string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	var err error
	switch c {
	case gzCodec:
		w = gzip.NewWriter(&buf)
	case zstCodec:
		w, err = zstd.NewWriter(&buf)
	case xzCodec:
		w, err = xz.NewWriter(&buf)
	case bz2Codec:
		b, err := os.ReadFile(filepath.Join("testdata", bz2File))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tarOf(t *testing.T, name, body string) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg, Format: tar.FormatUSTAR})
	tw.Write([]byte(body))
	tw.Close()
	return buf.Bytes()
}

func zipOf(t *testing.T, name, body string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create(name)
	w.Write([]byte(body))
	zw.Close()
	return buf.Bytes()
}

var codecExts = map[codec]string{gzCodec: ".gz", zstCodec: ".zst", xzCodec: ".xz", bz2Codec: ".bz2"}

// inputsOf expands one argument, a file holding data or stdin ("-").
func inputsOf(t *testing.T, arg string, data []byte) []Input {
	t.Helper()
	var stdin io.Reader
	if arg == StdinPath {
		stdin = bytes.NewReader(data)
	} else if err := os.WriteFile(arg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ins, errs := Expand([]string{arg}, stdin, nil)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", arg, errs)
	}
	return ins
}

// Every codec is known by its content: on a file named for it, on a file
// named for nothing (or for something else), and on stdin; a compressed
// tar gives its members, named ARCHIVE!/MEMBER ("-!/MEMBER" on stdin).
func TestCodecsByContent(t *testing.T) {
	for c, ext := range codecExts {
		t.Run(codecNames[c], func(t *testing.T) {
			dir := t.TempDir()
			one := compressed(t, c, []byte(codecBody), "s.jsonl.bz2")
			for _, arg := range []string{filepath.Join(dir, "s.jsonl"+ext), filepath.Join(dir, "noext"), filepath.Join(dir, "renamed.json"), StdinPath} {
				ins := inputsOf(t, arg, one)
				if len(ins) != 1 || ins[0].Path != arg || ins[0].File {
					t.Fatalf("%s: inputs %+v", arg, ins)
				}
				if got := readAll(t, ins[0]); got != codecBody {
					t.Errorf("%s: read %q", arg, got)
				}
			}
			tb := compressed(t, c, tarOf(t, "logs/s.jsonl", codecBody), "s.tar.bz2")
			for _, arg := range []string{filepath.Join(dir, "s.tar"+ext), filepath.Join(dir, "archive"), filepath.Join(dir, "renamed.jsonl"), StdinPath} {
				ins := inputsOf(t, arg, tb)
				if len(ins) != 1 || ins[0].Path != arg+"!/logs/s.jsonl" || ins[0].Walk != arg {
					t.Fatalf("%s: inputs %+v", arg, ins)
				}
				if got := readAll(t, ins[0]); got != codecBody {
					t.Errorf("%s: read %q", arg, got)
				}
			}
		})
	}
}

// A compressed tar is known when its first members take more than a
// compressed block: the codec reads what it needs to tell a tar.
func TestLargeCompressedTar(t *testing.T) {
	var body strings.Builder
	for i := 0; body.Len() < 3<<20; i++ {
		fmt.Fprintf(&body, "{\"t\":%d,\"x\":\"%x\"}\n", i, i*2654435761)
	}
	data := tarOf(t, "big.jsonl", body.String())
	for c := range codecExts {
		if c == bz2Codec {
			continue // no bzip2 writer in Go
		}
		tb := compressed(t, c, data, "")
		for _, arg := range []string{filepath.Join(t.TempDir(), "big"), StdinPath} {
			ins := inputsOf(t, arg, tb)
			if len(ins) != 1 || ins[0].Path != arg+"!/big.jsonl" {
				t.Fatalf("%s %s: inputs %+v", codecNames[c], arg, ins)
			}
			if got := readAll(t, ins[0]); got != body.String() {
				t.Errorf("%s %s: read %d bytes, want %d", codecNames[c], arg, len(got), body.Len())
			}
		}
	}
}

// A tar and a zip are known by their content on a file and on stdin (a zip
// on stdin is copied to a temporary file first).
func TestArchivesByContent(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string][]byte{"tar": tarOf(t, "a/s.jsonl", codecBody), "zip": zipOf(t, "a/s.jsonl", codecBody)} {
		for _, arg := range []string{filepath.Join(dir, name+"-renamed.jsonl"), StdinPath} {
			ins := inputsOf(t, arg, data)
			if len(ins) != 1 || ins[0].Path != arg+"!/a/s.jsonl" {
				t.Fatalf("%s %s: inputs %+v", name, arg, ins)
			}
			if got := readAll(t, ins[0]); got != codecBody {
				t.Errorf("%s %s: read %q", name, arg, got)
			}
		}
	}
}

// Plain stdin is read as it comes: sniffing stops at a log's first byte,
// and what it read is handed on.
func TestStdinPlain(t *testing.T) {
	r := &oneByteReader{r: strings.NewReader(codecBody)}
	ins, errs := Expand(nil, r, nil)
	if len(ins) != 1 || len(errs) != 0 || ins[0].Path != StdinPath {
		t.Fatalf("inputs %+v, errors %v", ins, errs)
	}
	if r.reads != 1 {
		t.Errorf("sniffing read %d times, want once", r.reads)
	}
	if got := readAll(t, ins[0]); got != codecBody {
		t.Errorf("read %q", got)
	}
}

// A live stream whose first line is not JSON (a banner) is not held up
// either: sniffing stops at the end of that line.
func TestStdinBanner(t *testing.T) {
	data := "Reading prompt from stdin...\n" + codecBody
	r := &oneByteReader{r: strings.NewReader(data)}
	ins, _ := Expand(nil, r, nil)
	if r.reads != len("Reading prompt from stdin...\n") {
		t.Errorf("sniffing read %d bytes, want the first line", r.reads)
	}
	if got := readAll(t, ins[0]); got != data {
		t.Errorf("read %q", got)
	}
}

type oneByteReader struct {
	r     io.Reader
	reads int
}

func (o *oneByteReader) Read(p []byte) (int, error) {
	o.reads++
	return o.r.Read(p[:min(1, len(p))])
}

// A truncated compressed file gives an error when read, not a panic nor
// silent success.
func TestTruncated(t *testing.T) {
	for c := range codecExts {
		one := compressed(t, c, []byte(strings.Repeat(codecBody, 100)), "s.jsonl.bz2")
		cut := one[:len(one)*2/3]
		for _, arg := range []string{filepath.Join(t.TempDir(), "cut"), StdinPath} {
			ins := inputsOf(t, arg, cut)
			if len(ins) != 1 {
				t.Fatalf("%s %s: inputs %+v", codecNames[c], arg, ins)
			}
			rc, err := ins[0].Open()
			if err == nil {
				_, err = io.Copy(io.Discard, rc)
				rc.Close()
			}
			if err == nil {
				t.Errorf("%s %s: truncated stream read without error", codecNames[c], arg)
			}
		}
	}
}

// Every codec stops at the expansion limit, on a file and on stdin.
func TestBombs(t *testing.T) {
	defer func(m int64) { minExpansion = m }(minExpansion)
	minExpansion = 1 << 20
	zeros := make([]byte, 8<<20)
	for c := range codecExts {
		bomb := compressed(t, c, zeros, "bomb.bz2")
		for _, arg := range []string{filepath.Join(t.TempDir(), "bomb"), StdinPath} {
			ins := inputsOf(t, arg, bomb)
			rc, err := ins[0].Open()
			if err != nil {
				t.Fatal(err)
			}
			n, err := io.Copy(io.Discard, rc)
			rc.Close()
			if !errors.Is(err, ErrBomb) || n >= int64(len(zeros)) {
				t.Errorf("%s %s: read %d bytes, err %v; want ErrBomb", codecNames[c], arg, n, err)
			}
		}
	}
}

// A walked file is known by its ending, every codec's included.
func TestWalkEndings(t *testing.T) {
	for _, c := range []struct {
		name string
		want kind
	}{
		{"a.jsonl.zst", kind{zstCodec, single}}, {"a.tar.xz", kind{xzCodec, tarBox}}, {"A.TBZ2", kind{bz2Codec, tarBox}},
		{"a.tgz", kind{gzCodec, tarBox}}, {"a.tar.zst", kind{zstCodec, tarBox}}, {"a.zip", kind{noCodec, zipBox}},
		{"a.jsonl", notArchive},
	} {
		if got := archiveOf(c.name); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
