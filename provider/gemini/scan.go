package gemini

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/agt-project/agt"
)

// A whole document is split into its members without being decoded in one
// piece, so that a document cut short still gives up every complete record.
// The scanner only matches strings and brackets; each piece is decoded (and
// so validated) on its own.

// member is one member of a JSON object: its key and its value's bytes.
type member struct {
	key string
	val []byte
}

// members splits the JSON object b into its members. ok is false when the
// object does not close: the members read so far are returned, the last one
// with its partial value when that value was cut.
func members(b []byte) (ms []member, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return ms, false
		}
		if b[i] == '}' {
			return ms, true
		}
		if b[i] == ',' {
			i++
			continue
		}
		if b[i] != '"' {
			return ms, false
		}
		end, ok := skipString(b, i)
		if !ok {
			return ms, false
		}
		key := unquote(b[i:end])
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return ms, false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return ms, false
		}
		end, ok = skipValue(b, i)
		if !ok {
			return append(ms, member{key, b[i:]}), false
		}
		ms = append(ms, member{key, b[i:end]})
		i = end
	}
}

// elements splits the JSON array b into its elements; ok is false when the
// array does not close (the complete elements read so far are returned).
func elements(b []byte) (els [][]byte, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return els, false
		}
		switch b[i] {
		case ']':
			return els, true
		case ',':
			i++
			continue
		}
		end, ok := skipValue(b, i)
		if !ok {
			return els, false
		}
		els = append(els, b[i:end])
		i = end
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// skipString returns the end of the string that opens at b[i].
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(b), false
}

// skipValue returns the end of the value that starts at b[i]. A scalar that
// runs to the end of b counts as cut (it sits inside an object or array that
// has to close after it).
func skipValue(b []byte, i int) (int, bool) {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return len(b), false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return len(b), false
	}
	j := i
	for j < len(b) && !isDelim(b[j]) {
		j++
	}
	return j, j < len(b)
}

func isDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// unquote decodes a JSON string literal (a key).
func unquote(q []byte) string {
	if len(q) >= 2 && bytes.IndexByte(q, '\\') < 0 {
		return string(q[1 : len(q)-1])
	}
	var s string
	if agt.API.Unmarshal(q, &s) != nil {
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

// ptrEscape escapes a JSON pointer reference token.
func ptrEscape(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// ptrIndex is the pointer of element i of the array at base.
func ptrIndex(base string, i int) string { return base + "/" + strconv.Itoa(i) }

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
