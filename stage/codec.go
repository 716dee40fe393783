package stage

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
)

// codec is a compression format agt reads through.
type codec int

const (
	noCodec codec = iota
	gzCodec
	zstCodec
	xzCodec
	bz2Codec
)

// container is what holds the (decompressed) data: one stream, or the
// members of a tar or a zip archive.
type container int

const (
	single container = iota
	tarBox
	zipBox
)

// kind is how an input is read: through a codec, then as one stream or as
// an archive. The zero kind is a plain file.
type kind struct {
	codec codec
	box   container
}

var notArchive = kind{}

// archive tells whether the kind has members (a tar or a zip).
func (k kind) archive() bool { return k.box != single }

// suffixKinds are the file endings that name a kind, longest first where
// one ends another. Walked files are recognised by them; files named on the
// command line and stdin are recognised by their content (see sniff).
var suffixKinds = []struct {
	suffix string
	kind   kind
}{
	{".tar", kind{noCodec, tarBox}},
	{".tar.gz", kind{gzCodec, tarBox}}, {".tgz", kind{gzCodec, tarBox}},
	{".tar.zst", kind{zstCodec, tarBox}}, {".tzst", kind{zstCodec, tarBox}},
	{".tar.xz", kind{xzCodec, tarBox}}, {".txz", kind{xzCodec, tarBox}},
	{".tar.bz2", kind{bz2Codec, tarBox}}, {".tbz2", kind{bz2Codec, tarBox}}, {".tbz", kind{bz2Codec, tarBox}},
	{".zip", kind{noCodec, zipBox}},
	{".gz", kind{gzCodec, single}},
	{".zst", kind{zstCodec, single}},
	{".xz", kind{xzCodec, single}},
	{".bz2", kind{bz2Codec, single}},
}

// archiveOf is the kind a file name tells.
func archiveOf(p string) kind {
	l := strings.ToLower(p)
	for _, s := range suffixKinds {
		if strings.HasSuffix(l, s.suffix) {
			return s.kind
		}
	}
	return notArchive
}

// magics are the first bytes of each compressed format.
var magics = []struct {
	magic []byte
	codec codec
}{
	{[]byte{0x1f, 0x8b}, gzCodec},
	{[]byte{0x28, 0xb5, 0x2f, 0xfd}, zstCodec},
	{[]byte{0xfd, '7', 'z', 'X', 'Z', 0}, xzCodec},
	{[]byte("BZh"), bz2Codec},
}

// sniffLen is how much of an input sniff looks at: a tar header.
const sniffLen = 512

// sniff tells the kind of data from its first bytes (up to sniffLen); for
// a compressed stream, tarInside tells whether it holds a tar. Data sniff
// does not know is a plain stream: a log of lines, or a document.
func sniff(head []byte) kind {
	for _, m := range magics {
		if bytes.HasPrefix(head, m.magic) {
			if m.codec == bz2Codec && (len(head) < 4 || head[3] < '1' || head[3] > '9') {
				continue
			}
			return kind{m.codec, single}
		}
	}
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return kind{noCodec, zipBox}
	case isTar(head):
		return kind{noCodec, tarBox}
	}
	return notArchive
}

// tarInside tells whether the compressed stream r holds a tar: it
// decompresses the first sniffLen bytes, reading as much of r as the codec
// needs for them (a zstd or bzip2 block, an xz chunk).
func tarInside(c codec, r io.Reader) bool {
	dec, err := decode(c, r)
	if err != nil {
		return false
	}
	defer dec.Close()
	inner := make([]byte, sniffLen)
	n, _ := io.ReadFull(dec, inner)
	return isTar(inner[:n])
}

// isTar tells a tar header: POSIX ("ustar\x00") or GNU ("ustar ") magic,
// and a header checksum that holds (the sum of the header's 512 bytes with
// its checksum field read as spaces, in octal at bytes 148–155), so that a
// log whose bytes 257–262 happen to read "ustar " is not taken for a tar.
func isTar(b []byte) bool {
	if len(b) < 512 || string(b[257:262]) != "ustar" || (b[262] != 0 && b[262] != ' ') {
		return false
	}
	field := bytes.Trim(b[148:156], " \x00")
	if len(field) == 0 {
		return false
	}
	var want int64
	for _, c := range field {
		if c < '0' || c > '7' {
			return false
		}
		want = want*8 + int64(c-'0')
	}
	var sum, signed int64
	for i, c := range b[:512] {
		if i >= 148 && i < 156 {
			c = ' '
		}
		sum += int64(c)
		signed += int64(int8(c))
	}
	return want == sum || want == signed // some old tars summed signed bytes
}

// sniffFile is the kind of the file at p by its content; a file that is not
// a regular file (a pipe) or cannot be read is known by its name, as the
// read of it could not be done twice.
func sniffFile(p string, st os.FileInfo) kind {
	if !st.Mode().IsRegular() { // opening a pipe could block, reading it would take its data
		return archiveOf(p)
	}
	f, err := os.Open(p)
	if err != nil {
		return archiveOf(p)
	}
	defer f.Close()
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return archiveOf(p)
	}
	k := sniff(head[:n])
	if k.codec != noCodec {
		if _, err := f.Seek(0, io.SeekStart); err == nil && tarInside(k.codec, bufio.NewReader(f)) {
			k.box = tarBox
		}
	}
	return k
}

// zstdMaxWindow bounds the memory a zstd stream may ask for (zstd --long
// uses up to 128 MiB).
const zstdMaxWindow = 128 << 20

// decoders open a decompressed stream of a codec; closing it does not close
// the source.
var decoders = map[codec]func(r io.Reader) (io.ReadCloser, error){
	gzCodec: func(r io.Reader) (io.ReadCloser, error) { return gzip.NewReader(r) },
	zstCodec: func(r io.Reader) (io.ReadCloser, error) {
		d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(zstdMaxWindow))
		if err != nil {
			return nil, err
		}
		return d.IOReadCloser(), nil
	},
	xzCodec: func(r io.Reader) (io.ReadCloser, error) {
		d, err := xz.NewReader(r)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(d), nil
	},
	bz2Codec: func(r io.Reader) (io.ReadCloser, error) { return io.NopCloser(bzip2.NewReader(r)), nil },
}

// codecNames name the codecs in messages.
var codecNames = map[codec]string{gzCodec: "gzip", zstCodec: "zstd", xzCodec: "xz", bz2Codec: "bzip2"}

// decode is the decompressed stream of r.
func decode(c codec, r io.Reader) (io.ReadCloser, error) {
	d, ok := decoders[c]
	if !ok {
		return io.NopCloser(r), nil
	}
	rc, err := d(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", codecNames[c], err)
	}
	return rc, nil
}

// decompress returns the decompressed stream of rc, bounded by limit;
// closing it closes rc.
func decompress(name string, c codec, rc io.ReadCloser, limit int64) (io.ReadCloser, error) {
	d, err := decode(c, bufio.NewReader(rc))
	if err != nil {
		rc.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return readCloser{bounded(d, limit), closers{d, rc}}, nil
}
