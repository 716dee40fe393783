package docscan_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/docscan"
)

// doc is a small document with escapes in keys and strings, brackets in
// strings, nesting and every kind of scalar.
const doc = ` {"a": 1, "b\"\\": "x\"]}\\", "c/~d": [true, {"e": [null, -2.5e3]}, "[{"], ` +
	`"f": {}, "g": [], "h": "\u00e9\\"}` + "\n"

// member is a member as read: key, value, and the offset of the key.
type member struct {
	key, val string
	off      int
}

// readMembers reads the top-level members of b, each value with Value.
func readMembers(b []byte, lax bool) ([]member, error) {
	s := docscan.New(b)
	s.Lax = lax
	var ms []member
	err := s.Members(func(key []byte, off int) error {
		v, err := s.Value()
		if err == nil {
			ms = append(ms, member{string(key), string(v), off})
		}
		return err
	})
	return ms, err
}

func TestMembers(t *testing.T) {
	want := []member{
		{`"a"`, `1`, 2},
		{`"b\"\\"`, `"x\"]}\\"`, 10},
		{`"c/~d"`, `[true, {"e": [null, -2.5e3]}, "[{"]`, 30},
		{`"f"`, `{}`, 75},
		{`"g"`, `[]`, 84},
		{`"h"`, `"\u00e9\\"`, 93},
	}
	for _, lax := range []bool{false, true} {
		ms, err := readMembers([]byte(doc), lax)
		if err != nil || !reflect.DeepEqual(ms, want) {
			t.Errorf("lax %v: %v\n%v", lax, err, ms)
		}
	}
}

// TestTruncated cuts the document at every byte: the members whose value
// ends before the cut are read, then the document ends early.
func TestTruncated(t *testing.T) {
	full, err := readMembers([]byte(doc), false)
	if err != nil {
		t.Fatal(err)
	}
	end := strings.LastIndexByte(doc, '}')
	for cut := 0; cut <= end; cut++ {
		b := []byte(doc[:cut])
		var want []member
		for _, m := range full {
			e := m.off + strings.Index(doc[m.off:], m.val) + len(m.val)
			// a scalar that runs to the cut may go on after it
			if e < cut || e == cut && strings.ContainsAny(m.val[:1], `"[{`) {
				want = append(want, m)
			}
		}
		for _, lax := range []bool{false, true} {
			ms, err := readMembers(b, lax)
			var e *docscan.Error
			if !errors.Is(err, docscan.ErrTruncated) || !errors.As(err, &e) || e.Off > cut {
				t.Fatalf("cut at %d, lax %v: %v", cut, lax, err)
			}
			if len(ms) != len(want) || len(ms) > 0 && !reflect.DeepEqual(ms, want) {
				t.Fatalf("cut at %d, lax %v: %v, want %v", cut, lax, ms, want)
			}
		}
		// one value cut anywhere is cut short at its start
		s := docscan.New(b)
		if _, err := s.Value(); !errors.Is(err, docscan.ErrTruncated) || err.(*docscan.Error).Off != min(1, cut) {
			t.Fatalf("cut at %d: Value: %v", cut, err)
		}
	}
}

func TestValue(t *testing.T) {
	for _, c := range []struct {
		in, val string
		err     error
		off     int // the error's offset
	}{
		{`"abc" x`, `"abc"`, nil, 0},
		{`  "a\"b\\" x`, `"a\"b\\"`, nil, 0},
		{`"a\\\"b"`, `"a\\\"b"`, nil, 0},
		{`"\\\\"`, `"\\\\"`, nil, 0},
		{`{"a":"}"}`, `{"a":"}"}`, nil, 0},
		{`[[1,[2]],{"b":[]}]]`, `[[1,[2]],{"b":[]}]`, nil, 0},
		{`-1.5e3,`, `-1.5e3`, nil, 0},
		{"true\n", `true`, nil, 0},
		{`null}`, `null`, nil, 0},
		{`}`, ``, nil, 0},
		{`,`, ``, nil, 0},
		{"\x00,", "\x00", nil, 0},
		{``, ``, docscan.ErrTruncated, 0},
		{`   `, ``, docscan.ErrTruncated, 3},
		{`"abc`, ``, docscan.ErrTruncated, 0},
		{`"abc\"`, ``, docscan.ErrTruncated, 0},
		{`"abc\`, ``, docscan.ErrTruncated, 0},
		{` {"a":"}`, ``, docscan.ErrTruncated, 1},
		{`[1,2`, ``, docscan.ErrTruncated, 0},
		{`12`, ``, docscan.ErrTruncated, 0},
	} {
		s := docscan.New([]byte(c.in))
		v, err := s.Value()
		var e *docscan.Error
		switch {
		case c.err == nil && (err != nil || string(v) != c.val || s.Pos() != strings.Index(c.in, c.val)+len(c.val)):
			t.Errorf("%q: %q %v at %d", c.in, v, err, s.Pos())
		case c.err != nil && (!errors.Is(err, c.err) || !errors.As(err, &e) || e.Off != c.off || v != nil):
			t.Errorf("%q: %q %v, want %v at %d", c.in, v, err, c.err, c.off)
		}
	}
}

func TestQuoted(t *testing.T) {
	s := docscan.New([]byte(` "a\"b" x`))
	if q, err := s.Quoted(); err != nil || string(q) != `"a\"b"` || s.Pos() != 7 {
		t.Errorf("%q %v at %d", q, err, s.Pos())
	}
	if _, err := s.Quoted(); err == nil || err.Error() != `'x' where '"' belongs (byte 8)` {
		t.Errorf("%v", err)
	}
}

// TestBroken: where a broken document stops, strict and lax.
func TestBroken(t *testing.T) {
	for _, c := range []struct {
		in        string
		lax       bool
		read      int    // members read
		err       error  // nil when the object is read to its end
		msg       string // the error's text
		key       string // the key before the break
		off, koff int
	}{
		{`{"a":1,,"b":2}`, false, 1, docscan.ErrSyntax, `',' where '"' belongs (byte 7)`, "", 7, 0},
		{`{"a":1,,"b":2}`, true, 2, nil, "", "", 0, 0},
		{`{"a":1 "b":2}`, false, 1, docscan.ErrSyntax, `'"' where ',' or '}' belongs (byte 7)`, "", 7, 0},
		{`{"a":1 "b":2}`, true, 2, nil, "", "", 0, 0},
		{`{,"a":1,}`, false, 0, docscan.ErrSyntax, `',' where '"' belongs (byte 1)`, "", 1, 0},
		{`{,"a":1,}`, true, 1, nil, "", "", 0, 0},
		{`{"a" 1}`, false, 0, docscan.ErrSyntax, `'1' where ':' belongs (byte 5)`, `"a"`, 5, 1},
		{`{"a" 1}`, true, 0, docscan.ErrSyntax, `'1' where ':' belongs (byte 5)`, `"a"`, 5, 1},
		{`{ "a"  `, true, 0, docscan.ErrTruncated, "the document ends early", `"a"`, 7, 2},
		{`{"a":1, x}`, true, 1, docscan.ErrSyntax, `'x' where '"' belongs (byte 8)`, "", 8, 0},
		{`{"a":1, ]`, true, 1, docscan.ErrSyntax, `']' where '"' or '}' belongs (byte 8)`, "", 8, 0},
		{`{"a":1]`, false, 1, docscan.ErrSyntax, `']' where ',' or '}' belongs (byte 6)`, "", 6, 0},
		{`[1]`, false, 0, docscan.ErrSyntax, `'[' where '{' belongs (byte 0)`, "", 0, 0},
		{"{\"a\":1 \x00", false, 1, docscan.ErrSyntax, `'\x00' where ',' or '}' belongs (byte 7)`, "", 7, 0},
		{`{"a":1,"b`, false, 1, docscan.ErrTruncated, "the document ends early", "", 7, 0},
		{`{"a":1,`, false, 1, docscan.ErrTruncated, "the document ends early", "", 7, 0},
	} {
		ms, err := readMembers([]byte(c.in), c.lax)
		var e *docscan.Error
		switch {
		case len(ms) != c.read:
			t.Errorf("%q lax %v: read %v", c.in, c.lax, ms)
		case c.err == nil && err != nil:
			t.Errorf("%q lax %v: %v", c.in, c.lax, err)
		case c.err == nil:
		case !errors.Is(err, c.err) || !errors.As(err, &e) || err.Error() != c.msg || e.Off != c.off ||
			string(e.Key) != c.key || e.KeyOff != c.koff:
			t.Errorf("%q lax %v: %v %+v", c.in, c.lax, err, e)
		}
	}
}

// TestElements reads nested arrays and objects, strict and lax.
func TestElements(t *testing.T) {
	const in = `[ {"id": 1, "parts": [ "a", [2] ]}, [], {"id": 3} ]`
	for _, lax := range []bool{false, true} {
		s := docscan.New([]byte(in))
		s.Lax = lax
		var got []string
		err := s.Elements(func(n int) error {
			if s.Look() != '{' {
				v, err := s.Value()
				got = append(got, fmt.Sprintf("%d:%s", n, v))
				return err
			}
			return s.Members(func(key []byte, _ int) error {
				if string(key) != `"parts"` {
					v, err := s.Value()
					got = append(got, fmt.Sprintf("%d%s:%s", n, key, v))
					return err
				}
				return s.Elements(func(k int) error {
					v, err := s.Value()
					got = append(got, fmt.Sprintf("%d/%d:%s", n, k, v))
					return err
				})
			})
		})
		want := []string{`0"id":1`, `0/0:"a"`, `0/1:[2]`, `1:[]`, `2"id":3`}
		if err != nil || !reflect.DeepEqual(got, want) || s.Pos() != len(in) {
			t.Errorf("lax %v: %v %q", lax, err, got)
		}
	}
}

// TestTruncatedElements cuts a nested walk at every byte: what is read is
// what the whole document gives up to the cut, then the document ends
// early.
func TestTruncatedElements(t *testing.T) {
	const in = `[{"parts":["a",{"b":"]"}]},[1,2]]`
	walk := func(b []byte) ([]string, error) {
		s := docscan.New(b)
		var got []string
		var elems func() error
		elems = func() error {
			return s.Elements(func(n int) error {
				switch s.Look() {
				case '[':
					return elems()
				case '{':
					return s.Members(func(key []byte, _ int) error {
						if s.Look() == '[' {
							return elems()
						}
						v, err := s.Value()
						if err == nil {
							got = append(got, string(key)+string(v))
						}
						return err
					})
				}
				v, err := s.Value()
				if err == nil {
					got = append(got, string(v))
				}
				return err
			})
		}
		return got, elems()
	}
	full, err := walk([]byte(in))
	if err != nil || len(full) != 4 {
		t.Fatalf("%q %v", full, err)
	}
	for cut := 0; cut < len(in); cut++ {
		got, err := walk([]byte(in[:cut]))
		if !errors.Is(err, docscan.ErrTruncated) || len(got) > len(full) || len(got) > 0 && !reflect.DeepEqual(got, full[:len(got)]) {
			t.Fatalf("cut at %d: %q %v", cut, got, err)
		}
	}
}

// TestLaxElements: commas are skipped; a stray '}' stops the array.
func TestLaxElements(t *testing.T) {
	for _, c := range []struct {
		in   string
		lax  bool
		want []string
		msg  string
	}{
		{`[,1,,2,]`, true, []string{"1", "2"}, ""},
		{`[1 2]`, true, []string{"1", "2"}, ""},
		{`[1,2,]`, false, []string{"1", "2", ""}, ""},
		{`[1 2]`, false, []string{"1"}, `'2' where ',' or ']' belongs (byte 3)`},
		{`[1,}]`, true, []string{"1"}, `'}' where a value or ']' belongs (byte 3)`},
		{`{"a":1]`, true, nil, `'{' where '[' belongs (byte 0)`},
		{`[1,}]`, false, []string{"1", ""}, `'}' where ',' or ']' belongs (byte 3)`},
		{`[1,`, true, []string{"1"}, "the document ends early"},
		{`{}`, true, nil, `'{' where '[' belongs (byte 0)`},
	} {
		s := docscan.New([]byte(c.in))
		s.Lax = c.lax
		var got []string
		err := s.Elements(func(int) error {
			v, err := s.Value()
			got = append(got, string(v))
			return err
		})
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if !reflect.DeepEqual(got, c.want) || msg != c.msg {
			t.Errorf("%q lax %v: %q %v", c.in, c.lax, got, err)
		}
	}
}

// TestStop: an error from fn ends the walk with that error.
func TestStop(t *testing.T) {
	stop := errors.New("stop")
	s := docscan.New([]byte(doc))
	n := 0
	err := s.Members(func([]byte, int) error {
		n++
		return stop
	})
	if err != stop || n != 1 {
		t.Errorf("%v after %d", err, n)
	}
}

func TestUnquote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"abc"`, "abc"},
		{`""`, ""},
		{`"a\"b\\c\/d"`, `a"b\c/d`},
		{`"\u00e9\n"`, "é\n"},
		{`"é"`, "é"},
	} {
		if got, err := docscan.Unquote([]byte(c.in)); got != c.want || err != nil {
			t.Errorf("%q: %q %v", c.in, got, err)
		}
	}
	for _, in := range []string{`"a\qb"`, `"abc`, `123`, `"a"b"`} {
		if got, err := docscan.Unquote([]byte(in)); err == nil {
			t.Errorf("%q: %q", in, got)
		}
	}
	// the decoder's text, whatever its view of control characters and bad
	// UTF-8
	for _, in := range []string{`"abc"`, `"\u00e9"`, "\"a\xffb\"", "\"a\x01b\"", "\"\xc3\"", `"a\qb"`, `null`} {
		got, err := docscan.Unquote([]byte(in))
		var dec string
		derr := agt.API.Unmarshal([]byte(in), &dec)
		if dec != got || (derr == nil) != (err == nil) {
			t.Errorf("%q: %q %v, decoder %q %v", in, got, err, dec, derr)
		}
	}
}

func TestPointer(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"abc", "abc"},
		{"a/b", "a~1b"},
		{"a~b", "a~0b"},
		{"~/~1", "~0~1~01"},
		{"", ""},
	} {
		if got := docscan.Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q", c.in, got)
		}
	}
	if got := docscan.Index("/"+docscan.Escape("a/b"), 12); got != "/a~1b/12" {
		t.Errorf("Index: %q", got)
	}
}

func BenchmarkValue(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"messages":[`)
	for i := 0; i < 2000; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"info":{"id":"msg_%d","role":"assistant"},"parts":[{"type":"text","text":"line one\nline \"two\" with a \\ and %s"}]}`, i, strings.Repeat("words ", 40))
	}
	sb.WriteString(`]}`)
	in := []byte(sb.String())
	b.SetBytes(int64(len(in)))
	for i := 0; i < b.N; i++ {
		if _, err := docscan.New(in).Value(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNoProgress: a lax walk whose fn reads nothing stops (rather than
// calling fn for ever).
func TestNoProgress(t *testing.T) {
	s := docscan.New([]byte(`[1]`))
	s.Lax = true
	n := 0
	err := s.Elements(func(int) error {
		n++
		return nil
	})
	if !errors.Is(err, docscan.ErrSyntax) || n != 1 {
		t.Errorf("%v after %d", err, n)
	}
}
