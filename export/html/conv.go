package html

import (
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/transcript"
)

// The conversation of a page is written here rather than by the template
// (its reflection cost as much as the rest of the page): every text of
// the log goes through escape, as html/template would escape it in text
// and in a double-quoted attribute, and no element, attribute or address
// is made of it.

// conv writes a conversation's messages; subagents started by its calls
// are nested under them.
func (r *renderer) conv(b *strings.Builder, ms []transcript.Message) {
	running := 0.0
	for i := range ms {
		m := &ms[i]
		role, kind := clean(m.Role), clean(m.Kind)
		b.WriteString(`<article class="msg r-`)
		escape(b, role)
		if kind != "" {
			b.WriteString(" k-")
			escape(b, kind)
		}
		b.WriteString("\">\n<div class=\"who\">")
		escape(b, role)
		if kind != "" {
			b.WriteString(" · ")
			escape(b, kind)
		}
		if m.Model != "" {
			b.WriteString(` · <span class="muted">`)
			escape(b, clean(m.Model))
			b.WriteString("</span>")
		}
		if m.TS != "" {
			b.WriteString(` <time class="muted">`)
			escape(b, when(m.TS))
			b.WriteString("</time>")
		}
		b.WriteString("</div>\n")
		if !m.Reasoning.IsNull() {
			text, _ := cut(clean(export.Text(m.Reasoning)))
			b.WriteString(`<details class="reasoning"><summary>reasoning</summary><div class="md">`)
			markdownTo(b, text)
			b.WriteString("</div></details>\n")
		}
		if !m.Text.IsNull() {
			text, note := cut(clean(export.Text(m.Text)))
			b.WriteString(`<div class="md">`)
			markdownTo(b, text)
			b.WriteString("</div>\n")
			if note != "" {
				b.WriteString(`<p class="cut">` + note + "</p>\n")
			}
		}
		for j := range m.ToolCalls {
			r.call(b, &m.ToolCalls[j])
		}
		if m.Usage != nil {
			u := usageOf(m.Usage)
			b.WriteString(`<div class="usage muted">`)
			b.WriteString(string(u.Line))
			if u.Cost != "" {
				b.WriteString(" · " + u.Cost)
			}
			if m.Usage.CostUSD != nil {
				running += *m.Usage.CostUSD
				b.WriteString(" · running " + dollars(running))
			}
			b.WriteString("</div>\n")
		}
		b.WriteString("</article>\n")
	}
}

// call writes a tool call: its names, status, input and result, and the
// subagents it started.
func (r *renderer) call(b *strings.Builder, tc *transcript.ToolCall) {
	name, native, status := clean(tc.Name), clean(tc.NativeName), clean(tc.Status)
	b.WriteString(`<section class="call`)
	if tc.IsError {
		b.WriteString(" failed")
	}
	b.WriteString(`" data-call="`)
	escape(b, clean(tc.ID))
	b.WriteString("\">\n<div class=\"ch\"><span class=\"tool\">")
	escape(b, name)
	b.WriteString("</span>")
	if native != name {
		b.WriteString(` <span class="muted">native `)
		escape(b, native)
		b.WriteString("</span>")
	}
	if tc.Via != "" {
		b.WriteString(` <span class="muted">via `)
		escape(b, clean(tc.Via))
		b.WriteString("</span>")
	}
	b.WriteString(` <span class="st s-`)
	escape(b, status)
	b.WriteString(`">`)
	if tc.IsError {
		b.WriteString("error")
	} else {
		escape(b, status)
	}
	b.WriteString("</span>")
	if tc.ExitCode != nil {
		b.WriteString(` <span class="muted">exit ` + strconv.Itoa(*tc.ExitCode) + "</span>")
	}
	if tc.DurationMS != nil {
		b.WriteString(` <span class="muted">` + (time.Duration(*tc.DurationMS) * time.Millisecond).String() + "</span>")
	}
	b.WriteString("</div>\n")
	b.WriteString(string(Input(tc.Name, tc.Input)))
	b.WriteString("\n")
	if !tc.Output.IsNull() {
		out := Output(tc.Output)
		b.WriteString(`<details class="result"`)
		if len(out) <= foldBytes && lines(out) <= foldLines {
			b.WriteString(" open")
		}
		b.WriteString("><summary>result")
		if tc.IsError {
			b.WriteString(` <span class="err">(error)</span>`)
		}
		b.WriteString(` <span class="muted">` + size(int64(len(out))) + "</span></summary>")
		preTo(b, "out", out)
		b.WriteString("</details>\n")
	}
	for _, i := range r.subs[tc.ID] {
		if r.shown[i] {
			continue
		}
		s := &r.t.Subagents[i]
		b.WriteString(`<section class="sub"><div class="who">subagent `)
		escape(b, clean(s.Stream))
		if s.Model != "" {
			b.WriteString(" · ")
			escape(b, clean(s.Model))
		}
		b.WriteString(" · " + strconv.Itoa(s.Counts.Messages) + " messages · " + strconv.Itoa(s.Counts.ToolCalls) + " tool calls")
		if s.CostUSD != nil {
			b.WriteString(" · " + dollars(*s.CostUSD))
		}
		b.WriteString("</div>")
		r.sub(b, i)
		b.WriteString("</section>")
	}
	b.WriteString("</section>\n")
}
