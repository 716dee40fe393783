package gemini_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// rowCases are native calls of the provider and their canonical form,
// with inputs shaped like the corpus's; they seed FuzzCanon.
var rowCases = []providertest.RowCase{
	{"gemini", "read_file", `{"file_path":"README.md"}`, "Read", "read", "builtin", `{"file_path":"README.md"}`, ""},
	{"gemini", "read_file", `{"absolute_path":"/r/README.md"}`, "Read", "read", "builtin", `{"file_path":"/r/README.md"}`, ""},
	{"gemini", "read_file", `{"title":"x.txt","kind":"read","locations":[{"path":"/r/x.txt"}]}`, "Read", "read", "builtin", `{"title":"x.txt","kind":"read","locations":[{"path":"/r/x.txt"}],"file_path":"/r/x.txt"}`, ""},
	{"gemini", "read_many_files", `{"paths":["a.go","b.go"]}`, "Read", "read", "builtin", `{"paths":["a.go","b.go"],"file_path":"a.go","files":[{"path":"a.go","op":"read"},{"path":"b.go","op":"read"}]}`, ""},
	{"gemini", "write_file", `{"content":"print(1+1)","file_path":"myapp/hoge.py"}`, "Write", "write", "builtin", `{"content":"print(1+1)","file_path":"myapp/hoge.py"}`, ""},
	{"gemini", "write_file", `{"title":"Writing to hello.txt","kind":"edit","locations":[{"path":"/r/hello.txt"}],"content":[{"type":"diff","path":"/r/hello.txt","oldText":"","newText":"hi\n"}]}`, "Write", "write", "builtin", `{"title":"Writing to hello.txt","kind":"edit","locations":[{"path":"/r/hello.txt"}],"content":"hi\n","file_path":"/r/hello.txt"}`, ""},
	{"gemini", "replace", `{"file_path":"a","old_string":"x","new_string":"y","instruction":"i"}`, "Edit", "write", "builtin", `{"file_path":"a","old_string":"x","new_string":"y","instruction":"i"}`, ""},
	{"gemini", "run_shell_command", `{"command":"ls -F","description":"List files"}`, "LS", "search", "builtin", `{"command":"ls -F","description":"List files"}`, ""},
	{"gemini", "run_shell_command", `{"command":"npm test","dir_path":"web"}`, "Bash", "execute", "builtin", `{"command":"npm test","cwd":"web"}`, ""},
	{"gemini", "run_shell_command", `{"title":"echo hello && ls","kind":"execute"}`, "Bash", "execute", "builtin", `{"title":"echo hello && ls","kind":"execute","command":"echo hello && ls"}`, ""},
	{"gemini", "search_file_content", `{"pattern":"TODO","dir_path":"src","include":"*.go"}`, "Grep", "search", "builtin", `{"pattern":"TODO","path":"src","glob":"*.go"}`, ""},
	{"gemini", "grep_search", `{"pattern":"TODO"}`, "Grep", "search", "builtin", `{"pattern":"TODO"}`, ""},
	{"gemini", "glob", `{"pattern":"**/*.py","dir_path":"src"}`, "Glob", "search", "builtin", `{"pattern":"**/*.py","path":"src"}`, ""},
	{"gemini", "list_directory", `{"dir_path":"."}`, "LS", "search", "builtin", `{"path":"."}`, ""},
	{"gemini", "google_web_search", `{"query":"q"}`, "WebSearch", "fetch", "builtin", `{"query":"q"}`, ""},
	{"gemini", "web_fetch", `{"prompt":"Summarize https://go.dev/doc and list versions"}`, "WebFetch", "fetch", "builtin", `{"prompt":"Summarize https://go.dev/doc and list versions","url":"https://go.dev/doc"}`, ""},
	{"gemini", "write_todos", `{"todos":[{"description":"a","status":"pending"}]}`, "TodoWrite", "plan", "builtin", `{"todos":[{"content":"a","status":"pending"}]}`, ""},
	{"gemini", "save_memory", `{"fact":"f"}`, "save_memory", "write", "builtin", `{"fact":"f"}`, ""},
	{"gemini", "activate_skill", `{"name":"brainstorming"}`, "Skill", "other", "skill", `{"skill":"brainstorming"}`, ""},
	{"gemini", "update_topic", `{"title":"t"}`, "update_topic", "other", "builtin", `{"title":"t"}`, ""},
	{"gemini", "list_issues (github MCP Server)", `{"state":"open"}`, "mcp__github__list_issues", "other", "mcp", `{"state":"open"}`, "github/list_issues"},
	{"gemini", "github__list_issues", `{}`, "mcp__github__list_issues", "other", "mcp", `{}`, "github/list_issues"},
}

func TestCanonRows(t *testing.T) { providertest.CheckRows(t, rowCases) }

func FuzzCanon(f *testing.F) { providertest.FuzzCanon(f, rowCases) }

// renderCases are calls of other providers rendered in the provider's
// layout.
var renderCases = []providertest.RenderCase{
	{"claude", "Read", `{"file_path":"/r/a.go"}`, "gemini", "read_file", `{"file_path":"/r/a.go"}`},
	{"claude", "LS", `{"path":"/r"}`, "gemini", "list_directory", `{"dir_path":"/r"}`},
	{"codex", "update_plan", `{"plan":[{"step":"a","status":"completed"}]}`, "gemini", "write_todos", `{"todos":[{"description":"a","status":"completed"}]}`},
	{"claude", "WebFetch", `{"url":"https://go.dev"}`, "gemini", "web_fetch", `{"prompt":"https://go.dev"}`},
	{"codex", "web_search", `{"type":"search","query":"q"}`, "gemini", "google_web_search", `{"query":"q"}`},
	// a URL the prompt does not hold goes into it (web_fetch takes no url)
	{"claude", "WebFetch", `{"url":"https://go.dev/dl","prompt":"latest version?"}`, "gemini", "web_fetch", `{"prompt":"latest version?\n\nhttps://go.dev/dl"}`},
	{"codex", "exec_command", `{"cmd":"rg -n foo src","workdir":"/r"}`, "gemini", "run_shell_command", `{"command":"rg -n foo src","dir_path":"/r"}`},
	{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: /r/a.go\n@@\n-a\n+b\n*** End Patch"}`, "gemini", "replace", `{"file_path":"/r/a.go","old_string":"a","new_string":"b"}`},
	{"claude", "Skill", `{"skill":"superpowers:brainstorming"}`, "gemini", "activate_skill", `{"name":"brainstorming"}`},
	{"claude", "mcp__linear-server__list_issues", `{"query":"q"}`, "gemini", "linear-server__list_issues", `{"query":"q"}`},
	{"codex", "mcp:skills/brainstorming", `{}`, "gemini", "skills__brainstorming", `{}`},
}

func TestCanonRender(t *testing.T) { providertest.CheckRender(t, renderCases) }

// warnCases are calls Gemini CLI has no tool for: several edits (replace
// takes one).
var warnCases = []providertest.WarnCase{
	{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}`, "gemini"},
	{"claude", "MultiEdit", `{"file_path":"a.ts","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`, "gemini"},
}

func TestCanonWarns(t *testing.T) { providertest.CheckWarns(t, warnCases) }

// mcpCases are the provider's names of providertest.MCPTool.
var mcpCases = []providertest.MCPCase{
	{"github__list_issues", nil}, // Gemini's qualified name
	{"list_issues (github MCP Server)", nil},
}

// TestCanonMCP: the provider's MCP convention gives the canonical call, which
// renders for it as github__list_issues.
func TestCanonMCP(t *testing.T) { providertest.CheckMCP(t, "gemini", "github__list_issues", mcpCases) }

// TestCanonDefaults: the provider has a default row (the one that renders
// the canonical tool) for each of its core tools.
func TestCanonDefaults(t *testing.T) {
	providertest.CheckDefaults(t, "gemini", "Read", "Write", "Edit", "Bash", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "TodoWrite", "Skill", "AskUserQuestion", "ExitPlanMode")
}
