package copilot_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
)

// rowCases are native calls of the provider and their canonical form,
// with inputs shaped like the corpus's; they seed FuzzCanon.
var rowCases = []providertest.RowCase{
	{"copilot", "bash", `{"command":"cargo build","description":"Build","sessionId":"main","async":false}`, "Bash", "execute", "builtin", `{"command":"cargo build","description":"Build","sessionId":"main","async":false}`, ""},
	{"copilot", "view", `{"path":"/r/a.rs","view_range":[1,150]}`, "Read", "read", "builtin", `{"file_path":"/r/a.rs","view_range":[1,150]}`, ""},
	{"copilot", "create", `{"path":"/r/a.md","file_text":"x"}`, "Write", "write", "builtin", `{"file_path":"/r/a.md","content":"x"}`, ""},
	{"copilot", "edit", `{"path":"/r/a.md","old_str":"a","new_str":"b"}`, "Edit", "write", "builtin", `{"file_path":"/r/a.md","old_string":"a","new_string":"b"}`, ""},
	{"copilot", "str_replace_editor", `{"command":"view","path":"/r"}`, "Read", "read", "builtin", `{"command":"view","file_path":"/r"}`, ""},
	{"copilot", "str_replace_editor", `{"command":"create","path":"/r/a","file_text":"x"}`, "Write", "write", "builtin", `{"command":"create","file_path":"/r/a","content":"x"}`, ""},
	{"copilot", "str_replace_editor", `{"command":"str_replace","path":"/r/a","old_str":"a","new_str":"b"}`, "Edit", "write", "builtin", `{"command":"str_replace","file_path":"/r/a","old_string":"a","new_string":"b"}`, ""},
	{"copilot", "str_replace_editor", `{"command":"insert","path":"/r/a","insert_line":3,"new_str":"b"}`, "Edit", "write", "builtin", `{"command":"insert","file_path":"/r/a","insert_line":3,"new_string":"b"}`, ""},
	{"copilot", "web_search", `{"query":"q"}`, "WebSearch", "fetch", "builtin", `{"query":"q"}`, ""},
	{"copilot", "github-mcp-server-web_search", `{"query":"q"}`, "WebSearch", "fetch", "mcp", `{"query":"q"}`, "github-mcp-server/web_search"},
	{"copilot", "github-mcp-server-list_issues", `{"owner":"o"}`, "mcp__github-mcp-server__list_issues", "other", "mcp", `{"owner":"o"}`, "github-mcp-server/list_issues"},
	{"copilot", "skill", `{"skill":"brainstorming"}`, "Skill", "other", "skill", `{"skill":"brainstorming"}`, ""},
	{"copilot", "Using skill: brainstorming", ``, "Skill", "other", "skill", `{"skill":"brainstorming"}`, ""},
	{"copilot", "task", `{"description":"d","prompt":"p","agent_type":"explore"}`, "Task", "think", "builtin", `{"description":"d","prompt":"p","subagent_type":"explore"}`, ""},
	{"copilot", "ask_user", `{"question":"q","choices":["a"]}`, "AskUserQuestion", "ask", "builtin", `{"question":"q","choices":["a"]}`, ""},
	{"copilot", "report_intent", `{"intent":"Creating test file"}`, "report_intent", "think", "builtin", `{"intent":"Creating test file"}`, ""},
	// background shells
	{"copilot", "read_bash", `{"shellId":"1","delay":10}`, "BashOutput", "execute", "builtin", `{"shell_id":"1","delay":10,"op":"poll"}`, ""},
	{"copilot", "write_bash", `{"shellId":"1","input":"{enter}","delay":5}`, "write_stdin", "execute", "builtin", `{"shell_id":"1","chars":"{enter}","delay":5,"op":"write"}`, ""},
	{"copilot", "stop_bash", `{"shellId":"1"}`, "KillShell", "execute", "builtin", `{"shell_id":"1","op":"stop"}`, ""},
	{"copilot", "list_bash", `{}`, "list_bash", "execute", "builtin", `{"op":"list"}`, ""},
	{"copilot", "read_bash", `{"sessionId":"main","delay":5}`, "BashOutput", "execute", "builtin", `{"shell_id":"main","delay":5,"op":"poll"}`, ""},
	// AgentV's variants
	{"copilot", "Read File", `{"path":"/r/a.ts"}`, "Read", "read", "builtin", `{"file_path":"/r/a.ts"}`, ""},
	{"copilot", "readFile", `{"path":"/r/a.ts","line":1,"limit":50}`, "Read", "read", "builtin", `{"file_path":"/r/a.ts","line":1,"limit":50}`, ""},
	{"copilot", "readTextFile", `{"sessionId":"s","path":"/r/a.ts"}`, "Read", "read", "builtin", `{"sessionId":"s","file_path":"/r/a.ts"}`, ""},
	{"copilot", "Viewing /r/src/a.ts", ``, "Read", "read", "builtin", `{"file_path":"/r/src/a.ts"}`, ""},
	{"copilot", "writeTextFile", `{"path":"/r/a.md","content":"x"}`, "Write", "write", "builtin", `{"file_path":"/r/a.md","content":"x"}`, ""},
	{"copilot", "Write File", `{"path":"/r/a.md","file_text":"x"}`, "Write", "write", "builtin", `{"file_path":"/r/a.md","content":"x"}`, ""},
	{"copilot", "editFile", `{"path":"/r/a","old_str":"a","new_str":"b"}`, "Edit", "write", "builtin", `{"file_path":"/r/a","old_string":"a","new_string":"b"}`, ""},
	{"copilot", "Edit File", `{"filePath":"/r/a","oldText":"a","newText":"b"}`, "Edit", "write", "builtin", `{"file_path":"/r/a","old_string":"a","new_string":"b"}`, ""},
	{"copilot", "runTerminalCommand", `{"command":"npm test"}`, "Bash", "execute", "builtin", `{"command":"npm test"}`, ""},
	// skills: the same skill as in the other providers' logs (canon's TestSameSkillEverywhere)
	{"copilot", "view", `{"path":"/home/u/proj/README.md"}`, "Read", "read", "builtin", `{"file_path":"/home/u/proj/README.md"}`, ""},
}

func TestCanonRows(t *testing.T) { providertest.CheckRows(t, rowCases) }

func FuzzCanon(f *testing.F) { providertest.FuzzCanon(f, rowCases) }

// renderCases are calls of other providers rendered in the provider's
// layout.
var renderCases = []providertest.RenderCase{
	{"claude", "Read", `{"file_path":"/r/a.go"}`, "copilot", "view", `{"path":"/r/a.go"}`},
	{"pi", "write", `{"path":"a.txt","content":"x\n"}`, "copilot", "create", `{"path":"a.txt","file_text":"x\n"}`},
	{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"}]}`, "copilot", "edit", `{"path":"a.ts","old_str":"a","new_str":"b"}`},
	{"codex", "shell", `{"command":["bash","-lc","make"]}`, "copilot", "bash", `{"command":"make"}`},
	// several edits for Copilot: its apply_patch
	{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}`, "copilot", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n@@\n-c\n+d\n*** End Patch"}`},
	// skills
	{"claude", "Skill", `{"skill":"superpowers:brainstorming"}`, "copilot", "skill", `{"skill":"brainstorming"}`},
	{"claude", "mcp__linear-server__list_issues", `{"query":"q"}`, "copilot", "linear-server-list_issues", `{"query":"q"}`},
	{"claude", "BashOutput", `{"bash_id":"b1"}`, "copilot", "read_bash", `{"shellId":"b1"}`},
	{"claude", "TaskStop", `{"task_id":"b1"}`, "copilot", "stop_bash", `{"shellId":"b1"}`},
}

func TestCanonRender(t *testing.T) { providertest.CheckRender(t, renderCases) }

// mcpCases are the provider's names of providertest.MCPTool.
var mcpCases = []providertest.MCPCase{
	{"list_issues", &agt.MCP{Server: "github", Tool: "list_issues"}}, // mcpServerName/mcpToolName
}

// TestCanonMCP: the provider's MCP convention gives the canonical call, which
// renders for it as github-list_issues.
func TestCanonMCP(t *testing.T) { providertest.CheckMCP(t, "copilot", "github-list_issues", mcpCases) }

// TestCanonDefaults: the provider has a default row (the one that renders
// the canonical tool) for each of its core tools.
func TestCanonDefaults(t *testing.T) {
	providertest.CheckDefaults(t, "copilot", "Read", "Write", "Edit", "Bash", "Grep", "Glob", "WebFetch", "WebSearch", "Task", "TodoWrite", "Skill", "AskUserQuestion")
}
