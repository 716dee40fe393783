package cline_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// shellCases: a shell command renders as the provider's shell tool.
var shellCases = []providertest.RenderCase{
	{"claude", "Bash", `{"command":"go test ./...","description":"Run tests"}`, "cline", "execute_command", `{"command":"go test ./..."}`},
}

func TestCanonShell(t *testing.T) { providertest.CheckRender(t, shellCases) }

// TestCanonMCP: the canonical MCP call renders for the provider as
// mcp__github__list_issues.
func TestCanonMCP(t *testing.T) { providertest.CheckMCP(t, "cline", "mcp__github__list_issues", nil) }

// TestCanonDefaults: the provider has a default row (the one that renders
// the canonical tool) for each of its core tools.
func TestCanonDefaults(t *testing.T) {
	providertest.CheckDefaults(t, "cline", "Read", "Write", "Edit", "Bash", "Grep", "LS", "WebFetch", "Task", "Skill")
}
