package opencode

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/agt-project/agt/provider/internal/docscan"
)

// The export document is cut into its records by a docscan.Scanner that
// only follows the document's frame ({info, messages:[{info, parts:[…]}]})
// and finds where each record ends; each record is then decoded on its own.
// A document cut short (or broken) still yields every record that ends
// before the break.

// span is one record of a document: its JSON pointer and bytes.
type span struct {
	ptr string
	b   []byte
}

// frame is a document cut into records.
type frame struct {
	info     *span
	messages []msgFrame
	src      []byte // the "agt.src" member of documents made by WalkStorage/WalkDB
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

// scanDoc cuts an export document into its records.
func scanDoc(b []byte) *frame {
	f := &frame{}
	s := docscan.New(b)
	if bytes.HasPrefix(b, []byte("\ufeff")) {
		s.SetPos(3)
	}
	ptr, at := "", 0 // the innermost thing being read, for the break
	mark := func(p string) {
		ptr = p
		s.Space()
		at = s.Pos()
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
			v, err := value(s)
			sp = &span{ptr: p, b: v}
			return err
		})
		if err != nil {
			sp = nil
		}
		return sp, err
	}
	message := func(n int) error {
		mp := docscan.Index("/messages", n)
		f.messages = append(f.messages, msgFrame{ptr: mp})
		m := &f.messages[len(f.messages)-1]
		return within(mp, "/messages", func() error {
			return s.Members(func(key []byte, _ int) error {
				var err error
				switch k := key[1 : len(key)-1]; string(k) {
				case "info":
					m.info, err = record(mp+"/info", mp)
				case "parts":
					err = within(mp+"/parts", mp, func() error {
						return s.Elements(func(k int) error {
							sp, err := record(docscan.Index(mp+"/parts", k), mp+"/parts")
							if sp != nil {
								m.parts = append(m.parts, *sp)
							}
							return err
						})
					})
				default:
					_, err = record(mp+"/"+string(k), mp)
				}
				return err
			})
		})
	}
	err := s.Members(func(key []byte, _ int) error {
		var err error
		switch k := key[1 : len(key)-1]; string(k) {
		case "info":
			f.info, err = record("/info", "")
		case "messages":
			err = within("/messages", "", func() error { return s.Elements(message) })
		case srcKey:
			var sp *span
			if sp, err = record("/"+srcKey, ""); sp != nil {
				f.src = sp.b
			}
		default:
			_, err = record("/"+string(k), "")
		}
		return err
	})
	if err == nil && s.Look() != 0 {
		err = fmt.Errorf("more input after the document (byte %d)", s.Pos())
		ptr, at = "", s.Pos()
	}
	if err != nil {
		why := "not JSON: " + err.Error()
		if ended(err) {
			why = "truncated document: input ends"
			if ptr != "" {
				why += " inside " + ptr
			}
		}
		f.broken = &breakAt{ptr: ptr, at: at, why: why, tail: b[at:]}
	}
	return f
}

// value moves past one value. A NUL byte there reads as the end of the
// input.
func value(s *docscan.Scanner) ([]byte, error) {
	if s.Look() == 0 {
		return nil, docscan.ErrTruncated
	}
	return s.Value()
}

// ended reports whether err is the end of the input: the document ends
// early, or holds a NUL byte where more JSON belongs.
func ended(err error) bool {
	var e *docscan.Error
	return errors.Is(err, docscan.ErrTruncated) || errors.As(err, &e) && e.Got == 0
}
