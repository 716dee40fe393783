package crush_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// shellCases: a shell command renders as the provider's shell tool.
var shellCases = []providertest.RenderCase{
	{"claude", "Bash", `{"command":"go test ./...","description":"Run tests"}`, "crush", "bash", `{"command":"go test ./...","description":"Run tests"}`},
}

func TestCanonShell(t *testing.T) { providertest.CheckRender(t, shellCases) }

// mcpCases are the provider's names of providertest.MCPTool.
var mcpCases = []providertest.MCPCase{
	{"mcp_github_list_issues", nil},
}

// TestCanonMCP: the provider's MCP convention gives the canonical call, which
// renders for it as mcp_github_list_issues.
func TestCanonMCP(t *testing.T) {
	providertest.CheckMCP(t, "crush", "mcp_github_list_issues", mcpCases)
}
