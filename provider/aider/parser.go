package aider

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
)

// Block kinds.
const (
	none = iota
	user
	reply
	status
)

// parser reads a history file line by line, holding the current block.
type parser struct {
	kind    int
	first   agt.Src // the block's first line
	raw     agt.Raw
	lines   []string
	fence   bool  // inside a code fence of a reply
	last    int64 // the number of the last line read (blank lines are not read)
	model   string
	lastOut string // the id of the last reply, for its usage
}

// line is one line of the file.
type line struct {
	text string // without the line end and Aider's two-space break
}

// Decode takes the line as text.
func (p *parser) Decode(rec []byte) (any, error) {
	s := strings.TrimRight(string(rec), "\r\n")
	return &line{text: strings.TrimSuffix(s, "  ")}, nil
}

// Apply adds a line to its block, ending the block before it when the line
// starts another.
func (p *parser) Apply(em *agt.Emitter, v any) {
	l, ok := v.(*line)
	if !ok {
		return
	}
	if em.Current() == "" {
		em.Session(em.Fallback())
	}
	t := l.text
	n := em.Src().Line
	blank := int64(0) // blank lines before this one
	if p.last > 0 && n > p.last+1 {
		blank = n - p.last - 1
	}
	p.last = n
	if blank > 0 {
		if p.kind == reply {
			for ; blank > 0; blank-- {
				p.lines = append(p.lines, "")
			}
		} else {
			p.flush(em)
		}
	}
	if p.kind == reply && p.fence && !ownLine(t) {
		p.add(em, reply, t)
		if strings.HasPrefix(strings.TrimSpace(t), "```") {
			p.fence = false
		}
		return
	}
	switch {
	case header.MatchString(strings.TrimRight(t, " ")):
		p.flush(em)
		start := header.FindStringSubmatch(strings.TrimRight(t, " "))[1]
		ts := ""
		if tm, err := time.Parse("2006-01-02 15:04:05", start); err == nil {
			ts = agt.FormatTime(tm)
		}
		em.Session(em.Fallback() + "@" + strings.Replace(start, " ", "T", 1))
		p.model, p.lastOut = "", ""
		em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: &agt.Meta{Type: "run_started"}}, "", "header")
	case strings.HasPrefix(t, "#### "):
		p.add(em, user, strings.TrimPrefix(t, "#### "))
	case t == ">" || strings.HasPrefix(t, "> "):
		p.add(em, status, strings.TrimPrefix(strings.TrimPrefix(t, ">"), " "))
		p.fact(em, strings.TrimPrefix(strings.TrimPrefix(t, ">"), " "))
	case strings.TrimSpace(t) == "":
		if p.kind == reply {
			p.lines = append(p.lines, "")
		} else {
			p.flush(em)
		}
	case n == 1 && modeLine.MatchString(strings.TrimSpace(t)):
		em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "mode_line"}}, "", "mode")
	case p.kind == status:
		p.lines = append(p.lines, t) // the rest of a multi-line status
	default:
		p.add(em, reply, t)
		if strings.HasPrefix(strings.TrimSpace(t), "```") {
			p.fence = true
		}
	}
}

// ownLine tells whether a line is one that only Aider itself writes (a run
// header, a user line, a token report), which ends a reply whatever its
// code fences say: models open fences they never close.
func ownLine(t string) bool {
	return strings.HasPrefix(t, "#### ") || strings.HasPrefix(t, "> Tokens: ") ||
		header.MatchString(strings.TrimRight(t, " "))
}

// add puts text in a block of kind k, starting it at the current line when
// the current block is of another kind.
func (p *parser) add(em *agt.Emitter, k int, text string) {
	if p.kind != k {
		p.flush(em)
		p.kind, p.first, p.raw = k, em.Src(), em.Line()
	}
	p.lines = append(p.lines, text)
}

// Finish emits the last block.
func (p *parser) Finish(em *agt.Emitter) { p.flush(em) }

// flush emits the current block as one event at its first line.
func (p *parser) flush(em *agt.Emitter) {
	if p.kind == none {
		return
	}
	text := strings.Trim(strings.Join(p.lines, "\n"), "\n")
	src, raw := em.Src(), em.Line()
	em.SetSrc(p.first, p.raw)
	switch p.kind {
	case user:
		kind := agt.KindUser
		if strings.HasPrefix(text, "/") {
			kind = agt.KindSlashCommand
		}
		em.Emit(agt.Event{Kind: kind, Text: agt.String(text)}, "", "user")
	case reply:
		p.lastOut = em.Emit(agt.Event{Kind: agt.KindAssistant, Model: p.model, Text: agt.String(text)}, "", "reply")
	case status:
		em.Emit(agt.Event{Kind: agt.KindSystem, Text: agt.String(text), Meta: &agt.Meta{Type: "status"}}, "", "status")
	}
	em.SetSrc(src, raw)
	p.kind, p.lines, p.fence = none, nil, false
}

var (
	versionLine = regexp.MustCompile(`^Aider v(\S+)`)
	modelLine   = regexp.MustCompile(`^(?:Main model|Models?): (\S+)`)
	tokensLine  = regexp.MustCompile(`^Tokens: (.*?)(?:\.? Cost: (.*))?$`)
	countPart   = regexp.MustCompile(`^([\d.,]+)(k?) (sent|received|cache write|cache hit)$`)
	costPart    = regexp.MustCompile(`\$([\d.]+) (?:request|message)`)
)

// fact emits the meta or usage event of a status line that states one.
func (p *parser) fact(em *agt.Emitter, s string) {
	switch {
	case versionLine.MatchString(s):
		em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "banner", Version: versionLine.FindStringSubmatch(s)[1]}}, "", "version")
	case modelLine.MatchString(s):
		p.model = modelLine.FindStringSubmatch(s)[1]
		em.Emit(agt.Event{Kind: agt.KindMeta, Model: p.model, Meta: &agt.Meta{Type: "model"}}, "", "model")
	case tokensLine.MatchString(s):
		m := tokensLine.FindStringSubmatch(s)
		u := &agt.Usage{Scope: agt.ScopeCall}
		for _, part := range strings.Split(strings.TrimSuffix(m[1], "."), ", ") {
			c := countPart.FindStringSubmatch(strings.TrimSpace(part))
			if c == nil {
				continue
			}
			n := count(c[1], c[2])
			switch c[3] {
			case "sent":
				u.Input = n
			case "received":
				u.Output = n
			case "cache write":
				u.CacheWrite = n
			case "cache hit":
				u.CacheRead = n
			}
		}
		if c := costPart.FindStringSubmatch(m[2]); c != nil {
			if f, err := strconv.ParseFloat(c[1], 64); err == nil {
				u.NativeCostUSD = &f
			}
		}
		u.Sum()
		em.Emit(agt.Event{Kind: agt.KindUsage, Model: p.model, Usage: u}, "", "usage")
	}
}

// count reads "5,244", "389", "2.4k" or "12k".
func count(num, k string) int64 {
	f, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
	if err != nil {
		return 0
	}
	if k == "k" {
		f *= 1000
	}
	return int64(f + 0.5)
}
