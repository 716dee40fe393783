package gemini

import (
	"bytes"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/docscan"
)

// A whole document is split into its members with a docscan.Scanner, without
// being decoded in one piece, so that a document cut short still gives up
// every complete record. Each piece is decoded (and so validated) on its
// own.

// member is one member of a JSON object: its key and its value's bytes.
type member struct {
	key string
	val []byte
}

// members splits the JSON object b into its members. ok is false when the
// object does not close: the members read so far are returned, the last one
// with its partial value when that value was cut.
func members(b []byte) (ms []member, ok bool) {
	s := docscan.New(b)
	s.Lax = true
	err := s.Members(func(key []byte, _ int) error {
		if !s.More() {
			return docscan.ErrTruncated
		}
		start := s.Pos()
		v, err := s.Value()
		if err != nil {
			v = b[start:]
		}
		ms = append(ms, member{unquote(key), v})
		return err
	})
	return ms, err == nil
}

// elements splits the JSON array b into its elements; ok is false when the
// array does not close (the complete elements read so far are returned).
func elements(b []byte) (els [][]byte, ok bool) {
	s := docscan.New(b)
	s.Lax = true
	err := s.Elements(func(int) error {
		v, err := s.Value()
		if err == nil {
			els = append(els, v)
		}
		return err
	})
	return els, err == nil
}

// unquote decodes a JSON string literal (a key). Without a backslash, the
// bytes between the quotes are taken as they are; a literal that cannot be
// decoded gives its own text.
func unquote(q []byte) string {
	if len(q) >= 2 && bytes.IndexByte(q, '\\') < 0 {
		return string(q[1 : len(q)-1])
	}
	s, err := docscan.Unquote(q)
	if err != nil {
		return string(q)
	}
	return s
}

// get returns the value of key among ms.
func get(ms []member, key string) []byte {
	for _, m := range ms {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// object rebuilds an object from the complete members of ms (the last one is
// cut when ok is false), leaving out the member named skip, whose value is
// returned apart.
func object(ms []member, ok bool, skip string) (obj, skipped []byte) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if m.key == skip && skip != "" {
			skipped = m.val
			continue
		}
		if !ok && i == len(ms)-1 {
			break
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(agt.Marshal(m.key))
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes(), skipped
}
