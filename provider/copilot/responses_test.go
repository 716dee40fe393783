package copilot_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/provider/providertest/transcripts"
	"github.com/agt-project/agt/transcript"
)

// assistants counts the assistant messages of transcripts, subagents included.
func assistants(ts []*transcript.Transcript) int {
	n := 0
	for _, m := range transcripts.Messages(ts) {
		if m.Role == transcript.RoleAssistant {
			n++
		}
	}
	return n
}

// TestOneMessagePerResponse: each assistant.message is one model response
// (its own messageId and outputTokens), so it is one assistant message, also
// when it only requests tools right after the results of the previous one,
// when it holds nothing at all, and when a scrubbed log repeats its id.
func TestOneMessagePerResponse(t *testing.T) {
	msg := func(n int, id, content, calls string) string {
		return ev(n, "assistant.message", `{"messageId":"`+id+`","model":"m1","content":"`+content+`","toolRequests":[`+calls+`],"outputTokens":7}`)
	}
	bash := func(id string) string {
		return `{"toolCallId":"` + id + `","name":"bash","arguments":{"command":"ls"},"type":"function"}`
	}
	done := func(n int, id string) string {
		return ev(n, "tool.execution_complete", `{"toolCallId":"`+id+`","success":true,"result":{"content":"ok"}}`)
	}
	path := write(t, "events.jsonl",
		ev(1, "session.start", start),
		ev(2, "user.message", `{"content":"list"}`),
		msg(3, "r1", "Listing.", bash("c1")),
		done(4, "c1"),
		msg(5, "r2", "", bash("c2")), // tools only, after results
		done(6, "c2"),
		msg(7, "r3", "", ""), // nothing but output tokens
		msg(8, "[trimmed]", "a", ""),
		msg(9, "[trimmed]", "b", ""),
	)
	evs, _, _ := parse(t, path)
	ids := map[string]bool{}
	for _, e := range evs {
		switch e.Kind {
		case agt.KindAssistant, agt.KindReasoning, agt.KindToolCall:
			if e.MessageID == "" {
				t.Errorf("line %d: %s event without message_id", e.Src.Line, e.Kind)
			}
			ids[e.MessageID] = true
		}
	}
	if len(ids) != 5 {
		t.Errorf("%d response ids, want 5: %v", len(ids), ids)
	}
	if n := assistants(transcripts.Of(t, path)); n != 5 {
		t.Errorf("%d assistant messages, want 5 (one per assistant.message)", n)
	}
}

// TestCorpusOneMessagePerResponse: a corpus session with N assistant.message
// records has N assistant messages.
func TestCorpusOneMessagePerResponse(t *testing.T) {
	dir := providertest.CorpusDir(t)
	var files []string
	for _, d := range []string{"copilot", "live/copilot-json"} {
		m, _ := filepath.Glob(filepath.Join(dir, d, "*.jsonl"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no Copilot CLI log in the corpus")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, `{"type":"assistant.message",`) {
				want++
			}
		}
		if got := assistants(transcripts.Of(t, f)); got != want {
			t.Errorf("%s: %d assistant messages for %d assistant.message records", filepath.Base(f), got, want)
		}
	}
}

// TestLegacyResponses: the legacy chat writes each part of a response (its
// text, each call) as a message of its own, and the timeline shows a
// response that only calls a tool after the previous results as a bare
// call; the chat's runs of assistant messages tell the responses apart.
func TestLegacyResponses(t *testing.T) {
	call := func(id string) string {
		return `{"role":"assistant","content":null,"tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]}`
	}
	tool := func(id string) string { return `{"role":"tool","tool_call_id":"` + id + `","content":"ok"}` }
	done := func(n int, id string) string {
		return `{"id":"t` + string(rune('0'+n)) + `","type":"tool_call_completed","timestamp":"2025-10-11T11:40:0` + string(rune('0'+n)) + `.000Z","callId":"` + id + `","name":"bash","arguments":{"command":"ls"},"result":{"type":"success","log":"ok"}}`
	}
	doc := `{"sessionId":"s","startTime":"2025-10-11T11:40:00.000Z","chatMessages":[` +
		`{"role":"user","content":"go"},` +
		`{"role":"assistant","content":"Looking."},` + call("c1") + `,` + call("c2") + `,` + tool("c1") + `,` + tool("c2") + `,` +
		call("c3") + `,` + tool("c3") + `,` +
		`{"role":"assistant","content":"Done."}],` +
		`"timeline":[{"id":"t1","type":"user","timestamp":"2025-10-11T11:40:01.000Z","text":"go"},` +
		`{"id":"t2","type":"copilot","timestamp":"2025-10-11T11:40:02.000Z","text":"Looking."},` +
		done(3, "c1") + `,` + done(4, "c2") + `,` + done(5, "c3") + `,` +
		`{"id":"t6","type":"copilot","timestamp":"2025-10-11T11:40:06.000Z","text":"Done."}]}`
	path := write(t, "session_s_1.json", doc)
	var got []string
	for _, tr := range transcripts.Of(t, path) {
		for _, m := range tr.Messages {
			if m.Role == transcript.RoleAssistant {
				var names []string
				for _, c := range m.ToolCalls {
					names = append(names, c.ID)
				}
				got = append(got, strings.Join(names, "+"))
			}
		}
	}
	if want := "c1+c2 c3 "; strings.Join(got, " ") != want {
		t.Errorf("calls of the assistant messages %q, want %q (3 responses)", strings.Join(got, " "), want)
	}
}

// TestResponseUsage: where a Copilot output has per-call usage
// (assistant.usage, ephemeral, before or after its response), the usage
// finds its response by apiCallId: one message per response, each with its
// own usage.
func TestResponseUsage(t *testing.T) {
	usage := func(n int, call string, out int) string {
		return ev(n, "assistant.usage", fmt.Sprintf(`{"model":"m1","inputTokens":100,"outputTokens":%d,"cacheReadTokens":0,"cacheWriteTokens":0,"apiCallId":%q}`, out, call))
	}
	msg := func(n int, id, call, content string) string {
		return ev(n, "assistant.message", fmt.Sprintf(`{"messageId":%q,"apiCallId":%q,"model":"m1","content":%q,"toolRequests":[]}`, id, call, content))
	}
	for _, c := range []struct {
		name  string
		lines []string
	}{
		{"usage first", []string{usage(3, "c1", 5), msg(4, "a", "c1", "one"), usage(5, "c2", 7), msg(6, "b", "c2", "two")}},
		{"usage after", []string{msg(3, "a", "c1", "one"), usage(4, "c1", 5), msg(5, "b", "c2", "two"), usage(6, "c2", 7)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines := append([]string{ev(1, "session.start", start), ev(2, "user.message", `{"content":"go"}`)}, c.lines...)
			var got []string
			for _, m := range transcripts.Messages(transcripts.Of(t, write(t, "events.jsonl", lines...))) {
				if m.Role != transcript.RoleAssistant {
					continue
				}
				out := int64(-1)
				if m.Usage != nil {
					out = m.Usage.Output
				}
				got = append(got, fmt.Sprintf("%s/%d", m.Text.Str(), out))
			}
			if g := strings.Join(got, " "); g != "one/5 two/7" {
				t.Errorf("assistant messages %q, want %q", g, "one/5 two/7")
			}
		})
	}
}
