package otlp

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// session is a small Claude Code session in the transcript's shapes: a
// prompt, a reply that runs a 55 s Edit, a reply that starts a subagent by
// a Task call (the subagent reads a file), and a final answer.
func session() *transcript.Transcript {
	str := func(s string) agt.Raw { b, _ := json.Marshal(s); return b }
	return &transcript.Transcript{
		Session: "s1", NativeSession: "n1", Provider: providertest.Stub, Model: "claude-sonnet-4-5",
		StartedAt: "2026-01-02T10:00:00Z", EndedAt: "2026-01-02T10:02:00Z", Usage: agt.Usage{Input: 60, Output: 18},
		Messages: []transcript.Message{
			{Index: 0, Role: transcript.RoleSystem, TS: "2026-01-02T10:00:00Z", Text: str("You are a coding agent.")},
			{Index: 1, Role: transcript.RoleUser, TS: "2026-01-02T10:00:01Z", Text: str("fix the bug")},
			{Index: 2, Role: transcript.RoleAssistant, TS: "2026-01-02T10:00:04Z", Text: str("Editing."), Model: "claude-sonnet-4-5",
				ToolCalls: []transcript.ToolCall{{ID: "e1", Name: "edit", NativeName: "Edit", Input: agt.Raw(`{"file":"a.go"}`), Output: str("ok"), Status: "ok",
					StartedAt: "2026-01-02T10:00:05Z", EndedAt: "2026-01-02T10:01:00Z"}},
				Usage: &agt.Usage{Input: 10, Output: 5}},
			{Index: 3, Role: transcript.RoleAssistant, TS: "2026-01-02T10:01:03Z", Model: "claude-sonnet-4-5",
				ToolCalls: []transcript.ToolCall{{ID: "task1", Name: "task", NativeName: "Task", Input: agt.Raw(`{"prompt":"read a.go"}`), Output: str("read"), Status: "ok",
					StartedAt: "2026-01-02T10:01:04Z", EndedAt: "2026-01-02T10:01:50Z"}},
				Usage: &agt.Usage{Input: 20, Output: 6}},
			{Index: 4, Role: transcript.RoleAssistant, TS: "2026-01-02T10:01:58Z", Text: str("Fixed."), Model: "claude-sonnet-4-5", Usage: &agt.Usage{Input: 30, Output: 7}},
		},
		Subagents: []transcript.Subagent{{Stream: "sidechain:x", ToolCallID: "task1", Model: "claude-haiku-4-5",
			StartedAt: "2026-01-02T10:01:05Z", EndedAt: "2026-01-02T10:01:49Z",
			Messages: []transcript.Message{
				{Index: 0, Role: transcript.RoleUser, TS: "2026-01-02T10:01:05Z", Text: str("read a.go")},
				{Index: 1, Role: transcript.RoleAssistant, TS: "2026-01-02T10:01:49Z", Text: str("It is short."), Model: "claude-haiku-4-5"},
			}}},
	}
}

// spans renders t and returns its spans by name (the first of each name
// holding the others' positions in order).
func spans(t *testing.T, o Options, tr *transcript.Transcript) []Span {
	t.Helper()
	return o.Of(tr).ResourceSpans[0].ScopeSpans[0].Spans
}

func attr(s Span, k string) (string, bool) {
	for _, a := range s.Attributes {
		if a.Key == k {
			if a.Value.String != nil {
				return *a.Value.String, true
			}
			return "", true
		}
	}
	return "", false
}

func at(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

func ts(s string) int64 {
	t, _ := time.Parse(time.RFC3339, s)
	return t.UnixNano()
}

// A chat span runs from its request (the end of the previous call's tool
// runs, or the previous message) to its response, and never holds an
// earlier call's tool run.
func TestChatSpanIsTheModelCall(t *testing.T) {
	var chats []Span
	ss := spans(t, Options{}, session())
	for _, s := range ss {
		if op, _ := attr(s, "gen_ai.operation.name"); op == "chat" && s.ParentSpanID == ss[0].SpanID {
			chats = append(chats, s)
		}
	}
	want := [][2]string{
		{"2026-01-02T10:00:01Z", "2026-01-02T10:00:05Z"}, // the prompt, to the Edit call the reply asked for
		{"2026-01-02T10:01:00Z", "2026-01-02T10:01:04Z"}, // the Edit's end, not the previous reply
		{"2026-01-02T10:01:50Z", "2026-01-02T10:01:58Z"}, // the Task's end
	}
	if len(chats) != len(want) {
		t.Fatalf("%d chat spans", len(chats))
	}
	for i, w := range want {
		if at(chats[i].Start) != ts(w[0]) || at(chats[i].End) != ts(w[1]) {
			t.Errorf("chat %d: [%s, %s], want [%d, %d]", i, chats[i].Start, chats[i].End, ts(w[0]), ts(w[1]))
		}
	}
}

// A subagent's invoke_agent span is a child of the execute_tool span of the
// Task call that started it.
func TestSubagentUnderItsToolSpan(t *testing.T) {
	ss := spans(t, Options{}, session())
	ids := map[string]Span{}
	for _, s := range ss {
		ids[s.SpanID] = s
	}
	var n int
	for _, s := range ss {
		if _, ok := attr(s, "agt.stream"); ok {
			n++
			p := ids[s.ParentSpanID]
			if id, _ := attr(p, "gen_ai.tool.call.id"); p.Name != "execute_tool task" || id != "task1" {
				t.Errorf("subagent under %q", p.Name)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d subagent spans", n)
	}
}

// A subagent the log links to no call (a warm-up subagent, a review
// thread's own rollout) is under a stand-in execute_tool span under the
// root: flagged, without tool name or call id, over the subagent's time.
func TestSubagentWithoutCall(t *testing.T) {
	tr := session()
	tr.Subagents[0].ToolCallID = ""
	ss := spans(t, Options{}, tr)
	ids := map[string]Span{}
	for _, s := range ss {
		ids[s.SpanID] = s
	}
	var n int
	for _, s := range ss {
		if _, ok := attr(s, "agt.stream"); !ok {
			continue
		}
		n++
		p := ids[s.ParentSpanID]
		_, id := attr(p, "gen_ai.tool.call.id")
		op, _ := attr(p, "gen_ai.operation.name")
		flagged := false
		for _, kv := range p.Attributes {
			flagged = flagged || kv.Key == StandIn && kv.Value.Bool != nil && *kv.Value.Bool
		}
		if op != "execute_tool" || p.Name != "execute_tool" || id || !flagged || ids[p.ParentSpanID].ParentSpanID != "" || p.Start != s.Start || p.End != s.End {
			t.Errorf("subagent [%s, %s] under %+v", s.Start, s.End, p)
		}
	}
	if n != 1 {
		t.Errorf("%d subagent spans", n)
	}
}

// A session whose log states no time takes the clock's; a message without a
// time takes the previous known one; no span is before 2000.
func TestTimesWithoutTimestamps(t *testing.T) {
	tr := session()
	tr.StartedAt, tr.EndedAt = "", ""
	strip := func(ms []transcript.Message) {
		for i := range ms {
			ms[i].TS = ""
			for j := range ms[i].ToolCalls {
				ms[i].ToolCalls[j].StartedAt, ms[i].ToolCalls[j].EndedAt = "", ""
			}
		}
	}
	strip(tr.Messages)
	tr.Subagents[0].StartedAt, tr.Subagents[0].EndedAt = "", ""
	strip(tr.Subagents[0].Messages)
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, s := range spans(t, Options{Now: func() time.Time { return now }}, tr) {
		if at(s.Start) != now.UnixNano() || at(s.End) != now.UnixNano() {
			t.Errorf("%s: [%s, %s], want the clock's %d", s.Name, s.Start, s.End, now.UnixNano())
		}
	}

	tr = session()
	tr.Messages[3].TS = ""                     // a reply without its time
	tr.Messages[4].TS = "1970-01-01T00:00:00Z" // and one with a broken one
	tr.Messages[3].ToolCalls[0].StartedAt = ""
	for _, s := range spans(t, Options{}, tr) {
		if at(s.Start) < ts(tr.StartedAt) || at(s.End) < at(s.Start) {
			t.Errorf("%s: [%s, %s] before the session's start", s.Name, s.Start, s.End)
		}
	}
}

// Chat spans carry the conventions' input and output messages and the
// system instructions; NoContent leaves every text out.
func TestContent(t *testing.T) {
	ss := spans(t, Options{}, session())
	first := ss[1]
	if first.Name != "chat claude-sonnet-4-5" {
		t.Fatalf("span 1 is %q", first.Name)
	}
	sys, _ := attr(first, "gen_ai.system_instructions")
	in, _ := attr(first, "gen_ai.input.messages")
	out, _ := attr(first, "gen_ai.output.messages")
	if sys != `[{"type":"text","content":"You are a coding agent."}]` {
		t.Errorf("system instructions %s", sys)
	}
	if in != `[{"role":"user","parts":[{"type":"text","content":"fix the bug"}]}]` {
		t.Errorf("input %s", in)
	}
	if out != `[{"role":"assistant","parts":[{"type":"text","content":"Editing."},{"type":"tool_call","id":"e1","name":"Edit","arguments":{"file":"a.go"}}],"finish_reason":"tool_call"}]` {
		t.Errorf("output %s", out)
	}
	second := ss[3]
	if in, _ := attr(second, "gen_ai.input.messages"); in != `[{"role":"tool","parts":[{"type":"tool_call_response","id":"e1","response":"ok"}]}]` {
		t.Errorf("%s input %s", second.Name, in)
	}
	for _, s := range spans(t, Options{NoContent: true}, session()) {
		for _, k := range []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"} {
			if _, ok := attr(s, k); ok {
				t.Errorf("NoContent: %s carries %s", s.Name, k)
			}
		}
	}
}

// gen_ai.provider.name is the model's vendor, never the agent's name: a
// model the prefixes or the price table place gives its vendor whatever
// the agent (a stub that declares none); a model of no known vendor the
// agent's default vendor (its Agent's Vendor), else Other.
func TestVendor(t *testing.T) {
	for _, c := range []struct{ model, want string }{
		{"claude-opus-4-5", "anthropic"},
		{"gpt-5.4", "openai"},
		{"gemini-2.5-pro", "gcp.gemini"},
		{"moonshotai/kimi-k2-instruct", "moonshot"},
		{"aide-gpt-5", "openai"}, // the price table places it
		{"mock-model", Other},
		{"", Other},
	} {
		if got := Vendor(c.model, providertest.Stub); got != c.want {
			t.Errorf("Vendor(%q, %q) = %q, want %q", c.model, providertest.Stub, got, c.want)
		}
	}
	vendors := 0
	for _, p := range provider.All() {
		want := p.Agent().Vendor
		if want == "" {
			want = Other
		} else {
			vendors++
		}
		// "auto" (Kiro's, Cursor's), "coder-model" (Qwen OAuth's), "<synthetic>" (Claude Code's)
		for _, model := range []string{"auto", "coder-model", "<synthetic>", "mock-model", ""} {
			if got := Vendor(model, p.Name()); got != want {
				t.Errorf("Vendor(%q, %q) = %q, want %q", model, p.Name(), got, want)
			}
		}
	}
	if vendors == 0 {
		t.Error("no provider declares a vendor")
	}
}
