// Package html writes a consolidated transcript as one self-contained
// HTML page (agt-transcript --format html), and the index page of an
// output folder's pages. A page asks for nothing outside itself: its style
// is inline, allowed by its hash in a Content-Security-Policy that forbids
// every other source, and the session page has no script; the index's one
// script (sort and filter) is allowed by its hash. Every text of a log is
// escaped: by html/template in the page's head and header, and by escape
// in the conversation, the rendered Markdown, diffs and blocks, which are
// written here (through the template, its reflection cost as much as the
// rest of the page); control characters are shown as their Unicode
// pictures. Folding is <details>, so the pages work with
// JavaScript off.
package html

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/transcript"
)

// Ext is the ending of a session's page beside its transcript.
const Ext = ".html"

var (
	//go:embed page.tmpl
	pageTmpl string
	//go:embed style.css
	style string
	//go:embed index.js
	indexJS string
	//go:embed index.tmpl
	indexTmpl string
)

// hash is the CSP source of an inline element's content.
func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}

// csp is the Content-Security-Policy of a page: nothing from anywhere,
// but the page's own style and script, by their hashes.
func csp(script string) string {
	p := "default-src 'none'; style-src " + hash(style) + "; img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'; script-src "
	if script == "" {
		return p + "'none'"
	}
	return p + hash(script)
}

var funcs = template.FuncMap{
	"count":   count,
	"dollars": dollars,
	"date":    date,
	"base":    base,
}

// base is the last element of a folder's path (either separator).
func base(p string) string {
	p = strings.TrimRight(p, "/\\")
	if i := strings.LastIndexAny(p, "/\\"); i >= 0 {
		return p[i+1:]
	}
	return p
}

// date is an RFC 3339 time's date and minute, as the log wrote it.
func date(ts string) string {
	if len(ts) >= 16 && ts[10] == 'T' {
		return ts[:10] + " " + ts[11:16]
	}
	return clean(ts)
}

var page = template.Must(template.New("page").Funcs(funcs).Parse(pageTmpl))

// foldLines and foldBytes: a result longer than either is folded.
const (
	foldLines = 12
	foldBytes = 1500
)

// view is what the page template shows of a session.
type view struct {
	CSP      string
	Style    template.CSS
	Row      template.HTML // the index row, in a comment
	Title    string
	Agent    string
	T        *transcript.Transcript
	Models   string
	Duration string
	Started  string
	Tokens   usageView
	Cost     string
	Native   string
	body     string // the conversation, and the subagents no shown call started (HTML)
}

type usageView struct {
	Line          template.HTML // the tokens: numbers and words of agt's, no text of the log
	Cost, Running string
}

// Write writes t as one HTML page.
func Write(w io.Writer, t *transcript.Transcript) error {
	v := build(t)
	// the conversation is written as it is: through the template it
	// would be copied once more
	if err := page.ExecuteTemplate(w, "head", v); err != nil {
		return err
	}
	if _, err := io.WriteString(w, v.body); err != nil {
		return err
	}
	return page.ExecuteTemplate(w, "foot", v)
}

func build(t *transcript.Transcript) *view {
	row := RowOf(t, "")
	rj, _ := json.Marshal(row) // < > & escaped: no "-->" in the comment
	v := &view{
		CSP:    csp(""),
		Style:  template.CSS(style),
		Row:    template.HTML("<!-- agt-row " + string(rj) + " -->"),
		Title:  row.Title,
		Agent:  clean(export.Agent(t.Provider)),
		T:      header(t),
		Models: clean(strings.Join(t.Models, ", ")),
	}
	if v.Models == "" {
		v.Models = clean(t.Model)
	}
	if t.DurationMS != nil {
		v.Duration = (time.Duration(*t.DurationMS) * time.Millisecond).Round(time.Second).String()
	}
	v.Started = when(t.StartedAt)
	v.Tokens = usageOf(&t.Usage)
	if t.CostUSD != nil {
		v.Cost = dollars(*t.CostUSD)
	}
	if t.NativeCostUSD != nil {
		v.Native = dollars(*t.NativeCostUSD)
	}
	r := &renderer{t: t, subs: map[string][]int{}, shown: map[int]bool{}}
	calls := map[string]bool{}
	eachCall(t.Messages, func(c *transcript.ToolCall) { calls[c.ID] = true })
	for i := range t.Subagents {
		s := &t.Subagents[i]
		eachCall(s.Messages, func(c *transcript.ToolCall) { calls[c.ID] = true })
	}
	for i := range t.Subagents {
		s := &t.Subagents[i]
		if s.ToolCallID != "" && calls[s.ToolCallID] {
			r.subs[s.ToolCallID] = append(r.subs[s.ToolCallID], i)
		}
	}
	var b strings.Builder
	b.Grow(estimate(t))
	r.conv(&b, t.Messages)
	first := true
	for i := range t.Subagents {
		if !r.shown[i] {
			if first {
				b.WriteString("<h2>Other conversations</h2>\n")
				first = false
			}
			s := &t.Subagents[i]
			b.WriteString(`<section class="sub"><h3>`)
			escape(&b, clean(s.Stream))
			if s.Model != "" {
				b.WriteString(" · ")
				escape(&b, clean(s.Model))
			}
			b.WriteString("</h3>")
			r.sub(&b, i)
			b.WriteString("</section>\n")
		}
	}
	v.body = b.String()
	return v
}

// estimate is about the size of t's conversation as a page (its texts,
// inputs and results, and the markup around them), so that the page is
// not copied as it grows.
func estimate(t *transcript.Transcript) int {
	n := 0
	add := func(ms []transcript.Message) {
		for i := range ms {
			m := &ms[i]
			n += 400 + len(m.Text) + len(m.Reasoning)
			for j := range m.ToolCalls {
				c := &m.ToolCalls[j]
				n += 600 + min(len(c.Input), maxText) + min(len(c.Output), maxText)
			}
		}
	}
	add(t.Messages)
	for i := range t.Subagents {
		add(t.Subagents[i].Messages)
	}
	return n + n/8
}

// renderer renders a session's conversations, each subagent once: under
// the call that started it, where that call is shown, else apart.
type renderer struct {
	t     *transcript.Transcript
	subs  map[string][]int // tool call id → the subagents it started
	shown map[int]bool     // subagents rendered
}

func (r *renderer) sub(b *strings.Builder, i int) {
	r.shown[i] = true
	r.conv(b, r.t.Subagents[i].Messages)
}

// header is t's header fields, clean (its conversations are left out:
// the page shows them from t).
func header(t *transcript.Transcript) *transcript.Transcript {
	h := &transcript.Transcript{Session: clean(t.Session), NativeSession: clean(t.NativeSession), Version: clean(t.Version),
		Cwd: clean(t.Cwd), GitBranch: clean(t.GitBranch), Counts: t.Counts, Outcome: cleanOutcome(t.Outcome)}
	return h
}

func cleanOutcome(o transcript.Outcome) transcript.Outcome {
	o.Status, o.Reason = clean(o.Status), clean(o.Reason)
	return o
}

func eachCall(ms []transcript.Message, f func(*transcript.ToolCall)) {
	for i := range ms {
		for j := range ms[i].ToolCalls {
			f(&ms[i].ToolCalls[j])
		}
	}
}

// when is an RFC 3339 time as people read it, in UTC.
func when(ts string) string {
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		return t.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return clean(ts)
}

func usageOf(u *agt.Usage) usageView {
	var b strings.Builder
	b.WriteString(count(u.Total))
	b.WriteString(` <span class="muted">(in `)
	b.WriteString(count(u.Input))
	b.WriteString(" · cache read ")
	b.WriteString(count(u.CacheRead))
	b.WriteString(" · cache write ")
	b.WriteString(count(u.CacheWrite))
	b.WriteString(" · out ")
	b.WriteString(count(u.Output))
	if u.Reasoning != 0 {
		b.WriteString(" incl. reasoning ")
		b.WriteString(count(u.Reasoning))
	}
	b.WriteString(")</span>")
	v := usageView{Line: template.HTML(b.String())}
	if u.CostUSD != nil {
		v.Cost = dollars(*u.CostUSD)
	}
	return v
}

// Output is a tool result as text: a string's, the text parts of a list
// of content parts one after another (any other part as its JSON), any
// other value as its JSON.
func Output(raw agt.Raw) string {
	if raw.IsNull() {
		return ""
	}
	if raw[0] == '[' {
		// most results are text parts: one decoding reads them
		var texts []struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if agt.API.Unmarshal(raw, &texts) == nil && !slices.ContainsFunc(texts, func(p struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}) bool {
			return p.Text == nil || p.Type != "text" && p.Type != ""
		}) {
			var b strings.Builder
			for _, p := range texts {
				b.WriteString(*p.Text)
				if !strings.HasSuffix(*p.Text, "\n") {
					b.WriteString("\n")
				}
			}
			return b.String()
		}
		var parts []json.RawMessage
		if agt.API.Unmarshal(raw, &parts) == nil {
			var b strings.Builder
			for _, p := range parts {
				var part struct {
					Type string  `json:"type"`
					Text *string `json:"text"`
				}
				if agt.API.Unmarshal(p, &part) == nil && part.Text != nil && (part.Type == "text" || part.Type == "") {
					b.WriteString(*part.Text)
				} else {
					b.Write(p)
				}
				if !strings.HasSuffix(b.String(), "\n") {
					b.WriteString("\n")
				}
			}
			return b.String()
		}
	}
	return export.Text(raw)
}

// ErrSecondSession is the error of a second session written to one page.
var ErrSecondSession = errors.New("--format html writes one session per page and the input holds more than one: give -o DIR for a page per session and an index")

// OnePage is write for a single stream (stdout): it writes the first
// session and fails on a second, since one HTML document holds one page.
func OnePage(write func(io.Writer, *transcript.Transcript) error) func(io.Writer, *transcript.Transcript) error {
	n := 0
	return func(w io.Writer, t *transcript.Transcript) error {
		if n++; n > 1 {
			return ErrSecondSession
		}
		return write(w, t)
	}
}
