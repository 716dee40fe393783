package html_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	stdhtml "html"
	"regexp"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export/html"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

func TestMarkdown(t *testing.T) {
	cases := []struct{ in, want string }{
		{"# Title", "<h2>Title</h2>\n"},
		{"### deep ###", "<h4>deep</h4>\n"},
		{"a\nb", "<p>a<br>\nb</p>\n"},
		{"- one\n- two", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"},
		{"1. one\n2. two\n   - sub", "<ol>\n<li>one</li>\n<li><p>two</p>\n<ul>\n<li>sub</li>\n</ul>\n</li>\n</ol>\n"},
		{"```go\nif a < b {}\n```", "<pre class=\"code\"><code class=\"language-go\">if a &lt; b {}\n</code></pre>\n"},
		{"```\"><script>\nx\n```", "<pre class=\"code\"><code class=\"language-script\">x\n</code></pre>\n"},
		{"use `a<b` and **bold** and *em* and snake_case_name", "<p>use <code>a&lt;b</code> and <strong>bold</strong> and <em>em</em> and snake_case_name</p>\n"},
		{"[site](https://example.com/a?b=1&c=2)", "<p><a href=\"https://example.com/a?b=1&amp;c=2\" rel=\"noopener noreferrer nofollow\">site</a></p>\n"},
		{"[x](javascript:alert(1))", "<p>x (javascript:alert(1))</p>\n"},
		{"[x](JavaScript:alert`1`)", "<p>x (JavaScript:alert`1`)</p>\n"},
		{"[x](data:text/html,hi)", "<p>x (data:text/html,hi)</p>\n"},
		{"> quoted <b>", "<blockquote>\n<p>quoted &lt;b&gt;</p>\n</blockquote>\n"},
		{"---", "<hr>\n"},
		{"<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"},
		{"a ' \" &amp;", "<p>a &#39; &#34; &amp;amp;</p>\n"},
	}
	for _, c := range cases {
		if got := string(html.Markdown(c.in)); got != c.want {
			t.Errorf("Markdown(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// tagRE finds the tags of a page: every < of a page is markup, since
// every < of a text is escaped.
var (
	tagRE  = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*|!--|!DOCTYPE)([^>]*)>`)
	attrRE = regexp.MustCompile(`\s([a-zA-Z-]+)(?:="([^"]*)")?`)
)

// allowed are the elements a page may hold.
var allowed = map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "script": true, "body": true,
	"header": true, "main": true, "footer": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"dl": true, "dt": true, "dd": true, "span": true, "article": true, "div": true, "details": true, "summary": true,
	"p": true, "pre": true, "code": true, "section": true, "ul": true, "ol": true, "li": true, "blockquote": true, "hr": true,
	"br": true, "strong": true, "em": true, "a": true, "time": true, "table": true, "thead": true, "tbody": true, "tr": true,
	"th": true, "td": true, "input": true, "!--": true, "!DOCTYPE": true}

// checkSafe checks a page's markup: only allowed elements, scripts only
// where want says, no event handler attribute, no address but http(s),
// mailto or a relative page, <details> balanced, and no control
// character.
func checkSafe(t *testing.T, page string, scripts int) {
	t.Helper()
	if n := strings.Count(page, "<script"); n != scripts {
		t.Errorf("%d <script, want %d", n, scripts)
	}
	if strings.Count(page, "<details") != strings.Count(page, "</details>") {
		t.Errorf("<details> unbalanced: %d open, %d closed", strings.Count(page, "<details"), strings.Count(page, "</details>"))
	}
	for _, m := range tagRE.FindAllStringSubmatch(page, -1) {
		if !allowed[m[2]] {
			t.Errorf("element %q in the page", m[0])
		}
		if m[2] == "!--" {
			continue
		}
		for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
			name, val := strings.ToLower(a[1]), a[2]
			if strings.HasPrefix(name, "on") || name == "src" || name == "srcdoc" || name == "style" || name == "action" {
				t.Errorf("attribute %q in %q", name, m[0])
			}
			if name == "href" && !(strings.HasPrefix(val, "https://") || strings.HasPrefix(val, "http://") || strings.HasPrefix(val, "mailto:") || !strings.Contains(val, ":")) {
				t.Errorf("href %q", val)
			}
		}
	}
	for i := 0; i < len(page); i++ {
		if c := page[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			t.Fatalf("control character %#x at %d: %q", c, i, page[max(0, i-40):i])
		}
	}
}

// hostileTranscript is a transcript whose every text holds hostile.
func hostileTranscript() *transcript.Transcript {
	h := hostile
	q := agt.Raw(`"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\x00", `\u0000`, "\x07", `\u0007`, "\x1b", `\u001b`, "\x7f", `\u007f`).Replace(h) + `"`)
	cost := 0.5
	call := func(id, name string, input agt.Raw) transcript.ToolCall {
		return transcript.ToolCall{ID: id + h, Name: name, NativeName: h, Via: h, Input: input, Output: q, Status: transcript.StatusError, IsError: true}
	}
	in := agt.Raw(`{"command":` + string(q) + `,"description":` + string(q) + `,"file_path":` + string(q) + `,"old_string":` + string(q) + `,"new_string":` + string(q) + `,"content":` + string(q) + `,"patch":` + string(q) + `}`)
	msgs := []transcript.Message{
		{Role: transcript.RoleUser, TS: h, Text: q},
		{Role: transcript.RoleAssistant, Kind: h, TS: "2025-12-16T00:00:02Z", Text: q, Reasoning: q, Model: h,
			ToolCalls: []transcript.ToolCall{call("t1", "Bash", in), call("t2", "Edit", in), call("t3", "Write", in), call("t4", h, in), call("t5", "Task", q)},
			Usage:     &agt.Usage{Input: 1, Output: 2, Total: 3, CostUSD: &cost}},
	}
	return &transcript.Transcript{Schema: transcript.Schema, Session: h, NativeSession: h, Provider: h, Format: h, Model: h, Models: []string{h, h},
		Cwd: h, GitBranch: h, Version: h, Title: h, StartedAt: h, EndedAt: h, Messages: msgs, CostUSD: &cost,
		Subagents: []transcript.Subagent{
			{Stream: h, ToolCallID: "t5" + h, Model: h, Messages: msgs},
			{Stream: h, ToolCallID: h, Messages: msgs},
		},
		Outcome: transcript.Outcome{Status: h, Reason: h}}
}

// TestHostilePage writes a session whose every text field is hostile:
// the page holds no element, attribute, address or script of it, and
// shows its text, escaped.
func TestHostilePage(t *testing.T) {
	var b bytes.Buffer
	if err := html.Write(&b, hostileTranscript()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	checkSafe(t, page, 0)
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;/details&gt;", "\u241b[31m", "\u2400", "\u2421", "javascript:alert(3)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	// the subagent started by t5 is nested under it, the other is apart
	if i, j := strings.Index(page, `data-call="t5`), strings.Index(page, "subagent "); i < 0 || j < i {
		t.Errorf("the subagent is not under its call (call at %d, subagent at %d)", i, j)
	}
	if !strings.Contains(page, "Other conversations") {
		t.Error("the subagent no call started is not shown")
	}
}

// TestCSP checks that the page's policy allows its own style, by hash,
// and nothing else.
func TestCSP(t *testing.T) {
	var b bytes.Buffer
	html.Write(&b, &transcript.Transcript{Session: "s", Provider: providertest.Stub})
	page := b.String()
	style := page[strings.Index(page, "<style>")+len("<style>") : strings.Index(page, "</style>")]
	sum := sha256.Sum256([]byte(style))
	want := "style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	if !strings.Contains(policy(page), want) {
		t.Errorf("the policy does not allow the page's style (%s)", want)
	}
	for _, p := range []string{"default-src 'none'", "script-src 'none'", "img-src 'none'", "connect-src 'none'"} {
		if !strings.Contains(policy(page), p) {
			t.Errorf("the policy lacks %s", p)
		}
	}
}

// policy is a page's Content-Security-Policy.
func policy(page string) string {
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return stdhtml.UnescapeString(m[1])
}

// TestIndexPage checks the index of hostile rows, its script allowed by
// hash, and that a page's row reads back.
func TestIndexPage(t *testing.T) {
	var b bytes.Buffer
	tr := hostileTranscript()
	html.Write(&b, tr)
	row, ok := html.ReadRow(&b)
	if !ok {
		t.Fatal("no row in the page")
	}
	want := html.RowOf(tr, "")
	if row != want {
		t.Errorf("row read back\n got %+v\nwant %+v", row, want)
	}
	row.Page = "javascript:alert(1)"
	b.Reset()
	if err := html.WriteIndex(&b, []html.Row{row, html.RowOf(tr, providertest.Stub+"/s.html")}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	checkSafe(t, page, 1)
	script := page[strings.Index(page, "<script>")+len("<script>") : strings.Index(page, "</script>")]
	sum := sha256.Sum256([]byte(script))
	if !strings.Contains(policy(page), "script-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
		t.Error("the policy does not allow the index's script by its hash")
	}
	if !strings.Contains(page, `href="`+providertest.Stub+`/s.html"`) {
		t.Error("no link to the page")
	}
}

// TestCut checks that a huge result is cut, its size said.
func TestCut(t *testing.T) {
	big := strings.Repeat("0123456789", 100_000)
	tr := &transcript.Transcript{Session: "s", Provider: providertest.Stub, Messages: []transcript.Message{{Role: transcript.RoleAssistant,
		ToolCalls: []transcript.ToolCall{{ID: "c", Name: "Bash", Output: agt.Raw(`"` + big + `"`), Status: transcript.StatusOK}}}}}
	var b bytes.Buffer
	html.Write(&b, tr)
	if b.Len() > 200_000 {
		t.Errorf("page of %d bytes for a 1 MB result", b.Len())
	}
	if !strings.Contains(b.String(), "cut: 1.0 MB, the first 65.5 KB shown") {
		t.Error("the cut is not said")
	}
	if strings.Contains(b.String(), "<details class=\"result\" open>") {
		t.Error("a long result is not folded")
	}
}

func TestOnePage(t *testing.T) {
	w := html.OnePage(html.Write)
	var b bytes.Buffer
	tr := &transcript.Transcript{Session: "s", Provider: providertest.Stub}
	if err := w(&b, tr); err != nil {
		t.Fatal(err)
	}
	if err := w(&b, tr); err != html.ErrSecondSession {
		t.Errorf("second session: %v", err)
	}
}

// TestSubagentOnce checks that each subagent is shown once: one started by
// a call of its own (no call of the session leads to it) apart, one
// started by a call of another subagent under that call.
func TestSubagentOnce(t *testing.T) {
	m := func(id string) []transcript.Message {
		return []transcript.Message{{Role: transcript.RoleAssistant, Text: agt.Raw(`"in ` + id + `"`), ToolCalls: []transcript.ToolCall{{ID: id, Name: "Task", Status: transcript.StatusOK}}}}
	}
	tr := &transcript.Transcript{Session: "s", Provider: providertest.Stub, Messages: m("main-call"), Subagents: []transcript.Subagent{
		{Stream: "self", ToolCallID: "self-call", Messages: m("self-call")},
		{Stream: "child", ToolCallID: "main-call", Messages: m("child-call")},
		{Stream: "grandchild", ToolCallID: "child-call", Messages: m("gc-call")},
	}}
	var b bytes.Buffer
	html.Write(&b, tr)
	page := b.String()
	for _, id := range []string{"main-call", "self-call", "child-call", "gc-call"} {
		if n := strings.Count(page, `data-call="`+id+`"`); n != 1 {
			t.Errorf("call %s shown %d times", id, n)
		}
	}
	if i, j := strings.Index(page, "Other conversations"), strings.Index(page, "in self-call"); i < 0 || j < i {
		t.Error("the subagent that starts itself is not shown apart")
	}
	if i, j := strings.Index(page, `data-call="child-call"`), strings.Index(page, `data-call="gc-call"`); j < i {
		t.Error("the grandchild is not under its call")
	}
}

// TestMarkdownDepth: quotes and lists nest 8 deep at most (a log of
// "> > > …" nested as deep as it goes costs time in the square of its
// length); deeper lines are text. A span's end is looked for 2 KB ahead.
func TestMarkdownDepth(t *testing.T) {
	out := string(html.Markdown(strings.Repeat("> ", 20) + "deep"))
	if n := strings.Count(out, "<blockquote>"); n != 8 {
		t.Errorf("%d quotes nested, want 8", n)
	}
	if !strings.Contains(out, "&gt; &gt; deep") {
		t.Errorf("the deeper quotes are not text: %s", out)
	}
	out = string(html.Markdown("[a" + strings.Repeat("x", 3000) + "](https://example.com)"))
	if strings.Contains(out, "<a ") {
		t.Errorf("a link whose text is longer than 2 KB: %.80s", out)
	}
}

// TestTitle: a session's title is the agent's, else its first prompt, else
// its first slash command, else its id.
func TestTitle(t *testing.T) {
	msg := func(kind, text string) transcript.Message {
		return transcript.Message{Role: transcript.RoleUser, Kind: kind, Text: agt.Raw(`"` + text + `"`)}
	}
	cases := []struct {
		title string
		ms    []transcript.Message
		want  string
	}{
		{"Agent's", []transcript.Message{msg("", "prompt")}, "Agent's"},
		{"", []transcript.Message{msg(transcript.KindCommand, "/cmd"), msg("", "the   prompt\nhere")}, "the prompt here"},
		{"", []transcript.Message{msg(transcript.KindCommand, "/cmd")}, "/cmd"},
		{"", nil, "s-1"},
	}
	for _, c := range cases {
		if got := html.RowOf(&transcript.Transcript{Session: "s-1", Title: c.title, Messages: c.ms}, "").Title; got != c.want {
			t.Errorf("title %q, want %q", got, c.want)
		}
	}
}
