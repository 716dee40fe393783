package stage

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
)

// MaxStdinArchive bounds a tar or zip archive read on stdin, which is
// copied to a temporary file before its members are read: a zip needs
// random access, and the members of any archive are listed before they are
// read (each is an input of its own, recognised and read apart).
const MaxStdinArchive = 4 << 30

// stdinInputs is stdin, known by its first bytes: a log or a document as
// it comes, a compressed stream through its codec, the members of an
// archive ("-!/MEMBER"). Only what tells them apart is read here: a log's
// first byte ("{", "[", a blank), or a first line of text, is enough, so
// that a live stream is not held up.
func stdinInputs(stdin io.Reader, claim Claim) ([]Input, []error) {
	if stdin == nil {
		return []Input{{Path: StdinPath, Open: func() (io.ReadCloser, error) { return stdinReader{stdin, stdin}, nil }}}, nil
	}
	head, err := readHead(stdin)
	rest := stdin
	if err != nil {
		rest = errReader{err}
	}
	all := io.MultiReader(bytes.NewReader(head), rest)
	k := sniff(head)
	if k.codec != noCodec { // what the codec reads to tell a tar is kept
		var seen bytes.Buffer
		if tarInside(k.codec, io.TeeReader(all, &seen)) {
			k.box = tarBox
		}
		all = io.MultiReader(&seen, all)
	}
	switch {
	case k == notArchive:
		return []Input{{Path: StdinPath, Open: func() (io.ReadCloser, error) { return stdinReader{all, stdin}, nil }}}, nil
	case !k.archive():
		return []Input{{Path: StdinPath, Open: func() (io.ReadCloser, error) {
			c := &counter{r: all}
			d, err := decode(k.codec, c)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", StdinPath, err)
			}
			return readCloser{&ratioReader{r: d, in: c}, d}, nil
		}}}, nil
	}
	f, n, err := spool(all)
	if err != nil {
		return nil, []error{err}
	}
	limit := max(n*MaxExpansion, minExpansion)
	var ins []Input
	var errs []error
	if k.box == zipBox {
		zr, err := zip.NewReader(f, n)
		if err != nil {
			f.Close()
			return nil, []error{fmt.Errorf("%s: %w", StdinPath, err)}
		}
		ins, errs = zipInputs(StdinPath, zr, f, limit, claim)
	} else {
		ins, errs = tarInputs(StdinPath, k.codec, limit, func() (io.ReadCloser, error) {
			return io.NopCloser(io.NewSectionReader(f, 0, n)), nil
		}, claim)
	}
	for i := range ins {
		ins[i].Walk = StdinPath // an archive is walked like a folder
	}
	return ins, errs
}

// plainStart are first bytes that no compressed or archived data has but
// logs and documents do: sniffing stops at them.
var plainStart = [256]bool{'{': true, '[': true, ' ': true, '\t': true, '\r': true, '\n': true, 0xef: true}

// readHead reads the first bytes of r: up to sniffLen, or one that shows
// plain text, or what there is before the end or an error.
func readHead(r io.Reader) ([]byte, error) {
	head := make([]byte, 0, sniffLen)
	for len(head) < sniffLen {
		n, err := r.Read(head[len(head):sniffLen])
		head = head[:len(head)+n]
		if err != nil {
			return head, err
		}
		if len(head) > 0 && plainStart[head[0]] || bytes.IndexByte(head, '\n') >= 0 && !magicPrefix(head) {
			break
		}
	}
	return head, nil
}

// magicPrefix tells whether head may be the start of compressed or zipped
// data. A line of text that is not (a banner before a log) ends the
// sniffing at its newline: a tar's header holds none.
func magicPrefix(head []byte) bool {
	match := func(m []byte) bool {
		n := min(len(m), len(head))
		return bytes.Equal(head[:n], m[:n])
	}
	for _, m := range magics {
		if match(m.magic) {
			return true
		}
	}
	return match([]byte("PK\x03\x04")) || match([]byte("PK\x05\x06"))
}

// spool copies an archive read on stdin to a temporary file, removed at
// once where the system allows it (the open file stays readable).
func spool(r io.Reader) (*os.File, int64, error) {
	f, err := os.CreateTemp("", "agt-stdin-*")
	if err != nil {
		return nil, 0, fmt.Errorf("%s: an archive on stdin is copied to a temporary file: %w", StdinPath, err)
	}
	os.Remove(f.Name())
	n, err := io.Copy(f, io.LimitReader(r, MaxStdinArchive+1))
	switch {
	case err != nil:
		err = fmt.Errorf("%s: %w", StdinPath, err)
	case n > MaxStdinArchive:
		err = fmt.Errorf("%s: an archive on stdin may hold up to %d bytes (save it to a file and name the file)", StdinPath, int64(MaxStdinArchive))
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, n, nil
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ratioReader ends a decompressed stream of unknown size with ErrBomb when
// it grows past MaxExpansion times the compressed bytes read so far (and
// at least MinExpansionLimit).
type ratioReader struct {
	r   io.Reader
	in  *counter
	out int64
}

func (b *ratioReader) Read(p []byte) (int, error) {
	left := max(b.in.n*MaxExpansion, minExpansion) - b.out
	if left <= 0 {
		return 0, ErrBomb
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := b.r.Read(p)
	b.out += int64(n)
	return n, err
}
