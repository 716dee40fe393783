package copilot_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
)

// TestMCPAttribution: Copilot's tool requests name the MCP server at most
// (mcpServerName, never mcpToolName); the tool.execution_start that follows
// names both. The calls take them, in the normal order of events (request,
// starts, results) and when no start comes.
func TestMCPAttribution(t *testing.T) {
	evs, _, st := parse(t, write(t, "events.jsonl",
		ev(1, "session.start", start),
		// shapes of Copilot 1.0.34's events (the corpus's web_search) and of
		// a third-party MCP server's tool
		ev(2, "assistant.message", `{"messageId":"m1","content":"","model":"m1","toolRequests":[`+
			`{"toolCallId":"w","name":"web_search","arguments":{"query":"rust docs"},"type":"function","toolTitle":"Web Search","mcpServerName":"github-mcp-server"},`+
			`{"toolCallId":"p","name":"playwright-browser_navigate","arguments":{"url":"https://example.com"},"type":"function"},`+
			`{"toolCallId":"v","name":"view","arguments":{"path":"/w/a.rs"},"type":"function"}]}`),
		ev(3, "tool.execution_start", `{"toolCallId":"w","toolName":"web_search","arguments":{"query":"rust docs"},"mcpServerName":"github-mcp-server","mcpToolName":"web_search"}`),
		ev(4, "tool.execution_start", `{"toolCallId":"p","toolName":"playwright-browser_navigate","arguments":{"url":"https://example.com"},"mcpServerName":"playwright","mcpToolName":"browser_navigate"}`),
		ev(5, "tool.execution_start", `{"toolCallId":"v","toolName":"view","arguments":{"path":"/w/a.rs"}}`),
		ev(6, "tool.execution_complete", `{"toolCallId":"p","success":true,"result":{"content":"ok"}}`),
		// no start: the request's server stands, the tool is its name less the server
		ev(7, "assistant.message", `{"messageId":"m2","content":"","model":"m1","toolRequests":[{"toolCallId":"q","name":"playwright-browser_click","arguments":{},"type":"function","mcpServerName":"playwright"}]}`),
		ev(8, "tool.execution_complete", `{"toolCallId":"q","success":true,"result":{"content":"ok"}}`),
		// a request whose start never comes is still emitted at the end
		ev(9, "assistant.message", `{"messageId":"m3","content":"","model":"m1","toolRequests":[{"toolCallId":"z","name":"bash","arguments":{"command":"ls"},"type":"function"}]}`),
	))
	if st.Errors != 0 {
		t.Errorf("errors %d", st.Errors)
	}
	want := map[string]struct{ name, mcp string }{
		"w": {"WebSearch", "github-mcp-server/web_search"},
		"p": {"mcp__playwright__browser_navigate", "playwright/browser_navigate"},
		"v": {"Read", ""},
		"q": {"mcp__playwright__browser_click", "playwright/browser_click"},
		"z": {"LS", ""},
	}
	calls := map[string]agt.Event{}
	for _, e := range evs {
		if e.Kind == agt.KindToolResult && e.Result.ID == "p" {
			if _, ok := calls["p"]; !ok || e.Result.Call != calls["p"].ID {
				t.Errorf("result of p before its call or not linked: %+v", e.Result)
			}
		}
		if e.Kind != agt.KindToolCall {
			continue
		}
		calls[e.Tool.ID] = e
		if e.Src.Line != map[string]int64{"w": 2, "p": 2, "v": 2, "q": 7, "z": 9}[e.Tool.ID] {
			t.Errorf("%s: src line %d, not its message's", e.Tool.ID, e.Src.Line)
		}
	}
	for id, w := range want {
		e, ok := calls[id]
		if !ok {
			t.Errorf("%s: no call", id)
			continue
		}
		tool := *e.Tool
		canon.NormalizeIn(e.Provider, "", &tool)
		mcp := ""
		if tool.MCP != nil {
			mcp = tool.MCP.Server + "/" + tool.MCP.Tool
		}
		if tool.Name != w.name || mcp != w.mcp {
			t.Errorf("%s: %s mcp %q, want %s mcp %q", id, tool.Name, mcp, w.name, w.mcp)
		}
		if w.mcp != "" && tool.Origin != canon.OriginMCP {
			t.Errorf("%s: origin %s", id, tool.Origin)
		}
	}
}
