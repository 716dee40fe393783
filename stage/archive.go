package stage

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"sync"
)

// Archives are read in place: members are streamed to the parser, never
// extracted to disk. A member's src.path is "ARCHIVE!/MEMBER".
//
// Limits: a member whose name is absolute or climbs out with "..", and a
// link member pointing outside the archive, are refused; other links are
// skipped (their target is read as a member of its own). Decompressed data
// may not exceed MaxExpansion times the archive's size (and at least
// MinExpansionLimit): past that the member ends with an error, so that a
// gzip bomb cannot fill memory or run forever.
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

// ErrBomb is the error of a member that expands past the limit.
var ErrBomb = errors.New("decompressed data exceeds the expansion limit (a gzip bomb?)")

type archiveKind int

const (
	notArchive archiveKind = iota
	kindTar
	kindTarGz
	kindZip
	kindGz
)

func archiveOf(p string) archiveKind {
	switch l := strings.ToLower(p); {
	case strings.HasSuffix(l, ".tar"):
		return kindTar
	case strings.HasSuffix(l, ".tar.gz"), strings.HasSuffix(l, ".tgz"):
		return kindTarGz
	case strings.HasSuffix(l, ".zip"):
		return kindZip
	case strings.HasSuffix(l, ".gz"):
		return kindGz
	}
	return notArchive
}

// archiveInputs lists the members of the archive at p that agt reads.
func archiveInputs(p string, kind archiveKind) ([]Input, []error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, []error{err}
	}
	limit := max(st.Size()*MaxExpansion, MinExpansionLimit)
	switch {
	case kind == kindGz: // one stream: a pipe will do
		return []Input{{Path: p, Open: func() (io.ReadCloser, error) {
			f, err := os.Open(p)
			if err != nil {
				return nil, err
			}
			return gunzip(p, f, limit)
		}}}, nil
	case !st.Mode().IsRegular():
		return nil, []error{fmt.Errorf("%s: not a regular file: a tar or zip archive is read from a file (save the stream to a file first)", p)}
	case kind == kindZip:
		return zipInputs(p, limit)
	}
	return tarInputs(p, kind == kindTarGz, limit)
}

// gunzip returns the decompressed stream of rc, bounded by limit; closing
// it closes rc.
func gunzip(name string, rc io.ReadCloser, limit int64) (io.ReadCloser, error) {
	z, err := gzip.NewReader(bufio.NewReader(rc))
	if err != nil {
		rc.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return readCloser{bounded(z, limit), closers{z, rc}}, nil
}

// memberKind sorts an archive member by its name: a log read as it is, a
// compressed log (.gz) read through gzip, a nested archive (refused: agt
// does not read archives in archives), or something else, left out.
func memberKind(archive, name string) (read, gz bool, err error) {
	switch archiveOf(name) {
	case kindGz:
		return true, true, nil
	case notArchive:
		return walkable(name), false, nil
	}
	return false, false, &Refused{archive, name, "an archive inside an archive is not read (extract it first)"}
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

func zipInputs(p string, limit int64) ([]Input, []error) {
	zr, err := zip.OpenReader(p)
	if err != nil {
		return nil, []error{fmt.Errorf("%s: %w", p, err)}
	}
	var ins []Input
	var errs []error
	var mu sync.Mutex // zip.ReadCloser is shared by the members
	for _, f := range zr.File {
		isLink := f.Mode()&os.ModeSymlink != 0
		link := ""
		if isLink {
			if rc, err := f.Open(); err == nil {
				b, _ := io.ReadAll(io.LimitReader(rc, 4096))
				rc.Close()
				link = string(b)
			}
		}
		if err := memberOK(p, f.Name, link, isLink); err != nil {
			errs = append(errs, err)
			continue
		}
		if isLink || f.FileInfo().IsDir() {
			continue
		}
		read, gz, err := memberKind(p, f.Name)
		if err != nil {
			errs = append(errs, err)
		}
		if !read {
			continue
		}
		f := f
		name := p + "!/" + f.Name
		ins = append(ins, Input{Path: name, Open: func() (io.ReadCloser, error) {
			mu.Lock()
			defer mu.Unlock()
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			rc = readCloser{bounded(rc, limit), rc}
			if gz {
				return gunzip(name, rc, limit)
			}
			return rc, nil
		}})
	}
	if len(ins) == 0 {
		zr.Close()
	}
	return ins, errs
}

// tarInputs lists a tar's members in one pass. Members are then read from a
// shared stream that moves forward; asking for an earlier member reopens
// the archive.
func tarInputs(p string, gz bool, limit int64) ([]Input, []error) {
	s := &tarStream{path: p, gz: gz, limit: limit}
	if err := s.reopen(); err != nil {
		return nil, []error{err}
	}
	defer s.close()
	var ins []Input
	var errs []error
	for i := 0; ; i++ {
		h, err := s.tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, err))
			break
		}
		isLink := h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink
		if err := memberOK(p, h.Name, h.Linkname, isLink); err != nil {
			errs = append(errs, err)
			continue
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		read, gz, err := memberKind(p, h.Name)
		if err != nil {
			errs = append(errs, err)
		}
		if !read {
			continue
		}
		idx := i
		s.last = idx
		name := p + "!/" + strings.TrimPrefix(path.Clean(h.Name), "./")
		ins = append(ins, Input{Path: name, Open: func() (io.ReadCloser, error) {
			rc, err := s.member(idx)
			if err != nil || !gz {
				return rc, err
			}
			return gunzip(name, rc, limit)
		}})
	}
	return ins, errs
}

type tarStream struct {
	mu    sync.Mutex
	path  string
	gz    bool
	limit int64
	f     *os.File
	z     *gzip.Reader
	tr    *tar.Reader
	next  int // index of the member Next returns next
	last  int // index of the last member read
}

func (s *tarStream) reopen() error {
	s.close()
	f, err := os.Open(s.path)
	if err != nil {
		return err
	}
	var r io.Reader = bufio.NewReaderSize(f, 256<<10)
	if s.gz {
		z, err := gzip.NewReader(r)
		if err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", s.path, err)
		}
		s.z = z
		r = bounded(z, s.limit)
	}
	s.f, s.tr, s.next = f, tar.NewReader(r), 0
	return nil
}

func (s *tarStream) close() {
	if s.z != nil {
		s.z.Close()
		s.z = nil
	}
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
}

// member positions the stream at member idx and returns a reader of it.
func (s *tarStream) member(idx int) (io.ReadCloser, error) {
	s.mu.Lock()
	if s.f == nil || idx < s.next {
		if err := s.reopen(); err != nil {
			s.mu.Unlock()
			return nil, err
		}
	}
	for s.next <= idx {
		if _, err := s.tr.Next(); err != nil {
			s.mu.Unlock()
			return nil, fmt.Errorf("%s: member %d: %w", s.path, idx, err)
		}
		s.next++
	}
	// the lock is held until the member is closed: one reader at a time
	return memberReader{s}, nil
}

type memberReader struct{ s *tarStream }

func (m memberReader) Read(p []byte) (int, error) { return m.s.tr.Read(p) }

// Close releases the stream for the next member; after the last member the
// archive is closed (a later Open reopens it).
func (m memberReader) Close() error {
	if m.s.next > m.s.last {
		m.s.close()
	}
	m.s.mu.Unlock()
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
