package agt

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckStrings(t *testing.T) {
	cases := map[string]bool{
		`{"a":"plain text that is long enough to use the word loop"}`:     true,
		`{"a":"esc \" \\ \/ \b \f \n \r \t \u00e9 end of a long string"}`: true,
		`{"a":"\x"}`:         false,
		`{"a":"\u12"}`:       false,
		`{"a":"\u12zz"}`:     false,
		"{\"a\":\"x\ty\"}":   false,
		"{\"a\":\"x\x01y\"}": false,
		"{\"a\":\n1}":        true,
		`{"a":"x"}` + "\t":   true,
		`{"k\u0041":"ends with backslash pair \\"}`: true,
	}
	for in, ok := range cases {
		if err := checkStrings([]byte(in)); (err == nil) != ok {
			t.Errorf("%q: %v, want ok=%v", in, err, ok)
		}
	}
}

func TestFitAbbrev(t *testing.T) {
	for _, c := range []struct {
		s         string
		n         int
		fit, abbr string
	}{
		{"abc", 3, "abc", "abc"},
		{"abcd", 3, "ab…", "abc…"},
		{"  ab cd ", 3, "  …", "ab…"},
		{"héllo wörld", 6, "héllo…", "héllo…"},
	} {
		if got := Fit(c.s, c.n); got != c.fit {
			t.Errorf("Fit(%q, %d) = %q, want %q", c.s, c.n, got, c.fit)
		}
		if got := Abbrev(c.s, c.n); got != c.abbr {
			t.Errorf("Abbrev(%q, %d) = %q, want %q", c.s, c.n, got, c.abbr)
		}
	}
}

// TestCheckStringsByteWise compares checkStrings, which scans 8 bytes at a
// time, with a byte-by-byte reading of the same rule over generated records
// whose escapes and control bytes fall at every place of a word.
func TestCheckStringsByteWise(t *testing.T) {
	alphabet := []byte{'\\', '"', 'u', 'n', '0', 'a', 'F', '\n', 0x01, ' ', '/', 'x'}
	rng := uint64(1)
	for n := 0; n < 200000; n++ {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		b := make([]byte, 1+rng%160) // past 64 bytes: whole blocks of scanEscapes
		r := rng
		for i := range b {
			if r < 16 {
				r = rng*0x9e3779b97f4a7c15 + uint64(i)
			}
			b[i] = alphabet[r%uint64(len(alphabet))]
			r /= uint64(len(alphabet))
		}
		if got, want := checkStrings(b) == nil, byteWise(b); got != want {
			t.Fatalf("%q: ok=%v, want %v", b, got, want)
		}
		if ctl, err := scanEscapes(b); !sameScan(b, ctl, err) {
			t.Fatalf("%q: scanEscapes %v %v, the search per escape %v", b, ctl, err, errText(scanEscapesGo(b)))
		}
	}
}

// FuzzScanEscapes: scanEscapes, which reads the backslashes of 64 bytes at
// a time on amd64, says what the search per escape says (the same error,
// to the byte), whatever the bytes.
func FuzzScanEscapes(f *testing.F) {
	for _, s := range []string{
		``, `\`, `"\u12G4"`, strings.Repeat(`a\n`, 40), strings.Repeat("x", 63) + `\u0041`, strings.Repeat("x", 62) + `\\\q`,
		strings.Repeat("x", 60) + `\u00e9` + strings.Repeat(`\"`, 30), strings.Repeat("y", 127) + "\x01" + `\`, strings.Repeat(`\\`, 64) + `\`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if ctl, err := scanEscapes(b); !sameScan(b, ctl, err) {
			t.Fatalf("%q: scanEscapes %v %v, the search per escape %v", b, ctl, err, errText(scanEscapesGo(b)))
		}
	})
}

// sameScan tells whether ctl and err are what scanEscapesGo gives for b.
func sameScan(b []byte, ctl bool, err error) bool {
	wctl, werr := scanEscapesGo(b)
	return errText(ctl, err) == errText(wctl, werr)
}

func errText(ctl bool, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprint(ctl)
}

// byteWise is checkStrings's rule read one byte at a time: every
// backslash starts an escape JSON allows; then, where a control byte is,
// none is inside a string (outside, it is white space between tokens).
func byteWise(b []byte) bool {
	ctl := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c < 0x20:
			ctl = true
		case c == '\\':
			if i+1 >= len(b) {
				return false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+5 >= len(b) || !hexDigit[b[i+2]] || !hexDigit[b[i+3]] || !hexDigit[b[i+4]] || !hexDigit[b[i+5]] {
					return false
				}
				i += 5
			default:
				return false
			}
		}
	}
	in := false
	for i := 0; ctl && i < len(b); i++ {
		switch c := b[i]; {
		case c == '\\' && in:
			i++
		case c == '"':
			in = !in
		case c < 0x20 && in:
			return false
		}
	}
	return true
}

// BenchmarkCheckStrings checks the lines of the corpus's Claude Code logs
// (skipped without the corpus beside the repository).
func BenchmarkCheckStrings(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "shared", "corpus", "claude", "*.jsonl"))
	var lines [][]byte
	size := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range bytes.Split(data, []byte("\n")) {
			lines, size = append(lines, l), size+len(l)
		}
	}
	if len(lines) == 0 {
		b.Skip("no corpus")
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, l := range lines {
			checkStrings(l)
		}
	}
}
