package agt

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Printable makes s one line that is safe to show on a terminal: control
// characters (C0, DEL, C1: escape sequences that clear the screen or write
// the clipboard, line ends), the bidirectional-text controls that reorder
// what is shown, and the line and paragraph separators become Go-style
// escapes (\n, \x1b, \u202e); invalid UTF-8 bytes become \xNN. Printable
// text, backslashes included, is left as it is: the result is for reading,
// not for parsing back.
func Printable(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case unsafeRune(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafeRune tells the runes Printable escapes.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidirectional-text controls
	case r == 0x2028, r == 0x2029:
		return true // line and paragraph separators
	}
	return false
}

func escapeRune(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	if r < 0x100 {
		return `\x` + hex2(byte(r))
	}
	return `\u` + strconv.FormatInt(int64(r), 16)
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// PathText makes a file name valid UTF-8 for src.path: each byte of an
// invalid sequence becomes the text \xNN, so that names stay apart (a name
// that holds the text \xNN itself is the one that can meet another).
// Control characters are kept: JSON escapes them, and Printable shows them.
func PathText(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	var b strings.Builder
	b.Grow(len(p) + 8)
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString(`\x`)
			b.WriteString(hex2(p[i]))
		} else {
			b.WriteString(p[i : i+n])
		}
		i += n
	}
	return b.String()
}
