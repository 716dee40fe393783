package html

import (
	"bytes"
	"encoding/json"
	"html/template"
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
)

// inputs are how a tool call's input is shown, by canonical tool name: a
// file edit or write as a unified diff, a shell command as a command line;
// any other input (and one these cannot read) as its JSON, indented.
var inputs = map[string]func(in map[string]any) (template.HTML, bool){
	"Edit":      editDiff,
	"MultiEdit": editDiff,
	"Write":     writeDiff,
	"Bash":      commandLine,
}

// Input renders a tool call's input.
func Input(name string, raw agt.Raw) template.HTML {
	if raw.IsNull() {
		return ""
	}
	if f, ok := inputs[name]; ok && len(raw) > 0 && raw[0] == '{' {
		var in map[string]any
		if agt.API.Unmarshal(raw, &in) == nil {
			if h, ok := f(in); ok {
				return h
			}
		}
	}
	return pre("json", indentJSON(raw))
}

// indentJSON is raw indented (a string: its text).
func indentJSON(raw agt.Raw) string {
	if raw[0] == '"' {
		return export.Text(raw)
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// pre is text, cleaned and cut, as a <pre> block of class cls.
func pre(cls, text string) template.HTML {
	var b strings.Builder
	preTo(&b, cls, text)
	return template.HTML(b.String())
}

// preTo writes pre(cls, text) to b.
func preTo(b *strings.Builder, cls, text string) {
	text, note := cut(clean(text))
	b.Grow(len(text) + 64)
	b.WriteString(`<pre class="` + cls + `">`)
	escape(b, text)
	b.WriteString("</pre>")
	if note != "" {
		b.WriteString(`<p class="cut">` + note + `</p>`)
	}
}

func str(in map[string]any, k string) (string, bool) {
	s, ok := in[k].(string)
	return s, ok
}

// commandLine shows a shell call's command after a prompt, with its
// description and working folder when it gives them.
func commandLine(in map[string]any) (template.HTML, bool) {
	cmd, ok := str(in, "command")
	if !ok {
		return "", false
	}
	var b strings.Builder
	if d, ok := str(in, "description"); ok && d != "" {
		b.WriteString(`<p class="desc">`)
		escape(&b, clean(d))
		b.WriteString("</p>")
	}
	if d, ok := str(in, "cwd"); ok && d != "" {
		b.WriteString(`<p class="desc">in `)
		escape(&b, clean(d))
		b.WriteString("</p>")
	}
	b.WriteString(string(pre("cmd", "$ "+cmd)))
	return template.HTML(b.String()), true
}

// editDiff shows an edit (old_string and new_string, a list of edits, or
// a patch) as a unified diff.
func editDiff(in map[string]any) (template.HTML, bool) {
	if p, ok := str(in, "patch"); ok && p != "" {
		return diffBlock(p), true
	}
	file, _ := str(in, "file_path")
	var d strings.Builder
	hunk := func(old, new string) {
		d.WriteString(unified(old, new))
	}
	if old, ok := str(in, "old_string"); ok {
		new, _ := str(in, "new_string")
		hunk(old, new)
	} else if edits, ok := in["edits"].([]any); ok {
		for _, e := range edits {
			em, ok := e.(map[string]any)
			if !ok {
				return "", false
			}
			old, _ := str(em, "old_string")
			new, _ := str(em, "new_string")
			hunk(old, new)
		}
	} else {
		return "", false
	}
	return diffBlock("--- " + file + "\n+++ " + file + "\n" + d.String()), true
}

// writeDiff shows a written file as a diff that adds each of its lines.
func writeDiff(in map[string]any) (template.HTML, bool) {
	content, ok := str(in, "content")
	if !ok {
		return "", false
	}
	file, _ := str(in, "file_path")
	return diffBlock("+++ " + file + "\n" + prefixed("+", content)), true
}

// unified is one hunk turning old into new: the lines they share at the
// start and at the end as context, the rest removed and added.
func unified(old, new string) string {
	a, b := splitLines(old), splitLines(new)
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	var d strings.Builder
	d.WriteString("@@\n")
	for _, l := range a[:p] {
		d.WriteString(" " + l + "\n")
	}
	for _, l := range a[p : len(a)-s] {
		d.WriteString("-" + l + "\n")
	}
	for _, l := range b[p : len(b)-s] {
		d.WriteString("+" + l + "\n")
	}
	for _, l := range a[len(a)-s:] {
		d.WriteString(" " + l + "\n")
	}
	return d.String()
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func prefixed(p, s string) string {
	var b strings.Builder
	for _, l := range splitLines(s) {
		b.WriteString(p + l + "\n")
	}
	return b.String()
}

// diffBlock renders a unified diff, each line marked by what it does.
func diffBlock(d string) template.HTML {
	d, note := cut(clean(d))
	var b strings.Builder
	b.Grow(len(d) + len(d)/4)
	b.WriteString(`<pre class="diff">`)
	for _, l := range splitLines(d) {
		cls := ""
		switch {
		case strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "***"):
			cls = "dh"
		case strings.HasPrefix(l, "@@"):
			cls = "dk"
		case strings.HasPrefix(l, "+"):
			cls = "da"
		case strings.HasPrefix(l, "-"):
			cls = "dd"
		}
		if cls != "" {
			b.WriteString(`<span class="` + cls + `">`)
			escape(&b, l)
			b.WriteString("</span>\n")
		} else {
			escape(&b, l)
			b.WriteString("\n")
		}
	}
	b.WriteString("</pre>")
	if note != "" {
		b.WriteString(`<p class="cut">` + note + `</p>`)
	}
	return template.HTML(b.String())
}
