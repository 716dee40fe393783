package copilot

import (
	"bytes"
	"errors"

	"github.com/agt-project/agt/provider/internal/docscan"
)

// A legacy document is walked with a docscan.Scanner, so that the records
// before a cut can still be read. Each record it cuts out is decoded (and
// validated) on its own.

// docError says where a document could not be read further: the JSON
// pointer of the record that is cut short or broken, and its text.
type docError struct {
	ptr  string
	frag []byte
	err  error // docscan.ErrTruncated, docscan.ErrSyntax, or why the document is not read
}

var errStop = errors.New("stop")

// members calls fn for each member of the top-level object of b with the
// scanner placed at the member's value; fn must move past the value (or
// return an error). It stops early when fn returns stop.
func members(b []byte, fn func(s *docscan.Scanner, key string) (stop bool, err *docError)) *docError {
	s := docscan.New(b)
	s.Lax = true
	if s.Look() != '{' {
		return &docError{ptr: "", frag: b, err: errors.New("not a JSON object")}
	}
	var derr *docError
	err := s.Members(func(lit []byte, off int) error {
		key, err := docscan.Unquote(lit)
		if err != nil {
			derr = &docError{ptr: "", frag: b[off:], err: docscan.ErrSyntax}
			return errStop
		}
		stop, e := fn(s, key)
		if e != nil || stop {
			derr = e
			return errStop
		}
		return nil
	})
	var e *docscan.Error
	switch {
	case err == errStop || err == nil:
		return derr
	case !errors.As(err, &e):
		return &docError{err: err}
	case e.Key == nil:
		return &docError{ptr: "", frag: fragment(b, e), err: e.Err}
	}
	// the document breaks between a key and its value
	key, kerr := docscan.Unquote(e.Key)
	if kerr != nil {
		return &docError{ptr: "", frag: b[e.KeyOff:], err: docscan.ErrSyntax}
	}
	return &docError{ptr: pointer(key), frag: fragment(b, e), err: e.Err}
}

// fragment is the text from where the document breaks; none when it ends
// between two records.
func fragment(b []byte, e *docscan.Error) []byte {
	if e.Off >= len(b) {
		return nil
	}
	return b[e.Off:]
}

// skip moves past one value. A value cannot start with '}', ']', ',' or
// ':', and a number or literal ends at a ':' too.
func skip(s *docscan.Scanner) ([]byte, error) {
	c := s.Look()
	switch c {
	case '}', ']', ',', ':':
		return nil, docscan.ErrSyntax
	}
	start := s.Pos()
	v, err := s.Value()
	if c != '"' && c != '{' && c != '[' {
		end := s.Pos()
		if err != nil {
			end = len(s.Bytes())
		}
		if k := bytes.IndexByte(s.Bytes()[start:end], ':'); k >= 0 {
			s.SetPos(start + k)
			return s.Bytes()[start : start+k], nil
		}
	}
	var e *docscan.Error
	if errors.As(err, &e) {
		return nil, e.Err
	}
	return v, err
}

// value moves past the value of member key and returns it.
func value(s *docscan.Scanner, key string) ([]byte, *docError) {
	s.Space()
	start := s.Pos()
	v, err := skip(s)
	if err != nil {
		return nil, &docError{ptr: pointer(key), frag: s.Bytes()[start:], err: err}
	}
	return v, nil
}

// elements calls fn with each element of the array that is the value of
// member key. A value that is not an array is skipped.
func elements(s *docscan.Scanner, key string, fn func(ptr string, elem []byte)) *docError {
	if s.Look() != '[' {
		_, err := value(s, key)
		return err
	}
	b := s.Bytes()
	var derr *docError
	n := 0 // the elements read
	err := s.Elements(func(int) error {
		start := s.Pos()
		v, err := skip(s)
		if err != nil {
			derr = &docError{ptr: pointer(key, n), frag: b[start:], err: err}
			return errStop
		}
		fn(pointer(key, n), v)
		n++
		return nil
	})
	var e *docscan.Error
	switch {
	case derr != nil:
		return derr
	case errors.As(err, &e):
		return &docError{ptr: pointer(key, n), frag: fragment(b, e), err: e.Err}
	}
	return nil
}

// pointer is the JSON pointer /key[/n].
func pointer(key string, n ...int) string {
	p := "/" + docscan.Escape(key)
	for _, i := range n {
		p = docscan.Index(p, i)
	}
	return p
}
