package qwen_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// shellCases: a shell command renders as the provider's shell tool.
var shellCases = []providertest.RenderCase{
	{"claude", "Bash", `{"command":"go test ./...","description":"Run tests"}`, "qwen", "run_shell_command", `{"command":"go test ./...","description":"Run tests"}`},
}

func TestCanonShell(t *testing.T) { providertest.CheckRender(t, shellCases) }

// mcpCases are the provider's names of providertest.MCPTool.
var mcpCases = []providertest.MCPCase{
	{"mcp__github__list_issues", nil},
	{"list_issues (github MCP Server)", nil},
}

// TestCanonMCP: the provider's MCP convention gives the canonical call, which
// renders for it as mcp__github__list_issues.
func TestCanonMCP(t *testing.T) {
	providertest.CheckMCP(t, "qwen", "mcp__github__list_issues", mcpCases)
}
