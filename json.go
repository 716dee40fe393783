package agt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/bytedance/sonic"
)

// API is the sonic configuration every agt encoder and decoder uses: no HTML
// escaping, map keys sorted (so that no map order leaks into output), Raw
// fragments copied without re-validation (they are validated when read).
var API = apiConfig.Froze()

// Exact is API with keys matched to the fields' tags exactly, not
// regardless of case: faster, for the records of agents that write their
// keys one way only (DecodeExact).
var Exact = func(c sonic.Config) sonic.API { c.CaseSensitive = true; return c.Froze() }(apiConfig)

var apiConfig = sonic.Config{
	SortMapKeys:             true,
	NoValidateJSONMarshaler: true,
	NoNullSliceOrMap:        false,
	CopyString:              false,
}

// Raw is a JSON value kept verbatim: a tool's input, a result's output, a text
// as a JSON string literal. Large strings travel this way without being
// unescaped and escaped again. A Raw taken from input must be compact (no
// newlines), which every JSONL line is; Compact makes it so otherwise.
type Raw []byte

// MarshalJSON returns r itself.
func (r Raw) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON keeps a copy of the value.
func (r *Raw) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = nil
		return nil
	}
	*r = append((*r)[:0], b...)
	return nil
}

// String returns s as a JSON string literal.
func String(s string) Raw {
	if s == "" {
		return nil
	}
	if len(s) <= 64 && plain(s) { // a name, a key, an id: quoted as it is
		b := make([]byte, len(s)+2)
		b[0], b[len(b)-1] = '"', '"'
		copy(b[1:], s)
		return b
	}
	b, _ := API.Marshal(s)
	return b
}

// plain tells whether s is printable ASCII without a quote or a backslash:
// a JSON string of it is s between quotes.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// Str decodes r when it is a JSON string; otherwise it returns r's text.
func (r Raw) Str() string {
	if len(r) == 0 {
		return ""
	}
	if r[0] == '"' {
		n := len(r)
		if n >= 2 && r[n-1] == '"' {
			if in := r[1 : n-1]; bytes.IndexByte(in, '\\') < 0 && bytes.IndexByte(in, '"') < 0 {
				return string(in) // nothing to unescape: the text between the quotes
			}
		}
		var s string
		if API.UnmarshalFromString(unsafe.String(&r[0], n), &s) == nil {
			return own(s, r)
		}
	}
	return string(r)
}

// own is s, copied when it shares r's memory: a decoded string is the
// caller's, whatever becomes of r.
func own(s string, r []byte) string {
	p, b := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.SliceData(r)))
	if len(s) > 0 && p >= b && p < b+uintptr(len(r)) {
		return strings.Clone(s)
	}
	return s
}

// IsNull reports whether r is empty or the literal null.
func (r Raw) IsNull() bool { return len(r) == 0 || string(r) == "null" }

// Compact returns r without insignificant white space (for values cut out of
// pretty-printed documents).
func Compact(r []byte) Raw {
	if !spaced(r) {
		return r
	}
	var b bytes.Buffer
	if json.Compact(&b, r) != nil {
		return r
	}
	return b.Bytes()
}

// spaced tells whether r has white space outside its strings: the spaces
// inside texts, which most records have, need no compacting.
func spaced(r []byte) bool {
	in := false
	for i := 0; i < len(r); i++ {
		switch c := r[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\n' || c == '\r' || c == '\t'):
			return true
		}
	}
	return false
}

// Marshal encodes v with API, as a Raw.
func Marshal(v any) Raw {
	b, err := API.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// ValidText returns s with invalid UTF-8 replaced, for text kept from bad input.
func ValidText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string(bytes.ToValidUTF8([]byte(s), []byte("\uFFFD")))
}

// Decode reads a record that must be a JSON object into v, reading only the
// fields v names. Strings and raw fragments in v share rec's memory (rec must
// not change afterwards); a parser clones what it keeps beyond the record. Its errors are one short line: "not JSON", "JSON array
// where an object belongs", or, for fields of the wrong type, an error that
// leaves v filled with what could be read (the caller may keep it).
func Decode(rec []byte, v any) error { return decode(API, rec, v) }

// DecodeExact is Decode with keys matched exactly (Exact): a member whose
// name differs from a field's tag in case only is not that field's.
func DecodeExact(rec []byte, v any) error { return decode(Exact, rec, v) }

func decode(api sonic.API, rec []byte, v any) error {
	t, err := object(rec)
	if err != nil {
		return err
	}
	err = api.UnmarshalFromString(unsafe.String(&t[0], len(t)), v)
	if err == nil {
		// the decoder does not look inside every string it skips, and raw
		// fragments are copied to the output as they are
		return checkStrings(t)
	}
	if !API.Valid(t) {
		return invalid(t)
	}
	if err := checkStrings(t); err != nil {
		return err
	}
	return &FieldError{Msg: mismatch(t, v, err)}
}

// Unmarshal decodes the JSON value b into v as API.Unmarshal does, but
// without copying b first: strings and raw fragments in v share b's memory
// (b must not change afterwards), as Decode's do. It is for fragments of a
// record already decoded (a message's content), where the copy API.Unmarshal
// makes cost as much as the decoding.
func Unmarshal(b []byte, v any) error { return unmarshal(API, b, v) }

// UnmarshalExact is Unmarshal with keys matched exactly (Exact).
func UnmarshalExact(b []byte, v any) error { return unmarshal(Exact, b, v) }

func unmarshal(api sonic.API, b []byte, v any) error {
	if len(b) == 0 {
		return api.Unmarshal(b, v)
	}
	return api.UnmarshalFromString(unsafe.String(&b[0], len(b)), v)
}

// Check reads rec as Decode does without decoding a field of it: nil for a
// JSON object, else the error Decode gives for a record that is not one
// (its strings checked as Decode checks them). A parser that needs nothing
// of a record (a usage report's lines without usage) still tells a bad
// line this way.
func Check(rec []byte) error {
	t, err := object(rec)
	if err != nil {
		return err
	}
	if !API.Valid(t) {
		return invalid(t)
	}
	return checkStrings(t)
}

// object is rec without the white space (and BOM) before it, or the error
// Decode gives for a record that does not open a JSON object.
func object(rec []byte) ([]byte, error) {
	t := bytes.TrimLeft(rec, " \t\r\n\ufeff")
	if len(t) == 0 {
		return nil, errors.New("empty record")
	}
	if t[0] != '{' {
		if API.Valid(t) {
			return nil, fmt.Errorf("JSON %s where an object belongs", jsonKind(t[0]))
		}
		return nil, errors.New("not JSON")
	}
	return t, nil
}

// mismatch is fieldMsg of sonic's error decoding t into v; where sonic
// does not tell the place (after a member with a decoder of its own it
// points at the object's end) or tells no mismatch (the non-JIT decoder
// fails a number past float64's range as a syntax error),
// encoding/json's decode of t names the member (a slower second decode,
// on this error path only).
func mismatch(t []byte, v any, err error) string {
	msg, ok := fieldMsg(t, err.Error())
	if ok && !strings.HasPrefix(msg, "byte ") {
		return msg
	}
	var te *json.UnmarshalTypeError
	if !errors.As(json.Unmarshal(t, v), &te) || te.Field == "" {
		return msg
	}
	got, num, _ := strings.Cut(te.Value, " ") // "number -1": a number
	if got == "bool" {
		got = "boolean"
	}
	return misfit(strconv.Quote(te.Field[strings.LastIndexByte(te.Field, '.')+1:]), got, wanted(te.Type.String()), []byte(num))
}

// fieldMsg explains a decoder type mismatch in one line: which key holds
// what, and what belongs there ("kind": a number where a string belongs),
// or the decoder's first line when it cannot tell (ok false). The
// non-JIT decoder places a string one byte in, past its quote: the place
// is moved back to the quote.
func fieldMsg(t []byte, msg string) (_ string, ok bool) {
	first, _, _ := strings.Cut(msg, "\n")
	var want string
	var pos int
	if _, err := fmt.Sscanf(first, "Mismatch type %s with value", &want); err != nil {
		return first, false
	}
	i := strings.Index(msg, "at index ")
	if i < 0 {
		return first, false
	}
	if _, err := fmt.Sscanf(msg[i:], "at index %d", &pos); err != nil || pos < 0 || pos >= len(t) {
		return first, false
	}
	if j := back(t, pos-2); pos > 1 && t[pos-1] == '"' && j >= 0 && strings.IndexByte(":,[", t[j]) >= 0 {
		pos--
	}
	return misfit(keyBefore(t, pos), jsonKind(t[pos]), wanted(want), t[pos:]), true
}

// misfit words a member, key, holding a value of the JSON kind got where
// want belongs; num starts with the value's text when it is a number.
func misfit(key, got, want string, num []byte) string {
	if got == "number" && (want == "a number" || want == "an integer" && integral(num)) {
		return key + ": a number too large"
	}
	return fmt.Sprintf("%s: %s %s where %s belongs", key, article(got), got, want)
}

// back is the index of the last byte of t at or before j that is not JSON
// white space, -1 if none.
func back(t []byte, j int) int {
	for j >= 0 && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n' || t[j] == '\r') {
		j--
	}
	return j
}

// wanted is what a Go type takes, as a JSON kind with its article.
func wanted(typ string) string {
	switch {
	case typ == "string":
		return "a string"
	case strings.HasPrefix(typ, "int") || strings.HasPrefix(typ, "uint"):
		return "an integer"
	case strings.HasPrefix(typ, "float"):
		return "a number"
	case typ == "bool":
		return "a boolean"
	case strings.HasPrefix(typ, "[]"):
		return "an array"
	}
	return "an object"
}

// integral reports whether the JSON number that b starts with has no
// fraction and no exponent.
func integral(b []byte) bool {
	for _, c := range b {
		switch {
		case c == '.' || c == 'e' || c == 'E':
			return false
		case c != '-' && (c < '0' || c > '9'):
			return true
		}
	}
	return true
}

func article(s string) string {
	if strings.IndexByte("aeiou", s[0]) >= 0 {
		return "an"
	}
	return "a"
}

// keyBefore is the quoted key of the value at pos, or "byte N" when the
// value is not an object member (an array element).
func keyBefore(t []byte, pos int) string {
	j := back(t, pos-1)
	if j < 1 || t[j] != ':' {
		return fmt.Sprintf("byte %d", pos)
	}
	if j = back(t, j-1); j < 1 || t[j] != '"' {
		return fmt.Sprintf("byte %d", pos)
	}
	end := j
	for j--; j >= 0; j-- {
		if t[j] == '"' && (j == 0 || t[j-1] != '\\') {
			key := string(t[j : end+1])
			if len(key) > 66 {
				key = key[:64] + "…\""
			}
			return ValidText(key)
		}
	}
	return fmt.Sprintf("byte %d", pos)
}

// maxDepth is how deep the JSON decoder nests.
const maxDepth = 4096

// invalid says why a record that is not valid JSON is not: too deep,
// truncated, or anything else.
func invalid(t []byte) error {
	depth, deepest, opens, closes := 0, 0, 0, 0
	in := false
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case in:
		case c == '{' || c == '[':
			depth++
			opens++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
			closes++
		}
	}
	switch {
	case deepest > maxDepth:
		return fmt.Errorf("JSON nested deeper than %d levels", maxDepth)
	case opens > closes || in:
		return errors.New("not JSON (truncated record)")
	}
	return errors.New("not JSON")
}

// FieldError reports fields of unexpected types in a record that is
// otherwise valid JSON; the record's other fields were read.
type FieldError struct{ Msg string }

func (e *FieldError) Error() string { return "unexpected field type: " + e.Msg }

// IsFieldError tells whether err is a FieldError: a record read but for
// fields of unexpected types, which a parser keeps.
func IsFieldError(err error) bool {
	var fe *FieldError
	return errors.As(err, &fe)
}

func jsonKind(c byte) string {
	switch c {
	case '[':
		return "array"
	case '{':
		return "object"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}
