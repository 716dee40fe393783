package codex_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
)

// TestMCPInvocation: an MCP function call of a rollout is named after its
// invocation's server and tool (mcp_tool_call_begin or _end), not after
// the sanitised function name; one that no invocation follows keeps the
// name; the call stays at its own line.
func TestMCPInvocation(t *testing.T) {
	evs, _ := parse(t, "rollout.jsonl", lines(
		meta("a", ""),
		// 2: Codex 0.1xx: namespace + name, the begin and end events, the output
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"_fetch_pr","namespace":"mcp__codex_apps__github","arguments":"{\"pr_number\":1}","call_id":"c1"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"mcp_tool_call_begin","call_id":"c1","invocation":{"server":"codex_apps","tool":"github.fetch_pr","arguments":{"pr_number":1}}}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"c1","invocation":{"server":"codex_apps","tool":"github.fetch_pr","arguments":{"pr_number":1}},"result":{"Ok":{"content":[]}}}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"ok"}}`,
		// 6: two parallel calls of a server whose name has a dot, then their ends
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"mcp__docs_example_com__search","arguments":"{}","call_id":"c2"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"mcp__docs_example_com__fetch_page","arguments":"{}","call_id":"c3"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"c3","invocation":{"server":"docs.example.com","tool":"fetch-page","arguments":{}},"result":{"Ok":{"content":[]}}}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"c2","invocation":{"server":"docs.example.com","tool":"search","arguments":{}},"result":{"Ok":{"content":[]}}}}`,
		// 10: no invocation follows: the name's server and tool
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"mcp__calc__add","arguments":"{}","call_id":"c4"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c4","output":"5"}}`,
	))
	want := map[string]struct {
		line      int64
		name, mcp string
	}{
		"c1": {2, "mcp__codex_apps__github_fetch_pr", "codex_apps/github.fetch_pr"},
		"c2": {6, "mcp__docs_example_com__search", "docs.example.com/search"},
		"c3": {7, "mcp__docs_example_com__fetch-page", "docs.example.com/fetch-page"},
		"c4": {10, "mcp__calc__add", "calc/add"},
	}
	seen := 0
	for _, ev := range evs {
		if ev.Kind != agt.KindToolCall {
			continue
		}
		w, ok := want[ev.Tool.ID]
		if !ok {
			t.Errorf("unexpected call %s", ev.Tool.ID)
			continue
		}
		seen++
		tool := *ev.Tool
		canon.NormalizeIn("codex", "", &tool)
		mcp := ""
		if tool.MCP != nil {
			mcp = tool.MCP.Server + "/" + tool.MCP.Tool
		}
		if tool.Name != w.name || mcp != w.mcp || ev.Src.Line != w.line {
			t.Errorf("%s: %s mcp %q line %d, want %s %q %d", ev.Tool.ID, tool.Name, mcp, ev.Src.Line, w.name, w.mcp, w.line)
		}
	}
	if seen != len(want) {
		t.Errorf("%d calls, want %d", seen, len(want))
	}
	checkLinks(t, evs)
}

// TestMCPSkillServer: a call whose mcp_tool_call_end returns a SKILL.md
// (front matter with name and description) loaded a skill, from a server
// whatever its name: it becomes Skill with the skill's name, and renders
// back to the server's tool. Another tool of the same server, and a text
// that only looks like front matter, stay MCP calls.
func TestMCPSkillServer(t *testing.T) {
	skillMD := `---\nname: brainstorming\ndescription: \"Turn a rough idea into a design, one question at a time\"\n---\n\n# Brainstorming\n\nAsk one question at a time.`
	evs, _ := parse(t, "rollout.jsonl", lines(
		meta("a", ""),
		// 2: a skill loaded from a server named "playbook"
		`{"timestamp":"2026-06-18T05:34:50.000Z","type":"response_item","payload":{"type":"function_call","name":"mcp__playbook__brainstorming","arguments":"{}","call_id":"c1"}}`,
		`{"timestamp":"2026-06-18T05:34:51.000Z","type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"c1","invocation":{"server":"playbook","tool":"brainstorming","arguments":{}},"duration":{"secs":0,"nanos":4000000},"result":{"Ok":{"content":[{"type":"text","text":"`+skillMD+`"}],"isError":false}}}}`,
		`{"timestamp":"2026-06-18T05:34:51.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"ok"}}`,
		// 5: the same server's listing tool
		`{"timestamp":"2026-06-18T05:34:52.000Z","type":"response_item","payload":{"type":"function_call","name":"mcp__playbook__list","arguments":"{}","call_id":"c2"}}`,
		`{"timestamp":"2026-06-18T05:34:53.000Z","type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"c2","invocation":{"server":"playbook","tool":"list","arguments":{}},"duration":{"secs":0,"nanos":4000000},"result":{"Ok":{"content":[{"type":"text","text":"brainstorming: Turn a rough idea into a design"}],"isError":false}}}}`,
		// 7: a page with a title block but no description: not a SKILL.md
		`{"timestamp":"2026-06-18T05:34:54.000Z","type":"response_item","payload":{"type":"function_call","name":"mcp__docs__fetch","arguments":"{\"url\":\"https://example.com/post\"}","call_id":"c3"}}`,
		`{"timestamp":"2026-06-18T05:34:55.000Z","type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"c3","invocation":{"server":"docs","tool":"fetch","arguments":{"url":"https://example.com/post"}},"duration":{"secs":0,"nanos":4000000},"result":{"Ok":{"content":[{"type":"text","text":"---\nname: post\n---\nHello"}],"isError":false}}}}`,
	))
	want := map[string]struct{ name, input, origin, back string }{
		"c1": {"Skill", `{"skill":"brainstorming"}`, canon.OriginSkill, "mcp__playbook__brainstorming {}"},
		"c2": {"mcp__playbook__list", `{}`, canon.OriginMCP, "mcp__playbook__list {}"},
		"c3": {"mcp__docs__fetch", `{"url":"https://example.com/post"}`, canon.OriginMCP, `mcp__docs__fetch {"url":"https://example.com/post"}`},
	}
	seen := 0
	for _, ev := range evs {
		if ev.Kind != agt.KindToolCall {
			continue
		}
		w := want[ev.Tool.ID]
		seen++
		tool := *ev.Tool
		canon.NormalizeIn("codex", "", &tool)
		if tool.Name != w.name || string(tool.Input) != w.input || tool.Origin != w.origin {
			t.Errorf("%s: %s %s %s, want %s %s %s", ev.Tool.ID, tool.Name, tool.Input, tool.Origin, w.name, w.input, w.origin)
		}
		name, in, _ := canon.RenderIn("codex", "codex", "", &tool)
		if got := name + " " + string(in); got != w.back {
			t.Errorf("%s: renders back as %s, want %s", ev.Tool.ID, got, w.back)
		}
	}
	if seen != len(want) {
		t.Errorf("%d calls, want %d", seen, len(want))
	}
	checkLinks(t, evs)
}
