package claude_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// rowCases are native calls of the provider and their canonical form,
// with inputs shaped like the corpus's; they seed FuzzCanon.
var rowCases = []providertest.RowCase{
	{"claude", "Read", `{"file_path":"/r/a.ts","offset":1,"limit":200}`, "Read", "read", "builtin", `{"file_path":"/r/a.ts","offset":1,"limit":200}`, ""},
	{"claude", "Write", `{"file_path":"/r/a.md","content":"x\n"}`, "Write", "write", "builtin", `{"file_path":"/r/a.md","content":"x\n"}`, ""},
	{"claude", "Edit", `{"replace_all":false,"file_path":"/r/a","old_string":"a","new_string":"b"}`, "Edit", "write", "builtin", `{"replace_all":false,"file_path":"/r/a","old_string":"a","new_string":"b"}`, ""},
	{"claude", "MultiEdit", `{"file_path":"/r/a","edits":[{"old_string":"a","new_string":"b"}]}`, "Edit", "write", "builtin", `{"file_path":"/r/a","edits":[{"old_string":"a","new_string":"b"}]}`, ""},
	{"claude", "NotebookEdit", `{"notebook_path":"/r/n.ipynb","new_source":"x"}`, "NotebookEdit", "write", "builtin", `{"file_path":"/r/n.ipynb","new_source":"x"}`, ""},
	{"claude", "Bash", `{"command":"go test ./...","description":"Run tests"}`, "Bash", "execute", "builtin", `{"command":"go test ./...","description":"Run tests"}`, ""},
	{"claude", "Grep", `{"pattern":"func main","path":"/r","output_mode":"content","-n":true}`, "Grep", "search", "builtin", `{"pattern":"func main","path":"/r","output_mode":"content","-n":true}`, ""},
	{"claude", "Glob", `{"pattern":"**/*.go"}`, "Glob", "search", "builtin", `{"pattern":"**/*.go"}`, ""},
	{"claude", "WebFetch", `{"url":"https://go.dev","prompt":"version"}`, "WebFetch", "fetch", "builtin", `{"url":"https://go.dev","prompt":"version"}`, ""},
	{"claude", "WebSearch", `{"query":"golang latest version"}`, "WebSearch", "fetch", "builtin", `{"query":"golang latest version"}`, ""},
	{"claude", "Task", `{"description":"d","prompt":"p","subagent_type":"Explore"}`, "Task", "think", "builtin", `{"description":"d","prompt":"p","subagent_type":"Explore"}`, ""},
	{"claude", "Agent", `{"description":"d","prompt":"p","subagent_type":"general-purpose"}`, "Task", "think", "builtin", `{"description":"d","prompt":"p","subagent_type":"general-purpose"}`, ""},
	{"claude", "TodoWrite", `{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}`, "TodoWrite", "plan", "builtin", `{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}`, ""},
	{"claude", "TaskUpdate", `{"taskId":"1","status":"in_progress"}`, "TaskUpdate", "plan", "builtin", `{"taskId":"1","status":"in_progress"}`, ""},
	{"claude", "KillBash", `{"shell_id":"bash_1"}`, "KillShell", "execute", "builtin", `{"shell_id":"bash_1","op":"stop"}`, ""},
	{"claude", "BashOutput", `{"bash_id":"bash_1"}`, "BashOutput", "execute", "builtin", `{"shell_id":"bash_1","op":"poll"}`, ""},
	{"claude", "TaskOutput", `{"task_id":"b2","block":false,"timeout":30000}`, "BashOutput", "execute", "builtin", `{"shell_id":"b2","block":false,"timeout":30000,"op":"poll"}`, ""},
	{"claude", "TaskStop", `{"task_id":"b2"}`, "KillShell", "execute", "builtin", `{"shell_id":"b2","op":"stop"}`, ""},
	{"claude", "AskUserQuestion", `{"questions":[]}`, "AskUserQuestion", "ask", "builtin", `{"questions":[]}`, ""},
	{"claude", "ExitPlanMode", `{"plan":"p"}`, "ExitPlanMode", "plan", "builtin", `{"plan":"p"}`, ""},
	{"claude", "Skill", `{"skill":"superpowers:brainstorming"}`, "Skill", "other", "skill", `{"skill":"brainstorming","plugin":"superpowers"}`, ""},
	{"claude", "Skill", `{"skill":"pdf","args":"x"}`, "Skill", "other", "skill", `{"skill":"pdf","args":"x"}`, ""},
	{"claude", "mcp__linear-server__list_issues", `{"query":"ENT-96"}`, "mcp__linear-server__list_issues", "other", "mcp", `{"query":"ENT-96"}`, "linear-server/list_issues"},
	{"claude", "mcp__ccd_session__mark_chapter", `{}`, "mcp__ccd_session__mark_chapter", "other", "mcp", `{}`, "ccd_session/mark_chapter"},
	{"claude", "bash", `{"command":"ls"}`, "bash", "other", "custom", `{"command":"ls"}`, ""},
}

func TestCanonRows(t *testing.T) { providertest.CheckRows(t, rowCases) }

func FuzzCanon(f *testing.F) { providertest.FuzzCanon(f, rowCases) }

// renderCases are calls of other providers rendered in the provider's
// layout.
var renderCases = []providertest.RenderCase{
	{"opencode", "edit", `{"filePath":"/r/a","oldString":"a","newString":"b","replaceAll":true}`, "claude", "Edit", `{"file_path":"/r/a","old_string":"a","new_string":"b","replace_all":true}`},
	{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"}]}`, "claude", "MultiEdit", `{"file_path":"a.ts","edits":[{"old_string":"a","new_string":"b"}]}`},
	{"copilot", "task", `{"description":"d","prompt":"p","agent_type":"explore"}`, "claude", "Task", `{"description":"d","prompt":"p","subagent_type":"explore"}`},
	{"gemini", "web_fetch", `{"prompt":"Summarize https://go.dev/doc"}`, "claude", "WebFetch", `{"prompt":"Summarize https://go.dev/doc","url":"https://go.dev/doc"}`},
	// shells: command member, argv, cwd
	{"codex", "exec_command", `{"cmd":"cargo test","workdir":"/r","yield_time_ms":1000}`, "claude", "Bash", `{"command":"cd /r && cargo test"}`},
	{"opencode", "apply_patch", `{"patchText":"*** Begin Patch\n*** Add File: a.md\n+# A\n*** End Patch"}`, "claude", "Write", `{"file_path":"a.md","content":"# A\n"}`},
	// a patch of one file for a provider whose edit tools take strings: its
	// hunks as edits (context and removed lines → context and added lines)
	{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: /r/a.go\n@@ func a\n x := 1\n-y := 2\n+y := 3\n*** End Patch"}`, "claude", "Edit", `{"file_path":"/r/a.go","old_string":"x := 1\ny := 2","new_string":"x := 1\ny := 3"}`},
	{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: /r/a.go\n@@\n-a\n+b\n@@\n-c\n+d\n*** End Patch"}`, "claude", "MultiEdit", `{"file_path":"/r/a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`},
	{"opencode", "skill", `{"name":"code-review"}`, "claude", "Skill", `{"skill":"code-review"}`},
	{"pi", "read", `{"path":"/u/.pi/agent/skills/git-commit/SKILL.md"}`, "claude", "Read", `{"file_path":"/u/.pi/agent/skills/git-commit/SKILL.md"}`},
	{"opencode", "context7_resolve-library-id", `{"libraryName":"x"}`, "claude", "mcp__context7__resolve-library-id", `{"libraryName":"x"}`},
	{"codex", "mcp:skills/brainstorming", `{}`, "claude", "mcp__skills__brainstorming", `{}`},
	{"copilot", "github-mcp-server-web_search", `{"query":"q"}`, "claude", "WebSearch", `{"query":"q"}`},
	// background shells
	{"codex", "write_stdin", `{"session_id":1,"chars":""}`, "claude", "BashOutput", `{"bash_id":"1"}`},
	// no counterpart: the canonical name and input stay
	{"copilot", "write_bash", `{"shellId":"s1","input":"y\n"}`, "claude", "write_stdin", `{"shell_id":"s1","chars":"y\n","op":"write"}`},
	{"pi", "subagent", `{"action":"list"}`, "claude", "subagent", `{"action":"list"}`},
}

func TestCanonRender(t *testing.T) { providertest.CheckRender(t, renderCases) }

// warnCases are calls Claude Code has no tool for: a patch of several
// files.
var warnCases = []providertest.WarnCase{
	{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: a.go\n@@\n-a\n+b\n*** Update File: b.go\n@@\n-c\n+d\n*** End Patch"}`, "claude"},
}

func TestCanonWarns(t *testing.T) { providertest.CheckWarns(t, warnCases) }

// mcpCases are the provider's names of providertest.MCPTool.
var mcpCases = []providertest.MCPCase{
	{"mcp__github__list_issues", nil},
}

// TestCanonMCP: the provider's MCP convention gives the canonical call, which
// renders for it as mcp__github__list_issues.
func TestCanonMCP(t *testing.T) {
	providertest.CheckMCP(t, "claude", "mcp__github__list_issues", mcpCases)
}

// TestCanonDefaults: the provider has a default row (the one that renders
// the canonical tool) for each of its core tools.
func TestCanonDefaults(t *testing.T) {
	providertest.CheckDefaults(t, "claude", "Read", "Write", "Edit", "Bash", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "Task", "TodoWrite", "Skill", "AskUserQuestion", "ExitPlanMode")
}
