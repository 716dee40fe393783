package canon

import "strings"

// A small POSIX shell lexer and parser, enough to tell what a command line
// runs. It refuses (ok = false) what it cannot see through: command and
// process substitution, subshells, background jobs, unbalanced quotes.

// simple is one command: its words and redirections.
type simple struct {
	args   []string
	redirs []redir
}

type redir struct{ op, target string }

// pipeline is commands joined by |; script is pipelines joined by && || ;
// and newlines.
type (
	pipeline []simple
	script   []pipeline
)

// token is a word (op == "") or an operator.
type token struct {
	word string
	op   string
}

func parseScript(s string) (script, bool) {
	toks, ok := lex(s)
	if !ok {
		return nil, false
	}
	var (
		sc  script
		p   pipeline
		cur simple
		any bool // cur has content
	)
	endCmd := func() bool {
		if !any {
			return false
		}
		p = append(p, cur)
		cur, any = simple{}, false
		return true
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.op {
		case "":
			cur.args = append(cur.args, t.word)
			any = true
		case "|":
			if !endCmd() {
				return nil, false
			}
		case "&&", "||", ";":
			had := endCmd()
			switch {
			case had:
				sc = append(sc, p)
				p = nil
			case len(p) > 0 || t.op != ";": // "a | && b", "&& b"
				return nil, false
			}
		case "&", "(", ")":
			return nil, false
		default: // a redirection: its target is the next word
			if i+1 >= len(toks) || toks[i+1].op != "" {
				return nil, false
			}
			cur.redirs = append(cur.redirs, redir{op: t.op, target: toks[i+1].word})
			i++
			any = true
		}
	}
	endCmd()
	if len(p) > 0 {
		sc = append(sc, p)
	}
	return sc, len(sc) > 0
}

// lex splits s into words and operators. Redirections to a descriptor
// (2>&1, >&2) are dropped: they write no file.
func lex(s string) ([]token, bool) {
	var (
		toks     = make([]token, 0, 16)
		heredocs []heredoc
		b        strings.Builder
		inWord   bool
	)
	flush := func() {
		if inWord {
			toks = append(toks, token{word: b.String()})
			b.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			flush()
			i++
		case c == '\n':
			flush()
			toks = append(toks, token{op: ";"})
			i++
			if len(heredocs) > 0 {
				i = skipHeredocs(s, i, heredocs)
				heredocs = nil
			}
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '\\':
			if i+1 < len(s) && s[i+1] == '\n' {
				i += 2 // line continuation
				continue
			}
			if i+1 < len(s) {
				b.WriteByte(s[i+1])
			}
			inWord = true
			i += 2
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			b.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 2
		case c == '"':
			j, ok := dquote(s, i+1, &b)
			if !ok {
				return nil, false
			}
			inWord = true
			i = j
		case c == '`':
			return nil, false
		case c == '$':
			if i+1 < len(s) && s[i+1] == '(' {
				return nil, false
			}
			if i+1 < len(s) && s[i+1] == '\'' { // $'…'
				j := strings.IndexByte(s[i+2:], '\'')
				if j < 0 {
					return nil, false
				}
				b.WriteString(s[i+2 : i+2+j])
				inWord = true
				i += j + 3
				continue
			}
			b.WriteByte(c)
			inWord = true
			i++
		case c == '|' || c == '&' || c == ';' || c == '(' || c == ')':
			flush()
			op, n := operator(s[i:])
			toks = append(toks, token{op: op})
			i += n
		case c == '<' || c == '>':
			if i+1 < len(s) && s[i+1] == '(' { // process substitution
				return nil, false
			}
			// a word of digits just before is the descriptor
			if inWord && isDigits(b.String()) {
				b.Reset()
				inWord = false
			}
			flush()
			op, n := redirOp(s[i:])
			i += n
			if op == ">&" || op == "<&" { // duplicate a descriptor: >&2, 2>&1, >&-
				for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
					i++
				}
				j := i
				for j < len(s) && (isDigit(s[j]) || s[j] == '-') {
					j++
				}
				if j == i {
					op = ">" // >& FILE is &> FILE
					toks = append(toks, token{op: op})
					continue
				}
				i = j
				continue
			}
			if op == "<<" || op == "<<-" {
				for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
					i++
				}
				var d strings.Builder
				j, ok := word(s, i, &d)
				if !ok || d.Len() == 0 {
					return nil, false
				}
				heredocs = append(heredocs, heredoc{delim: d.String(), tabs: op == "<<-"})
				toks = append(toks, token{op: "<<"}, token{word: d.String()})
				i = j
				continue
			}
			toks = append(toks, token{op: op})
		default: // a run of plain bytes
			j := i + 1
			for j < len(s) && plain[s[j]] {
				j++
			}
			if !inWord && (j == len(s) || ends[s[j]]) { // a whole word of s: no copy
				toks = append(toks, token{word: s[i:j]})
			} else {
				b.WriteString(s[i:j])
				inWord = true
			}
			i = j
		}
	}
	flush()
	return toks, true
}

// plain are the bytes that stand for themselves within a word; ends those
// that end a word by themselves (< and > do not: the word may be the
// descriptor of a redirection).
var plain, ends = func() (plain, ends [256]bool) {
	for c := range 256 {
		plain[c] = !strings.ContainsRune(" \t\r\n\\'\"`$|&;()<>", rune(c))
	}
	for _, c := range []byte(" \t\r\n|&;()") {
		ends[c] = true
	}
	return plain, ends
}()

type heredoc struct {
	delim string
	tabs  bool
}

// skipHeredocs skips the bodies of the here-documents opened on the line
// that ended at i.
func skipHeredocs(s string, i int, hs []heredoc) int {
	for _, h := range hs {
		for i < len(s) {
			j := strings.IndexByte(s[i:], '\n')
			line := s[i:]
			if j >= 0 {
				line = s[i : i+j]
			}
			if j < 0 {
				i = len(s)
			} else {
				i += j + 1
			}
			if h.tabs {
				line = strings.TrimLeft(line, "\t")
			}
			if line == h.delim {
				break
			}
		}
	}
	return i
}

// word reads one word (for a here-document delimiter) from s[i:].
func word(s string, i int, b *strings.Builder) (int, bool) {
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&' || c == '<' || c == '>' || c == '(' || c == ')':
			return i, true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return i, false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case c == '"':
			j, ok := dquote(s, i+1, b)
			if !ok {
				return i, false
			}
			i = j
		case c == '\\' && i+1 < len(s):
			b.WriteByte(s[i+1])
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return i, true
}

// dquote reads a double-quoted string from s[i:] (after the quote) into b
// and returns the index after the closing quote.
func dquote(s string, i int, b *strings.Builder) (int, bool) {
	for i < len(s) {
		c := s[i]
		switch c {
		case '"':
			return i + 1, true
		case '\\':
			if i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
				if s[i+1] != '\n' {
					b.WriteByte(s[i+1])
				}
				i += 2
				continue
			}
			b.WriteByte(c)
			i++
		case '`':
			return i, false
		case '$':
			if i+1 < len(s) && s[i+1] == '(' {
				return i, false
			}
			b.WriteByte(c)
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return i, false
}

func operator(s string) (string, int) {
	for _, op := range []string{"&&", "||", "&>>", "&>", "|&", ";;", "|", "&", ";", "(", ")"} {
		if strings.HasPrefix(s, op) {
			switch op {
			case "|&":
				return "|", 2
			case ";;":
				return "(", 2 // case syntax: refuse
			}
			return op, len(op)
		}
	}
	return s[:1], 1
}

func redirOp(s string) (string, int) {
	for _, op := range []string{"<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">"} {
		if strings.HasPrefix(s, op) {
			if op == "<<<" {
				return "<<<", 3
			}
			return op, len(op)
		}
	}
	return s[:1], 1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
