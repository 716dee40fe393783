package canon_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
)

// TestMCPNames: every provider's MCP convention gives the same canonical
// name and mcp, and renders back in its own convention.
func TestMCPNames(t *testing.T) {
	cases := []struct {
		provider, native string
		preset           *agt.MCP
	}{
		{"claude", "mcp__github__list_issues", nil},
		{"codex", "mcp__github__list_issues", nil}, // function_call namespace mcp__github + name list_issues
		{"codex", "mcp:github/list_issues", nil},   // Codex's display of the call
		{"gemini", "github__list_issues", nil},     // Gemini's qualified name
		{"gemini", "list_issues (github MCP Server)", nil},
		{"opencode", "github_list_issues", nil},
		{"copilot", "list_issues", &agt.MCP{Server: "github", Tool: "list_issues"}}, // mcpServerName/mcpToolName
		{"pi", "mcp__github__list_issues", nil},
		{"crush", "mcp_github_list_issues", nil},
		{"qwen", "mcp__github__list_issues", nil},
		{"qwen", "list_issues (github MCP Server)", nil},
		{"goose", "github__list_issues", nil}, // Goose's extension__tool
	}
	out := map[string]string{"claude": "mcp__github__list_issues", "codex": "mcp__github__list_issues", "gemini": "github__list_issues",
		"opencode": "github_list_issues", "copilot": "github-list_issues", "pi": "mcp__github__list_issues", "crush": "mcp_github_list_issues",
		"qwen": "mcp__github__list_issues", "continue": "github_list_issues", "goose": "github__list_issues", "cline": "mcp__github__list_issues"}
	for _, c := range cases {
		tool := &agt.Tool{NativeName: c.native, NativeInput: agt.Raw(`{"state":"open"}`), MCP: c.preset}
		canon.Normalize(c.provider, tool)
		if tool.Name != "mcp__github__list_issues" || tool.Origin != "mcp" || tool.Kind != "other" || tool.MCP == nil || *tool.MCP != (agt.MCP{Server: "github", Tool: "list_issues"}) {
			t.Errorf("%s %s: %+v", c.provider, c.native, tool)
			continue
		}
		for _, to := range providers {
			if name, _ := canon.Render(to, "", tool); name != out[to] {
				t.Errorf("%s %s → %s: %s, want %s", c.provider, c.native, to, name, out[to])
			}
		}
		if name, _ := canon.Render(c.provider, c.provider, tool); name != c.native {
			t.Errorf("%s %s: round trip gave %s", c.provider, c.native, name)
		}
	}
}
