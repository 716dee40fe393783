package canon

import (
	"bytes"
	"strconv"
	"strings"
	"unsafe"

	"github.com/agt-project/agt"
)

// field is one member of a JSON object, its value kept verbatim.
type field struct {
	k string
	v agt.Raw
}

// object is a JSON object as an ordered list of members: inputs keep their
// native member order, and members added by the mapping go at the end in a
// fixed order, so that no map order reaches the output.
type object struct{ f []field }

// parseObject splits a compact JSON object into its members. It reports
// false for anything that is not an object.
func parseObject(r agt.Raw) (*object, bool) {
	if bytes.IndexByte(r, '\n') >= 0 {
		r = agt.Compact(r) // a newline is never inside a JSON string
	}
	b := bytes.TrimSpace(r)
	if len(b) < 2 || b[0] != '{' {
		return nil, false
	}
	s := unsafe.String(&b[0], len(b)) // read in place: the members are slices of r
	o := &object{}
	i := skipSpace(s, 1)
	if i < len(s) && s[i] == '}' {
		return o, skipSpace(s, i+1) == len(s)
	}
	for i < len(s) {
		if s[i] != '"' {
			return nil, false
		}
		j := skipValue(s, i)
		if j < 0 {
			return nil, false
		}
		key := agt.Raw(s[i:j]).Str()
		i = skipSpace(s, j)
		if i >= len(s) || s[i] != ':' {
			return nil, false
		}
		i = skipSpace(s, i+1)
		j = skipValue(s, i)
		if j < 0 {
			return nil, false
		}
		o.f = append(o.f, field{key, agt.Raw(b[i:j:j])})
		i = skipSpace(s, j)
		if i >= len(s) {
			return nil, false
		}
		if s[i] == '}' {
			return o, skipSpace(s, i+1) == len(s)
		}
		if s[i] != ',' {
			return nil, false
		}
		i = skipSpace(s, i+1)
	}
	return nil, false
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value starting at s[i], or -1.
func skipValue(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"':
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				k := skipValue(s, j)
				if k < 0 {
					return -1
				}
				j = k - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(s) && !strings.ContainsRune(",}] \t\r\n", rune(s[j])) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// parseArray splits a JSON array into its elements.
func parseArray(r agt.Raw) ([]agt.Raw, bool) {
	b := bytes.TrimSpace(r)
	if len(b) < 2 || b[0] != '[' {
		return nil, false
	}
	s := unsafe.String(&b[0], len(b)) // read in place: the elements are slices of r
	var out []agt.Raw
	i := skipSpace(s, 1)
	if i < len(s) && s[i] == ']' {
		return out, true
	}
	for i < len(s) {
		j := skipValue(s, i)
		if j < 0 {
			return nil, false
		}
		out = append(out, agt.Raw(b[i:j:j]))
		i = skipSpace(s, j)
		if i >= len(s) {
			return nil, false
		}
		if s[i] == ']' {
			return out, true
		}
		if s[i] != ',' {
			return nil, false
		}
		i = skipSpace(s, i+1)
	}
	return nil, false
}

func (o *object) index(k string) int {
	for i := range o.f {
		if o.f[i].k == k {
			return i
		}
	}
	return -1
}

func (o *object) has(k string) bool { return o.index(k) >= 0 }

func (o *object) get(k string) agt.Raw {
	if i := o.index(k); i >= 0 {
		return o.f[i].v
	}
	return nil
}

// str is member k when it is a JSON string, else "".
func (o *object) str(k string) string {
	v := o.get(k)
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	return v.Str()
}

// set replaces member k, or appends it.
func (o *object) set(k string, v agt.Raw) {
	if i := o.index(k); i >= 0 {
		o.f[i].v = v
		return
	}
	o.f = append(o.f, field{k, v})
}

// setStr sets member k to the string s; an empty s removes it.
func (o *object) setStr(k, s string) {
	if s == "" {
		o.del(k)
		return
	}
	o.set(k, jsonString(s))
}

func (o *object) del(k string) {
	if i := o.index(k); i >= 0 {
		o.f = append(o.f[:i], o.f[i+1:]...)
	}
}

// rename renames member from to to, in place. A member already called to
// wins: from then keeps its name.
func (o *object) rename(from, to string) {
	i := o.index(from)
	if i < 0 || from == to || o.has(to) {
		return
	}
	o.f[i].k = to
}

func (o *object) clone() *object {
	return &object{f: append([]field(nil), o.f...)}
}

// raw encodes o as a compact JSON object.
func (o *object) raw() agt.Raw {
	n := 2
	for _, f := range o.f {
		n += len(f.k) + len(f.v) + 4
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	for i, f := range o.f {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, jsonString(f.k)...)
		b = append(b, ':')
		b = append(b, f.v...)
	}
	return append(b, '}')
}

// jsonString encodes s as a JSON string (agt.String leaves "" out).
func jsonString(s string) agt.Raw {
	if s == "" {
		return agt.Raw(`""`)
	}
	return agt.String(s)
}

// jsonArray encodes elements as a JSON array.
func jsonArray(elems []agt.Raw) agt.Raw {
	b := []byte{'['}
	for i, e := range elems {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return append(b, ']')
}

// strArray is r's elements when r is an array of strings.
func strArray(r agt.Raw) ([]string, bool) {
	elems, ok := parseArray(r)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		if len(e) == 0 || e[0] != '"' {
			return nil, false
		}
		out = append(out, e.Str())
	}
	return out, true
}

func strs(ss []string) agt.Raw {
	elems := make([]agt.Raw, len(ss))
	for i, s := range ss {
		elems[i] = jsonString(s)
	}
	return jsonArray(elems)
}

// number is r as an int when it is a JSON integer.
func number(r agt.Raw) (int, bool) {
	n, err := strconv.Atoi(string(r))
	return n, err == nil
}
