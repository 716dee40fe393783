package goose_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// shellCases: a shell command renders as the provider's shell tool.
var shellCases = []providertest.RenderCase{
	{"claude", "Bash", `{"command":"go test ./...","description":"Run tests"}`, "goose", "shell", `{"command":"go test ./..."}`},
}

func TestCanonShell(t *testing.T) { providertest.CheckRender(t, shellCases) }

// mcpCases are the provider's names of providertest.MCPTool.
var mcpCases = []providertest.MCPCase{
	{"github__list_issues", nil}, // Goose's extension__tool
}

// TestCanonMCP: the provider's MCP convention gives the canonical call, which
// renders for it as github__list_issues.
func TestCanonMCP(t *testing.T) { providertest.CheckMCP(t, "goose", "github__list_issues", mcpCases) }

// TestCanonDefaults: the provider has a default row (the one that renders
// the canonical tool) for each of its core tools.
func TestCanonDefaults(t *testing.T) {
	providertest.CheckDefaults(t, "goose", "Read", "Write", "Edit", "Bash")
}
