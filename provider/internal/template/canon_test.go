package template_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// The template's canonical tool cases: a provider's own calls and their
// canonical form (rowCases, which seed FuzzCanon), calls of other
// providers rendered in its layout (renderCases), its name of an MCP
// server's tool (mcpCases), the core tools it must have a default row for.

var rowCases = []providertest.RowCase{
	{"template", "open_file", `{"filename":"a.go"}`, "Read", "read", "builtin", `{"file_path":"a.go"}`, ""},
	{"template", "run", `{"command":"go test ./..."}`, "Bash", "execute", "builtin", `{"command":"go test ./..."}`, ""},
	{"template", "run", `{"command":"cat a.go"}`, "Read", "read", "builtin", `{"command":"cat a.go","file_path":"a.go"}`, ""},
	{"template", "docs::search", `{"q":"x"}`, "mcp__docs__search", "other", "mcp", `{"q":"x"}`, "docs/search"},
}

func TestCanonRows(t *testing.T) { providertest.CheckRows(t, rowCases) }

func FuzzCanon(f *testing.F) { providertest.FuzzCanon(f, rowCases) }

var renderCases = []providertest.RenderCase{
	{"claude", "Read", `{"file_path":"/r/a.go"}`, "template", "open_file", `{"filename":"/r/a.go"}`},
	{"claude", "Bash", `{"command":"go test ./...","description":"Run tests"}`, "template", "run", `{"command":"go test ./..."}`},
}

func TestCanonRender(t *testing.T) { providertest.CheckRender(t, renderCases) }

var mcpCases = []providertest.MCPCase{
	{"github::list_issues", nil},
}

func TestCanonMCP(t *testing.T) {
	providertest.CheckMCP(t, "template", "github::list_issues", mcpCases)
}

func TestCanonDefaults(t *testing.T) { providertest.CheckDefaults(t, "template", "Read", "Bash") }
