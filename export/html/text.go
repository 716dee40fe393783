package html

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxText is the most of one text (a message, a tool's input or result)
// a page shows; the rest is cut, with its size said.
const maxText = 64 << 10

// clean is s as a page shows it: valid UTF-8, each control character but
// tab and newline shown as its Unicode control picture (␛ for ESC, ␀ for
// NUL), so that nothing a log holds is hidden or breaks the page.
func clean(s string) string {
	if !needsClean(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r == '\r':
			// a CRLF line end is a line end; a lone CR is shown
			b.WriteRune('\u240D')
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('\u2421')
		case r >= 0x80 && r < 0xa0:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return strings.ReplaceAll(b.String(), "\u240D\n", "\n")
}

// needsClean tells whether s holds a control character or invalid UTF-8,
// in one pass.
func needsClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r < 0xa0 {
			return true
		}
		i += n
	}
	return false
}

// cut is s cut to maxText bytes (at a rune boundary), and the note that
// says so ("" when s is whole).
func cut(s string) (string, string) {
	if len(s) <= maxText {
		return s, ""
	}
	n := maxText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], "cut: " + size(int64(len(s))) + ", the first " + size(int64(n)) + " shown"
}

// size is a number of bytes for people.
func size(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1000_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + " KB"
	default:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	}
}

// lines is the number of lines of s.
func lines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// count is n with thousands separated by a thin space.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u202F")
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// dollars is a cost in US dollars.
func dollars(c float64) string {
	switch {
	case c == 0:
		return "$0"
	case c < 0.01:
		return "$" + strconv.FormatFloat(c, 'f', 4, 64)
	default:
		return "$" + strconv.FormatFloat(c, 'f', 2, 64)
	}
}
