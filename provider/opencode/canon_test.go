package opencode_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// rowCases are native calls of the provider and their canonical form,
// with inputs shaped like the corpus's; they seed FuzzCanon.
var rowCases = []providertest.RowCase{
	{"opencode", "bash", `{"command":"npx tsc --noEmit","workdir":"/r","timeout":30000}`, "Bash", "execute", "builtin", `{"command":"npx tsc --noEmit","cwd":"/r","timeout":30000}`, ""},
	{"opencode", "read", `{"filePath":"/r/a.mjs","offset":45,"limit":30}`, "Read", "read", "builtin", `{"file_path":"/r/a.mjs","offset":45,"limit":30}`, ""},
	{"opencode", "write", `{"filePath":"/r/a","content":"x"}`, "Write", "write", "builtin", `{"file_path":"/r/a","content":"x"}`, ""},
	{"opencode", "edit", `{"filePath":"/r/a","oldString":"a","newString":"b","replaceAll":true}`, "Edit", "write", "builtin", `{"file_path":"/r/a","old_string":"a","new_string":"b","replace_all":true}`, ""},
	{"opencode", "multiedit", `{"filePath":"/r/a","edits":[{"filePath":"/r/a","oldString":"a","newString":"b"}]}`, "Edit", "write", "builtin", `{"file_path":"/r/a","edits":[{"file_path":"/r/a","old_string":"a","new_string":"b"}]}`, ""},
	{"opencode", "apply_patch", `{"patchText":"*** Begin Patch\n*** Add File: a.md\n+# A\n*** End Patch"}`, "Write", "write", "builtin", `{"patch":"*** Begin Patch\n*** Add File: a.md\n+# A\n*** End Patch","file_path":"a.md","files":[{"path":"a.md","op":"add"}],"content":"# A\n"}`, ""},
	{"opencode", "grep", `{"pattern":"x","include":"*.tsx"}`, "Grep", "search", "builtin", `{"pattern":"x","glob":"*.tsx"}`, ""},
	{"opencode", "list", `{"path":"/r"}`, "LS", "search", "builtin", `{"path":"/r"}`, ""},
	{"opencode", "todowrite", `{"todos":[{"content":"a","status":"pending","priority":"high"}]}`, "TodoWrite", "plan", "builtin", `{"todos":[{"content":"a","status":"pending","priority":"high"}]}`, ""},
	{"opencode", "skill", `{"name":"code-review"}`, "Skill", "other", "skill", `{"skill":"code-review"}`, ""},
	{"opencode", "question", `{"questions":[]}`, "AskUserQuestion", "ask", "builtin", `{"questions":[]}`, ""},
	{"opencode", "task", `{"description":"d","prompt":"p","subagent_type":"general"}`, "Task", "think", "builtin", `{"description":"d","prompt":"p","subagent_type":"general"}`, ""},
	{"opencode", "exa_web_search_exa", `{"query":"q"}`, "mcp__exa__web_search_exa", "other", "mcp", `{"query":"q"}`, "exa/web_search_exa"},
	{"opencode", "context7_resolve-library-id", `{"libraryName":"react-email"}`, "mcp__context7__resolve-library-id", "other", "mcp", `{"libraryName":"react-email"}`, "context7/resolve-library-id"},
	{"opencode", "invalid", `{"tool":"bash","error":"e"}`, "invalid", "other", "builtin", `{"tool":"bash","error":"e"}`, ""},
}

func TestCanonRows(t *testing.T) { providertest.CheckRows(t, rowCases) }

func FuzzCanon(f *testing.F) { providertest.FuzzCanon(f, rowCases) }

// renderCases are calls of other providers rendered in the provider's
// layout.
var renderCases = []providertest.RenderCase{
	{"claude", "Read", `{"file_path":"/r/a.go"}`, "opencode", "read", `{"filePath":"/r/a.go"}`},
	{"claude", "MultiEdit", `{"file_path":"a.ts","edits":[{"old_string":"a","new_string":"b"}]}`, "opencode", "multiedit", `{"filePath":"a.ts","edits":[{"oldString":"a","newString":"b"}]}`},
	{"gemini", "grep_search", `{"pattern":"TODO","dir_path":"src","include":"*.go"}`, "opencode", "grep", `{"pattern":"TODO","path":"src","include":"*.go"}`},
	{"gemini", "run_shell_command", `{"command":"npm test","dir_path":"web"}`, "opencode", "bash", `{"command":"npm test","workdir":"web"}`},
	{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Delete File: a.go\n*** End Patch"}`, "opencode", "apply_patch", `{"patchText":"*** Begin Patch\n*** Delete File: a.go\n*** End Patch"}`},
	{"copilot", "Using skill: brainstorming", ``, "opencode", "skill", `{"name":"brainstorming"}`},
	// MCP tools in each convention
	{"claude", "mcp__linear-server__list_issues", `{"query":"q"}`, "opencode", "linear-server_list_issues", `{"query":"q"}`},
}

func TestCanonRender(t *testing.T) { providertest.CheckRender(t, renderCases) }

// mcpCases are the provider's names of providertest.MCPTool.
var mcpCases = []providertest.MCPCase{
	{"github_list_issues", nil},
}

// TestCanonMCP: the provider's MCP convention gives the canonical call, which
// renders for it as github_list_issues.
func TestCanonMCP(t *testing.T) { providertest.CheckMCP(t, "opencode", "github_list_issues", mcpCases) }

// TestCanonDefaults: the provider has a default row (the one that renders
// the canonical tool) for each of its core tools.
func TestCanonDefaults(t *testing.T) {
	providertest.CheckDefaults(t, "opencode", "Read", "Write", "Edit", "Bash", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "Task", "TodoWrite", "Skill", "AskUserQuestion", "ExitPlanMode")
}
