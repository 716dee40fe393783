package html

import (
	"html/template"
	"strings"
)

// Markdown renders the Markdown of an agent's or a user's text as HTML:
// ATX headings, lists, block quotes, rules, fenced code (a monospaced
// block with a language-* class, no highlighting), paragraphs, and inline
// code, emphasis and links. Every character of s is escaped; no tag, no
// attribute and no URL of s reaches the page: a link is a link only when
// its address is http, https or mailto, else its text and address are
// shown as text. s must be clean (clean).
func Markdown(s string) template.HTML {
	var b strings.Builder
	markdownTo(&b, s)
	return template.HTML(b.String())
}

// markdownTo writes the Markdown of s to b.
func markdownTo(b *strings.Builder, s string) {
	b.Grow(len(s) + len(s)/8)
	md{b: b}.blocks(strings.Split(strings.TrimRight(s, "\n"), "\n"))
}

// md renders into b; depth is how deep in quotes and lists it is.
type md struct {
	b     *strings.Builder
	depth int
}

// maxDepth is the deepest quote or list rendered as one: deeper, the
// lines are text (a log of "> > > …" would cost time in the square of
// its length).
const maxDepth = 8

// window is how far a span's end (a code span's, a link's) is looked
// for: past it, the opening is text.
const window = 2048

// within is s cut to window bytes.
func within(s string) string { return s[:min(len(s), window)] }

// blocks renders lines as blocks.
func (m md) blocks(ls []string) {
	for i := 0; i < len(ls); {
		l := ls[i]
		t := strings.TrimLeft(l, " ")
		indent := len(l) - len(t)
		switch {
		case strings.TrimSpace(l) == "":
			i++
		case indent < 4 && fence(t) != "":
			i = m.code(ls, i, indent, fence(t))
		case indent < 4 && heading(t) > 0:
			n := heading(t)
			tag := "h" + string(rune('2'+min(n, 5)-1)) // # is the page's h2 level at most
			m.b.WriteString("<" + tag + ">")
			m.inline(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[n:]), "#")))
			m.b.WriteString("</" + tag + ">\n")
			i++
		case indent < 4 && rule(t):
			m.b.WriteString("<hr>\n")
			i++
		case indent < 4 && strings.HasPrefix(t, ">") && m.depth < maxDepth:
			j := i
			var q []string
			for ; j < len(ls) && strings.HasPrefix(strings.TrimLeft(ls[j], " "), ">"); j++ {
				s := strings.TrimPrefix(strings.TrimLeft(ls[j], " "), ">")
				q = append(q, strings.TrimPrefix(s, " "))
			}
			m.b.WriteString("<blockquote>\n")
			md{m.b, m.depth + 1}.blocks(q)
			m.b.WriteString("</blockquote>\n")
			i = j
		case indent < 4 && item(t) != "" && m.depth < maxDepth:
			i = m.list(ls, i)
		default:
			j := i + 1
			for j < len(ls) && !breaks(ls[j]) {
				j++
			}
			m.b.WriteString("<p>")
			for k := i; k < j; k++ {
				if k > i {
					m.b.WriteString("<br>\n")
				}
				m.inline(strings.TrimSpace(ls[k]))
			}
			m.b.WriteString("</p>\n")
			i = j
		}
	}
}

// breaks tells whether a line ends a paragraph.
func breaks(l string) bool {
	t := strings.TrimLeft(l, " ")
	if strings.TrimSpace(l) == "" || len(l)-len(t) >= 4 {
		return strings.TrimSpace(l) == ""
	}
	return fence(t) != "" || heading(t) > 0 || rule(t) || strings.HasPrefix(t, ">") || item(t) != ""
}

// fence is the fence a line opens (``` or ~~~ and more), or "".
func fence(t string) string {
	for _, c := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, c) {
			n := len(t) - len(strings.TrimLeft(t, c[:1]))
			f := t[:n]
			if c[0] == '`' && strings.Contains(t[n:], "`") {
				return ""
			}
			return f
		}
	}
	return ""
}

// code renders the fenced block opened at ls[i]; it returns the line after it.
func (m md) code(ls []string, i, indent int, f string) int {
	info := strings.TrimSpace(strings.TrimLeft(strings.TrimLeft(ls[i], " "), f[:1]))
	lang, _, _ := strings.Cut(info, " ")
	m.b.WriteString("<pre class=\"code\"><code")
	if lang != "" {
		m.b.WriteString(" class=\"language-")
		m.b.WriteString(classSafe(lang))
		m.b.WriteString("\"")
	}
	m.b.WriteString(">")
	j := i + 1
	for ; j < len(ls); j++ {
		t := strings.TrimLeft(ls[j], " ")
		if strings.HasPrefix(t, f) && strings.TrimSpace(strings.TrimLeft(t, f[:1])) == "" {
			break
		}
		l := ls[j]
		for k := 0; k < indent && strings.HasPrefix(l, " "); k++ {
			l = l[1:]
		}
		escape(m.b, l)
		m.b.WriteString("\n")
	}
	m.b.WriteString("</code></pre>\n")
	return j + 1
}

// classSafe is s with everything but letters, digits, - + _ # dropped.
func classSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '+' || r == '#' {
			return r
		}
		return -1
	}, s)
}

// heading is the level of an ATX heading line, or 0.
func heading(t string) int {
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n == 0 || n > 6 || n < len(t) && t[n] != ' ' {
		return 0
	}
	return n
}

// rule tells whether a line is a thematic break.
func rule(t string) bool {
	if t == "" || t[0] != '-' && t[0] != '*' && t[0] != '_' {
		return false
	}
	t = strings.ReplaceAll(strings.TrimSpace(t), " ", "")
	if len(t) < 3 {
		return false
	}
	return strings.Count(t, t[:1]) == len(t) && strings.Contains("-*_", t[:1])
}

// item is the marker of a list item line ("-", "*", "+", or "1." and the
// like), or "".
func item(t string) string {
	if len(t) >= 2 && strings.Contains("-*+", t[:1]) && t[1] == ' ' {
		return t[:1]
	}
	n := 0
	for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(t) && (t[n] == '.' || t[n] == ')') && t[n+1] == ' ' {
		return t[:n+1]
	}
	return ""
}

// list renders the list that starts at ls[i]; it returns the line after it.
func (m md) list(ls []string, i int) int {
	first := item(strings.TrimLeft(ls[i], " "))
	base := len(ls[i]) - len(strings.TrimLeft(ls[i], " "))
	ordered := first[0] >= '0' && first[0] <= '9'
	tag := "ul"
	if ordered {
		tag = "ol"
	}
	m.b.WriteString("<" + tag + ">\n")
	j := i
	for j < len(ls) {
		t := strings.TrimLeft(ls[j], " ")
		mk := item(t)
		if mk == "" || len(ls[j])-len(t) != base || (mk[0] >= '0' && mk[0] <= '9') != ordered {
			break
		}
		body := []string{t[len(mk)+1:]}
		k := j + 1
		for k < len(ls) {
			l := ls[k]
			if strings.TrimSpace(l) == "" {
				// a blank line goes on the item only when an indented line follows
				if k+1 < len(ls) && indentOf(ls[k+1]) > base && strings.TrimSpace(ls[k+1]) != "" {
					body = append(body, "")
					k++
					continue
				}
				break
			}
			if indentOf(l) > base {
				body = append(body, strings.TrimPrefix(l, strings.Repeat(" ", min(indentOf(l), base+len(mk)+1))))
				k++
				continue
			}
			if breaks(l) {
				break
			}
			body = append(body, l) // a lazy continuation
			k++
		}
		m.b.WriteString("<li>")
		if len(body) == 1 {
			m.inline(strings.TrimSpace(body[0]))
		} else {
			md{m.b, m.depth + 1}.blocks(body)
		}
		m.b.WriteString("</li>\n")
		j = k
		for j < len(ls) && strings.TrimSpace(ls[j]) == "" && j+1 < len(ls) && item(strings.TrimLeft(ls[j+1], " ")) != "" && indentOf(ls[j+1]) == base {
			j++
		}
	}
	m.b.WriteString("</" + tag + ">\n")
	return j
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// inline renders a line's inline Markdown: `code`, **strong**, *em* and
// wrap writes s, read as inline Markdown, inside an HTML element tag.
func (m md) wrap(tag, s string) {
	m.b.WriteString("<" + tag + ">")
	m.inline(s)
	m.b.WriteString("</" + tag + ">")
}

// _em_, [text](address).
func (m md) inline(s string) {
	for len(s) > 0 {
		i := strings.IndexAny(s, "`*_[")
		if i < 0 {
			escape(m.b, s)
			return
		}
		escape(m.b, s[:i])
		s = s[i:]
		switch s[0] {
		case '`':
			n := len(s) - len(strings.TrimLeft(s, "`"))
			if end := strings.Index(within(s[n:]), s[:n]); end >= 0 {
				m.b.WriteString("<code>")
				escape(m.b, strings.TrimSpace(s[n:n+end]))
				m.b.WriteString("</code>")
				s = s[n+end+n:]
				continue
			}
			escape(m.b, s[:n])
			s = s[n:]
		case '*', '_':
			d := s[:1]
			if strings.HasPrefix(s, d+d) {
				if end := strings.Index(s[2:], d+d); end > 0 {
					m.wrap("strong", s[2:2+end])
					s = s[2+end+2:]
					continue
				}
				escape(m.b, s[:2])
				s = s[2:]
				continue
			}
			if end := strings.Index(s[1:], d); end > 0 && s[1] != ' ' && s[end] != ' ' && (d == "*" || wordEnd(s, end+2)) {
				m.wrap("em", s[1:1+end])
				s = s[1+end+1:]
				continue
			}
			escape(m.b, s[:1])
			s = s[1:]
		case '[':
			text, rest, ok := strings.Cut(within(s[1:]), "](")
			if ok {
				rest = s[1+len(text)+2:]
			}
			addr, _, ok2 := strings.Cut(within(rest), ")")
			after := rest[min(len(rest), len(addr)+1):]
			if ok && ok2 && !strings.Contains(text, "]") && !strings.ContainsAny(addr, " <>\"'") {
				if safeURL(addr) {
					m.b.WriteString("<a href=\"")
					escape(m.b, addr)
					m.b.WriteString("\" rel=\"noopener noreferrer nofollow\">")
					m.inline(text)
					m.b.WriteString("</a>")
				} else {
					m.inline(text)
					m.b.WriteString(" (")
					escape(m.b, addr)
					m.b.WriteString(")")
				}
				s = after
				continue
			}
			escape(m.b, s[:1])
			s = s[1:]
		}
	}
}

// wordEnd tells whether s[i] ends a word (an _ inside snake_case is no
// emphasis).
func wordEnd(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	c := s[i]
	return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
}

// safeURL tells whether a link's address may be an href: http, https or
// mailto, and nothing that a browser would read as another scheme.
func safeURL(u string) bool {
	l := strings.ToLower(u)
	return (strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "mailto:")) &&
		!strings.ContainsFunc(u, func(r rune) bool { return r < 0x21 || r == 0x7f || r == '\\' })
}

// escape writes s with & < > " ' escaped.
func escape(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		r := escapes[s[i]]
		if r == "" {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(r)
		last = i + 1
	}
	b.WriteString(s[last:])
}

// escapes are the escapes of the bytes that have one.
var escapes = [256]string{'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&#34;", '\'': "&#39;"}
