package pi_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// rowCases are native calls of the provider and their canonical form,
// with inputs shaped like the corpus's; they seed FuzzCanon.
var rowCases = []providertest.RowCase{
	{"pi", "read", `{"path":"src/a.ts","offset":1,"limit":220}`, "Read", "read", "builtin", `{"file_path":"src/a.ts","offset":1,"limit":220}`, ""},
	{"pi", "write", `{"path":"a.txt","content":"x"}`, "Write", "write", "builtin", `{"file_path":"a.txt","content":"x"}`, ""},
	{"pi", "edit", `{"path":"a.ts","oldText":"a","newText":"b"}`, "Edit", "write", "builtin", `{"file_path":"a.ts","old_string":"a","new_string":"b"}`, ""},
	{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"}]}`, "Edit", "write", "builtin", `{"file_path":"a.ts","edits":[{"old_string":"a","new_string":"b"}]}`, ""},
	{"pi", "bash", `{"command":"ls -la","timeout":20}`, "LS", "search", "builtin", `{"command":"ls -la","timeout":20}`, ""},
	{"pi", "bashExecution", `{"command":"npm run check"}`, "Bash", "execute", "builtin", `{"command":"npm run check"}`, ""},
	{"pi", "grep", `{"pattern":"x","path":"docs","glob":"**/*.md","ignoreCase":true}`, "Grep", "search", "builtin", `{"pattern":"x","path":"docs","glob":"**/*.md","ignoreCase":true}`, ""},
	{"pi", "find", `{"path":"pi","pattern":"**/SKILL.md"}`, "Glob", "search", "builtin", `{"path":"pi","pattern":"**/SKILL.md"}`, ""},
	{"pi", "ls", `{"path":"frontend"}`, "LS", "search", "builtin", `{"path":"frontend"}`, ""},
	{"pi", "webfetch", `{"url":"https://x","format":"markdown"}`, "WebFetch", "fetch", "custom", `{"url":"https://x","format":"markdown"}`, ""},
	{"pi", "ask_user_question", `{"question":"q","options":[]}`, "AskUserQuestion", "ask", "custom", `{"question":"q","options":[]}`, ""},
	{"pi", "subagent", `{"action":"list"}`, "subagent", "other", "custom", `{"action":"list"}`, ""},
	{"pi", "check_ste_file", `{"file_path":"a.md"}`, "check_ste_file", "other", "custom", `{"file_path":"a.md"}`, ""},
	// touching a SKILL.md is not loading the skill
	{"pi", "write", `{"path":"pi/skills/meta/skill-creator/SKILL.md","content":"x"}`, "Write", "write", "builtin", `{"file_path":"pi/skills/meta/skill-creator/SKILL.md","content":"x"}`, ""},
	{"pi", "edit", `{"path":"pi/skills/meta/skill-creator/SKILL.md","oldText":"a","newText":"b"}`, "Edit", "write", "builtin", `{"file_path":"pi/skills/meta/skill-creator/SKILL.md","old_string":"a","new_string":"b"}`, ""},
	{"pi", "bash", `{"command":"cd pi/skills/search/brave-search && ./read.sh \"https://raw.githubusercontent.com/anthropics/skills/main/skills/skill-creator/SKILL.md\""}`, "Bash", "execute", "builtin", `{"command":"cd pi/skills/search/brave-search && ./read.sh \"https://raw.githubusercontent.com/anthropics/skills/main/skills/skill-creator/SKILL.md\""}`, ""},
}

func TestCanonRows(t *testing.T) { providertest.CheckRows(t, rowCases) }

func FuzzCanon(f *testing.F) { providertest.FuzzCanon(f, rowCases) }

// renderCases are calls of other providers rendered in the provider's
// layout.
var renderCases = []providertest.RenderCase{
	// renames undone in the target's layout
	{"claude", "Read", `{"file_path":"/r/a.go","offset":10,"limit":20}`, "pi", "read", `{"path":"/r/a.go","offset":10,"limit":20}`},
	{"claude", "Edit", `{"file_path":"/r/a","old_string":"a","new_string":"b"}`, "pi", "edit", `{"path":"/r/a","oldText":"a","newText":"b"}`},
	{"codex", "command_execution", `{"command":"/bin/bash -lc 'npm test'"}`, "pi", "bash", `{"command":"npm test"}`},
}

func TestCanonRender(t *testing.T) { providertest.CheckRender(t, renderCases) }

// pathCases are file tools' calls in a session folder: a relative path is
// joined to the call's working folder; home, absolute and drive-letter
// paths stay.
var pathCases = []providertest.PathCase{
	{"pi", "read", `{"path":"src/a.ts"}`, "/w", "file_path", "/w/src/a.ts"},
	{"pi", "edit", `{"path":"./b.py","oldText":"a","newText":"b"}`, "/w", "file_path", "/w/b.py"},
	{"pi", "grep", `{"pattern":"x","path":"pkg"}`, "/w", "path", "/w/pkg"},
	{"pi", "read", `{"path":"~/.pi/t.json"}`, "/w", "file_path", "~/.pi/t.json"},
	{"pi", "read", `{"path":"/abs/a.ts"}`, "/w", "file_path", "/abs/a.ts"},
	{"pi", "read", `{"path":"C:\\x\\a.ts"}`, "/w", "file_path", `C:\x\a.ts`},
	{"pi", "read", `{"path":"src/a.ts"}`, "", "file_path", "src/a.ts"},
}

func TestCanonPaths(t *testing.T) { providertest.CheckPaths(t, pathCases) }

// warnCases are calls Pi has no tool for.
var warnCases = []providertest.WarnCase{
	{"codex", "write_stdin", `{"session_id":1,"chars":""}`, "pi"},
}

func TestCanonWarns(t *testing.T) { providertest.CheckWarns(t, warnCases) }

// mcpCases are the provider's names of providertest.MCPTool.
var mcpCases = []providertest.MCPCase{
	{"mcp__github__list_issues", nil},
}

// TestCanonMCP: the provider's MCP convention gives the canonical call, which
// renders for it as mcp__github__list_issues.
func TestCanonMCP(t *testing.T) { providertest.CheckMCP(t, "pi", "mcp__github__list_issues", mcpCases) }

// TestCanonDefaults: the provider has a default row (the one that renders
// the canonical tool) for each of its core tools.
func TestCanonDefaults(t *testing.T) {
	providertest.CheckDefaults(t, "pi", "Read", "Write", "Edit", "Bash", "Grep", "Glob", "LS")
}
