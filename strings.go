package agt

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// hexDigit tells hexadecimal digits apart.
var hexDigit = [256]bool{
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true,
	'A': true, 'B': true, 'C': true, 'D': true, 'E': true, 'F': true,
}

// escape tells the bytes that may follow a backslash in a JSON string: 1
// for a one-letter escape, 'u' for \\uXXXX.
var escape = [256]byte{'"': 1, '\\': 1, '/': 1, 'b': 1, 'f': 1, 'n': 1, 'r': 1, 't': 1, 'u': 'u'}

// checkStrings reports the first string content JSON does not allow in a
// record whose structure is valid: a control character, or an escape other
// than \" \\ \/ \b \f \n \r \t \uXXXX, with where it is. (The decoder does not
// check every string it skips; found by fuzzing.) In valid structure every
// backslash is in a string; a control character may be white space between
// tokens, which the slow path tells apart.
func checkStrings(b []byte) error {
	ctl, err := scanEscapes(b)
	if err != nil || !ctl {
		return err
	}
	in := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\\' && in:
			i++
		case c == '"':
			in = !in
		case c < 0x20 && in:
			return fmt.Errorf("not JSON (control character %#02x in a string at byte %d)", c, i)
		}
	}
	return nil
}

// escapeAt reads the escape that opens at b[i], a backslash: its length,
// or why JSON does not allow it.
func escapeAt(b []byte, i int) (int, error) {
	if i+1 >= len(b) {
		return 0, fmt.Errorf("not JSON (a string ends in a backslash)")
	}
	switch escape[b[i+1]] {
	case 1:
		return 2, nil
	case 'u':
		if i+5 >= len(b) || !hexDigit[b[i+2]] || !hexDigit[b[i+3]] || !hexDigit[b[i+4]] || !hexDigit[b[i+5]] {
			return 0, fmt.Errorf("not JSON (bad \\u escape at byte %d)", i)
		}
		return 6, nil
	}
	return 0, fmt.Errorf("not JSON (bad escape \\%c at byte %d)", b[i+1], i)
}

const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// hasControl reports whether b holds a byte below 0x20, 8 bytes at a time.
func hasControl(b []byte) bool {
	i := 0
	for ; i+32 <= len(b); i += 32 {
		w0 := binary.LittleEndian.Uint64(b[i:])
		w1 := binary.LittleEndian.Uint64(b[i+8:])
		w2 := binary.LittleEndian.Uint64(b[i+16:])
		w3 := binary.LittleEndian.Uint64(b[i+24:])
		if ((w0-lows*0x20)&^w0|(w1-lows*0x20)&^w1|(w2-lows*0x20)&^w2|(w3-lows*0x20)&^w3)&highs != 0 {
			return true
		}
	}
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if (w-lows*0x20)&^w&highs != 0 {
			return true
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return true
		}
	}
	return false
}

// ValidUTF8 returns b, or a copy with invalid UTF-8 replaced by U+FFFD and
// true.
func ValidUTF8(b []byte) ([]byte, bool) {
	if utf8.Valid(b) {
		return b, false
	}
	return []byte(string(bytesToValid(b))), true
}

func bytesToValid(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}

// Fit is s cut to n runes, the last one "…", when it is longer (a column
// of a terminal line).
func Fit(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Abbrev is s without the white space around it, cut after n runes (white
// space before the cut dropped) and marked "…" when it is longer (a
// prompt named in a turn or a report row).
func Abbrev(s string, n int) string {
	s = strings.TrimSpace(s)
	i := 0
	for j := range s {
		if i == n {
			return strings.TrimSpace(s[:j]) + "…"
		}
		i++
	}
	return s
}
