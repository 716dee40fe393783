package copilot

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/agt-project/agt"
)

// scanner walks a JSON document that may be cut short, so that the records
// before the cut can still be read. It checks only the structure it needs
// (strings, nesting); each record it cuts out is decoded (and validated)
// on its own.
type scanner struct {
	b []byte
	i int
}

var (
	errTruncated = errors.New("the document ends early")
	errSyntax    = errors.New("invalid JSON")
)

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// more reports whether input is left after white space.
func (s *scanner) more() bool {
	s.ws()
	return s.i < len(s.b)
}

// str moves past the string that starts at s.i.
func (s *scanner) str() error {
	s.i++
	for {
		j := bytes.IndexAny(s.b[s.i:], "\"\\")
		if j < 0 {
			s.i = len(s.b)
			return errTruncated
		}
		s.i += j
		if s.b[s.i] == '"' {
			s.i++
			return nil
		}
		s.i += 2 // an escape
		if s.i > len(s.b) {
			s.i = len(s.b)
			return errTruncated
		}
	}
}

// skip moves past one JSON value.
func (s *scanner) skip() error {
	if !s.more() {
		return errTruncated
	}
	switch s.b[s.i] {
	case '"':
		return s.str()
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if err := s.str(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return nil
				}
			}
			s.i++
		}
		return errTruncated
	case '}', ']', ',', ':':
		return errSyntax
	}
	start := s.i
	for s.i < len(s.b) && !delim(s.b[s.i]) {
		s.i++
	}
	if s.i == len(s.b) {
		return errTruncated
	}
	if s.i == start {
		return errSyntax
	}
	return nil
}

func delim(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r', ':':
		return true
	}
	return false
}

// docError says where a document could not be read further: the JSON
// pointer of the record that is cut short or broken, and its text.
type docError struct {
	ptr  string
	frag []byte
	err  error
}

// members calls fn for each member of the top-level object of b with the
// scanner placed at the member's value; fn must move past the value (or
// return an error). It stops early when fn returns stop.
func members(b []byte, fn func(s *scanner, key string) (stop bool, err *docError)) *docError {
	s := &scanner{b: b}
	if !s.more() || s.b[s.i] != '{' {
		return &docError{ptr: "", frag: b, err: errors.New("not a JSON object")}
	}
	s.i++
	for {
		if !s.more() {
			return &docError{ptr: "", frag: nil, err: errTruncated}
		}
		switch s.b[s.i] {
		case '}':
			return nil
		case ',':
			s.i++
			continue
		case '"':
		default:
			return &docError{ptr: "", frag: s.b[s.i:], err: errSyntax}
		}
		ks := s.i
		if err := s.str(); err != nil {
			return &docError{ptr: "", frag: s.b[ks:], err: err}
		}
		var key string
		if agt.API.Unmarshal(s.b[ks:s.i], &key) != nil {
			return &docError{ptr: "", frag: s.b[ks:], err: errSyntax}
		}
		if !s.more() {
			return &docError{ptr: pointer(key), err: errTruncated}
		}
		if s.b[s.i] != ':' {
			return &docError{ptr: pointer(key), frag: s.b[s.i:], err: errSyntax}
		}
		s.i++
		stop, derr := fn(s, key)
		if derr != nil || stop {
			return derr
		}
	}
}

// value moves past the value of member key and returns it.
func (s *scanner) value(key string) ([]byte, *docError) {
	s.ws()
	start := s.i
	if err := s.skip(); err != nil {
		return nil, &docError{ptr: pointer(key), frag: s.b[start:], err: err}
	}
	return s.b[start:s.i], nil
}

// elements calls fn with each element of the array that is the value of
// member key. A value that is not an array is skipped.
func (s *scanner) elements(key string, fn func(ptr string, elem []byte)) *docError {
	if !s.more() {
		return &docError{ptr: pointer(key), err: errTruncated}
	}
	if s.b[s.i] != '[' {
		_, err := s.value(key)
		return err
	}
	s.i++
	for n := 0; ; {
		if !s.more() {
			return &docError{ptr: pointer(key, n), err: errTruncated}
		}
		switch s.b[s.i] {
		case ']':
			s.i++
			return nil
		case ',':
			s.i++
			continue
		}
		start := s.i
		if err := s.skip(); err != nil {
			return &docError{ptr: pointer(key, n), frag: s.b[start:], err: err}
		}
		fn(pointer(key, n), s.b[start:s.i])
		n++
	}
}

// pointer is the JSON pointer /key[/n].
func pointer(key string, n ...int) string {
	var b []byte
	b = append(b, '/')
	for i := 0; i < len(key); i++ {
		switch key[i] {
		case '~':
			b = append(b, "~0"...)
		case '/':
			b = append(b, "~1"...)
		default:
			b = append(b, key[i])
		}
	}
	for _, i := range n {
		b = strconv.AppendInt(append(b, '/'), int64(i), 10)
	}
	return string(b)
}
