package stage

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"sync"
)

// Archives are read in place: members are streamed to the parser, never
// extracted to disk. A member's src.path is "ARCHIVE!/MEMBER". A compressed
// member (.gz, .zst, .xz, .bz2) is read through its codec; a tar (.tar,
// .tar.gz, .tgz, .tar.zst, .tar.xz, .tar.bz2…) inside a tar or a zip is read
// in turn ("ARCHIVE!/INNER.tar!/MEMBER", up to MaxNesting levels); a
// zip inside an archive is refused (it needs random access).
//
// Limits: a member whose name is absolute or climbs out with "..", and a
// link member pointing outside the archive, are refused; other links are
// skipped (their target is read as a member of its own). Decompressed data
// may not exceed MaxExpansion times the archive's size (and at least
// MinExpansionLimit): past that the member ends with an error, so that a
// compression bomb cannot fill memory or run forever. The limits hold for
// every codec.
const (
	MaxExpansion      = 200
	MinExpansionLimit = 256 << 20
)

// Refused reports an archive member agt will not read. It is a warning, not
// an I/O failure.
type Refused struct {
	Archive, Member, Why string
}

func (r *Refused) Error() string {
	return fmt.Sprintf("%s!/%s: refused: %s", r.Archive, r.Member, r.Why)
}

// minExpansion is MinExpansionLimit, lowered by tests.
var minExpansion int64 = MinExpansionLimit

// ErrBomb is the error of a member that expands past the limit.
var ErrBomb = errors.New("decompressed data exceeds the expansion limit (a compression bomb?)")

// archiveInputs lists the members of the archive at p that agt reads;
// claim is asked about the agent databases it holds (see stores).
func archiveInputs(p string, k kind, claim Claim) ([]Input, []error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, []error{err}
	}
	limit := max(st.Size()*MaxExpansion, minExpansion)
	switch {
	case !k.archive(): // one stream: a pipe will do
		return []Input{{Path: p, Open: func() (io.ReadCloser, error) {
			f, err := os.Open(p)
			if err != nil {
				return nil, err
			}
			return decompress(p, k.codec, f, limit)
		}}}, nil
	case !st.Mode().IsRegular():
		return nil, []error{fmt.Errorf("%s: not a regular file: a tar or zip archive is read from a file (save the stream to a file first)", p)}
	case k.box == zipBox:
		zr, err := zip.OpenReader(p)
		if err != nil {
			return nil, []error{fmt.Errorf("%s: %w", p, err)}
		}
		return zipInputs(p, &zr.Reader, zr, limit, claim)
	}
	return tarInputs(p, k.codec, limit, func() (io.ReadCloser, error) { return os.Open(p) }, claim)
}

// memberOK checks a member name and, for links, its target.
func memberOK(archive, name, link string, isLink bool) error {
	clean := path.Clean(strings.ReplaceAll(name, "\\", "/"))
	switch {
	case path.IsAbs(clean) || (len(clean) > 1 && clean[1] == ':'):
		return &Refused{archive, name, "absolute path"}
	case clean == ".." || strings.HasPrefix(clean, "../"):
		return &Refused{archive, name, `path climbs out of the archive with ".."`}
	}
	if isLink {
		t := link
		if !path.IsAbs(t) {
			t = path.Join(path.Dir(clean), t)
		}
		if path.IsAbs(t) || t == ".." || strings.HasPrefix(t, "../") {
			return &Refused{archive, name, "link to " + link + " points outside the archive"}
		}
	}
	return nil
}

// zipInputs lists the members of a zip; c is closed when none is read.
func zipInputs(p string, zr *zip.Reader, c io.Closer, limit int64, claim Claim) ([]Input, []error) {
	var ins []Input
	var errs []error
	st := newStores(p, claim)
	var mu sync.Mutex // zip.ReadCloser is shared by the members
	for _, f := range zr.File {
		isLink := f.Mode()&os.ModeSymlink != 0
		link := zipLink(f)
		if err := memberOK(p, f.Name, link, isLink); err != nil {
			errs = append(errs, err)
			continue
		}
		if isLink || f.FileInfo().IsDir() {
			continue
		}
		f := f
		name := p + "!/" + f.Name
		open := func() (io.ReadCloser, error) {
			mu.Lock()
			defer mu.Unlock()
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			return readCloser{bounded(rc, limit), rc}, nil
		}
		if st.wants(f.Name) {
			rc, err := open()
			if err == nil {
				ins, err = st.add(ins, f.Name, rc, limit)
				rc.Close()
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
			}
			continue
		}
		in, e := zipMember(p, f, name, open, limit, claim)
		ins, errs = append(ins, in...), append(errs, e...)
	}
	ins, errs = st.claimAll(ins, errs)
	if len(ins) == 0 && c != nil {
		c.Close()
	}
	return ins, errs
}

// zipLink is the target of the zip member f when it is a link.
func zipLink(f *zip.File) string {
	if f.Mode()&os.ModeSymlink == 0 {
		return ""
	}
	rc, err := f.Open()
	if err != nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(rc, 4096))
	rc.Close()
	return string(b)
}

// zipMember is the input of the member f of the zip p, named name and
// opened by open: a file, a compressed file, or the members of a tar.
func zipMember(p string, f *zip.File, name string, open func() (io.ReadCloser, error), limit int64, claim Claim) ([]Input, []error) {
	switch k := archiveOf(f.Name); {
	case k.box == tarBox: // a tar in the zip
		inner := &tarStream{mu: new(sync.Mutex), name: name, codec: k.codec, limit: limit, cur: -1, open: open, claim: claim}
		inner.mu.Lock()
		defer inner.mu.Unlock()
		return inner.list(1)
	case k.box == zipBox:
		return nil, []error{&Refused{p, f.Name, "a zip inside a zip is not read (extract it first)"}}
	case k.codec != noCodec || walkable(f.Name):
		c := k.codec
		size := int64(f.UncompressedSize64)
		if c != noCodec || size < 0 {
			size = 0
		}
		return []Input{{Path: name, Size: size, Open: func() (io.ReadCloser, error) {
			rc, err := open()
			if err != nil || c == noCodec {
				return rc, err
			}
			return decompress(name, c, rc, limit)
		}}}, nil
	}
	return nil, nil
}

// tarInputs lists a tar's members in one pass. Members are then read from a
// shared stream that moves forward; asking for an earlier member reopens
// the archive.
func tarInputs(p string, c codec, limit int64, open func() (io.ReadCloser, error), claim Claim) ([]Input, []error) {
	s := &tarStream{mu: new(sync.Mutex), name: p, codec: c, limit: limit, cur: -1, open: open, claim: claim}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list(0)
}

// MaxNesting is how deep tars inside tars are read; deeper ones are refused.
const MaxNesting = 4

// tarStream reads a tar archive (compressed or not) from a source that
// can be opened again from its start: a file, or a member of another tar.
// Members are read from one stream that moves forward; asking for an
// earlier member reopens the source. Every call runs under mu, the lock of
// the outermost archive, which nested streams share.
type tarStream struct {
	mu    *sync.Mutex
	name  string                        // the archive's path, as in src.path
	open  func() (io.ReadCloser, error) // the source from its start (mu held)
	codec codec
	limit int64
	rc    io.ReadCloser
	z     io.ReadCloser // the decompressor, if any
	tr    *tar.Reader
	cur   int  // index of the member tr is in; -1 before the first
	fresh bool // nothing of the current member was read yet
	last  int  // index of the last member read
	// gen counts the moves of the stream: a reader of an older position
	// is stale
	gen     int
	listing bool  // members are being listed: the stream stays open
	claim   Claim // asked about the agent databases the archive holds
}

// list lists the members the stream reads (mu held), nested tars included.
func (s *tarStream) list(depth int) ([]Input, []error) {
	if err := s.reopen(); err != nil {
		return nil, []error{err}
	}
	s.listing = true
	defer func() { s.listing = false; s.close() }()
	var ins []Input
	var errs []error
	st := newStores(s.name, s.claim)
	for i := 0; ; i++ {
		h, err := s.tr.Next()
		if err == io.EOF {
			if err := s.drain(); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
			}
			break
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
			break
		}
		s.cur, s.fresh = i, true
		isLink := h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink
		if err := memberOK(s.name, h.Name, h.Linkname, isLink); err != nil {
			errs = append(errs, err)
			continue
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		idx := i
		name := s.name + "!/" + strings.TrimPrefix(path.Clean(h.Name), "./")
		if st.wants(h.Name) {
			var err error
			if ins, err = st.add(ins, h.Name, s.tr, s.limit); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
			}
			continue
		}
		in, e := s.listMember(h, idx, name, depth)
		ins, errs = append(ins, in...), append(errs, e...)
	}
	return st.claimAll(ins, errs)
}

// listMember is the input of the member idx of the stream (header h,
// named name): a file, a compressed file, or the members of a tar in it
// (depth: the stream's nesting).
func (s *tarStream) listMember(h *tar.Header, idx int, name string, depth int) ([]Input, []error) {
	switch k := archiveOf(h.Name); {
	case k.box == tarBox:
		if depth+1 >= MaxNesting {
			return nil, []error{&Refused{s.name, h.Name, fmt.Sprintf("archives nested more than %d deep are not read", MaxNesting)}}
		}
		inner := &tarStream{mu: s.mu, name: name, codec: k.codec, limit: s.limit, cur: -1, claim: s.claim,
			open: func() (io.ReadCloser, error) { return s.at(idx) }}
		in, e := inner.list(depth + 1)
		if len(in) > 0 {
			s.last = idx
		}
		return in, e
	case k.box == zipBox:
		return nil, []error{&Refused{s.name, h.Name, "a zip inside a tar is not read (extract it first)"}}
	case k.codec != noCodec || walkable(h.Name):
		s.last = idx
		c := k.codec
		size := h.Size
		if c != noCodec {
			size = 0
		}
		return []Input{{Path: name, Size: size, Open: func() (io.ReadCloser, error) {
			rc, err := s.member(idx)
			if err != nil || c == noCodec {
				return rc, err
			}
			return decompress(name, c, rc, s.limit)
		}}}, nil
	}
	return nil, nil
}

// drain reads a compressed stream to its end once the tar has ended (the
// padding after its last block), so that the codec checks what only its
// end tells: gzip's CRC-32 and length, a zstd frame's checksum.
func (s *tarStream) drain() error {
	if s.z == nil {
		return nil
	}
	_, err := io.Copy(io.Discard, bounded(s.z, s.limit))
	return err
}

func (s *tarStream) reopen() error {
	s.close()
	rc, err := s.open()
	if err != nil {
		return err
	}
	var r io.Reader = bufio.NewReaderSize(rc, 256<<10)
	if s.codec != noCodec {
		z, err := decode(s.codec, r)
		if err != nil {
			rc.Close()
			return fmt.Errorf("%s: %w", s.name, err)
		}
		s.z = z
		r = bounded(z, s.limit)
	}
	s.rc, s.tr, s.cur, s.fresh = rc, tar.NewReader(r), -1, false
	s.gen++
	return nil
}

func (s *tarStream) close() {
	if s.z != nil {
		s.z.Close()
		s.z = nil
	}
	if s.rc != nil {
		s.rc.Close()
		s.rc = nil
	}
	s.gen++
}

// position moves the stream to the start of member idx (mu held).
func (s *tarStream) position(idx int) error {
	if s.rc != nil && s.cur == idx && s.fresh {
		s.gen++
		return nil
	}
	if st, ok := s.rc.(interface{ stale() bool }); s.rc == nil || idx <= s.cur || ok && st.stale() {
		if err := s.reopen(); err != nil {
			return err
		}
	}
	for s.cur < idx {
		if _, err := s.tr.Next(); err != nil {
			s.close()
			return fmt.Errorf("%s: member %d: %w", s.name, idx, err)
		}
		s.cur++
	}
	s.fresh = true
	s.gen++
	return nil
}

// member returns a reader of member idx.
func (s *tarStream) member(idx int) (io.ReadCloser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.position(idx); err != nil {
		return nil, err
	}
	return &memberReader{s, s.gen, true}, nil
}

// at is member for a nested stream, with mu held.
func (s *tarStream) at(idx int) (io.ReadCloser, error) {
	if err := s.position(idx); err != nil {
		return nil, err
	}
	return &memberReader{s, s.gen, false}, nil
}

// errMoved is the error of a member reader whose stream moved on.
var errMoved = errors.New("archive member read out of order")

// memberReader reads a member while the stream stays where it was opened.
// lock tells whether its calls take the lock (a reader given out) or run
// with it held (the source of a nested stream).
type memberReader struct {
	s    *tarStream
	gen  int
	lock bool
}

func (m *memberReader) stale() bool { return m.gen != m.s.gen || m.s.rc == nil }

func (m *memberReader) Read(p []byte) (int, error) {
	if m.lock {
		m.s.mu.Lock()
		defer m.s.mu.Unlock()
	}
	if m.stale() {
		return 0, errMoved
	}
	m.s.fresh = false
	return m.s.tr.Read(p)
}

// Close closes the archive after its last member (a later Open reopens it).
func (m *memberReader) Close() error {
	if m.lock {
		m.s.mu.Lock()
		defer m.s.mu.Unlock()
	}
	if !m.stale() && m.s.cur >= m.s.last && !m.s.listing {
		m.s.close()
	}
	return nil
}

// bounded ends r with ErrBomb after limit bytes.
func bounded(r io.Reader, limit int64) io.Reader { return &boundedReader{r, limit} }

type boundedReader struct {
	r    io.Reader
	left int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, ErrBomb
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

type readCloser struct {
	io.Reader
	io.Closer
}

type closers []io.Closer

func (c closers) Close() error {
	var first error
	for _, x := range c {
		if err := x.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
