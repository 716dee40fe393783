package opencode

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// The export document is cut into its records by a small scanner that only
// follows the document's frame ({info, messages:[{info, parts:[…]}]}) and
// finds where each record ends; each record is then decoded on its own. A
// document cut short (or broken) still yields every record that ends before
// the break.

// span is one record of a document: its JSON pointer and bytes.
type span struct {
	ptr string
	b   []byte
}

// frame is a document cut into records.
type frame struct {
	info     *span
	messages []msgFrame
	src      []byte // the "agt.src" member of documents made by ReadStorage/ReadDB
	broken   *breakAt
}

type msgFrame struct {
	info  *span
	parts []span
	ptr   string
}

// breakAt says where and why the document could not be followed further.
type breakAt struct {
	ptr  string // innermost record or container being read
	at   int    // byte offset of that record's start
	why  string
	tail []byte
}

var errEnd = errors.New("input ends")

type scanner struct {
	b []byte
	i int
}

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

// peek returns the next non-blank byte, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

func (s *scanner) expect(c byte) error {
	switch s.peek() {
	case c:
		s.i++
		return nil
	case 0:
		return errEnd
	}
	return fmt.Errorf("%q where %q belongs (byte %d)", s.b[s.i], c, s.i)
}

// str reads a string and returns its raw contents (escapes left as they are).
func (s *scanner) str() ([]byte, error) {
	if err := s.expect('"'); err != nil {
		return nil, err
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '\\':
			s.i += 2
		case '"':
			s.i++
			return s.b[start : s.i-1], nil
		default:
			s.i++
		}
	}
	return nil, errEnd
}

// value skips one value and returns its bytes. Only the nesting is checked;
// the record's decoder checks the rest.
func (s *scanner) value() ([]byte, error) {
	switch s.peek() {
	case 0:
		return nil, errEnd
	case '"':
		start := s.i
		_, err := s.str()
		return s.b[start:s.i], err
	case '{', '[':
	default:
		start := s.i
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return s.b[start:s.i], nil
			}
			s.i++
		}
		return nil, errEnd
	}
	start := s.i
	depth := 0
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '"':
			if _, err := s.str(); err != nil {
				return nil, err
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.i++
				return s.b[start:s.i], nil
			}
		}
		s.i++
	}
	return nil, errEnd
}

// members reads an object, calling fn with each key; fn reads the value.
func (s *scanner) members(fn func(key string) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.i++
		return nil
	}
	for {
		k, err := s.str()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := fn(string(k)); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		case 0:
			return errEnd
		default:
			return fmt.Errorf("%q where ',' or '}' belongs (byte %d)", s.b[s.i], s.i)
		}
	}
}

// elements reads an array, calling fn with each index; fn reads the value.
func (s *scanner) elements(fn func(n int) error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	if s.peek() == ']' {
		s.i++
		return nil
	}
	for n := 0; ; n++ {
		if err := fn(n); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		case 0:
			return errEnd
		default:
			return fmt.Errorf("%q where ',' or ']' belongs (byte %d)", s.b[s.i], s.i)
		}
	}
}

// scanDoc cuts an export document into its records.
func scanDoc(b []byte) *frame {
	f := &frame{}
	s := &scanner{b: b}
	if bytes.HasPrefix(b, []byte("\ufeff")) {
		s.i = 3
	}
	ptr, at := "", 0 // the innermost thing being read, for the break
	mark := func(p string) {
		ptr = p
		s.ws()
		at = s.i
	}
	// within reads a container at p with fn; past it, a break is reported
	// in parent.
	within := func(p, parent string, fn func() error) error {
		mark(p)
		if err := fn(); err != nil {
			return err
		}
		mark(parent)
		return nil
	}
	record := func(p, parent string) (sp *span, err error) {
		err = within(p, parent, func() error {
			v, err := s.value()
			sp = &span{ptr: p, b: v}
			return err
		})
		if err != nil {
			sp = nil
		}
		return sp, err
	}
	message := func(n int) error {
		mp := "/messages/" + strconv.Itoa(n)
		f.messages = append(f.messages, msgFrame{ptr: mp})
		m := &f.messages[len(f.messages)-1]
		return within(mp, "/messages", func() error {
			return s.members(func(key string) error {
				var err error
				switch key {
				case "info":
					m.info, err = record(mp+"/info", mp)
				case "parts":
					err = within(mp+"/parts", mp, func() error {
						return s.elements(func(k int) error {
							sp, err := record(mp+"/parts/"+strconv.Itoa(k), mp+"/parts")
							if sp != nil {
								m.parts = append(m.parts, *sp)
							}
							return err
						})
					})
				default:
					_, err = record(mp+"/"+key, mp)
				}
				return err
			})
		})
	}
	err := s.members(func(key string) error {
		var err error
		switch key {
		case "info":
			f.info, err = record("/info", "")
		case "messages":
			err = within("/messages", "", func() error { return s.elements(message) })
		case srcKey:
			var sp *span
			if sp, err = record("/"+srcKey, ""); sp != nil {
				f.src = sp.b
			}
		default:
			_, err = record("/"+key, "")
		}
		return err
	})
	if err == nil && s.peek() != 0 {
		err = fmt.Errorf("more input after the document (byte %d)", s.i)
		ptr, at = "", s.i
	}
	if err != nil {
		why := "not JSON: " + err.Error()
		if err == errEnd {
			why = "truncated document: input ends"
			if ptr != "" {
				why += " inside " + ptr
			}
		}
		if at > len(b) {
			at = len(b)
		}
		f.broken = &breakAt{ptr: ptr, at: at, why: why, tail: b[at:]}
	}
	return f
}
