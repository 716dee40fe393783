package agt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzPrintable: whatever the text, Printable gives valid UTF-8 with no
// rune a terminal acts on, and leaves printable text as it is; PathText
// gives valid UTF-8 and changes only names that are not.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"plain", "a\nb\x1b[2J", "\x1b]52;c;aGk=\x07", "\u009b\u202e\u2066", "bad\xff\xc3", "ünï ✓ \\x41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := Printable(s)
		if !utf8.ValidString(p) {
			t.Fatalf("Printable(%q) = %q: not UTF-8", s, p)
		}
		for _, r := range p {
			if unsafeRune(r) {
				t.Fatalf("Printable(%q) = %q holds %U", s, p, r)
			}
		}
		if safe := utf8.ValidString(s) && strings.IndexFunc(s, unsafeRune) < 0; safe != (p == s) {
			t.Fatalf("Printable(%q) = %q", s, p)
		}
		q := PathText(s)
		if !utf8.ValidString(q) || (utf8.ValidString(s) != (q == s)) {
			t.Fatalf("PathText(%q) = %q", s, q)
		}
	})
}
