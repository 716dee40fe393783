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
