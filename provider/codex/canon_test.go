package codex_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
	"github.com/agt-project/agt/provider/providertest"
)

// rowCases are native calls of the provider and their canonical form,
// with inputs shaped like the corpus's; they seed FuzzCanon.
var rowCases = []providertest.RowCase{
	{"codex", "exec_command", `{"cmd":"cargo test","workdir":"/r","yield_time_ms":10000,"max_output_tokens":20000}`, "Bash", "execute", "builtin", `{"command":"cargo test","cwd":"/r","yield_time_ms":10000,"max_output_tokens":20000}`, ""},
	{"codex", "exec_command", `{"cmd":"sed -n '1,220p' README.md","workdir":"/r"}`, "Read", "read", "builtin", `{"command":"sed -n '1,220p' README.md","cwd":"/r","file_path":"/r/README.md"}`, ""},
	{"codex", "shell", `{"command":["bash","-lc","rg -n foo src"],"workdir":"/r"}`, "Grep", "search", "builtin", `{"command":"rg -n foo src","cwd":"/r","pattern":"foo","path":"/r/src"}`, ""},
	{"codex", "shell", `{"command":["ls"]}`, "LS", "search", "builtin", `{"command":"ls"}`, ""},
	{"codex", "shell", `{"command":["git","commit","-m","a b"]}`, "Bash", "execute", "builtin", `{"command":"git commit -m 'a b'"}`, ""},
	{"codex", "shell_command", `{"command":"mkdir -p myapp","workdir":"/r"}`, "Bash", "execute", "builtin", `{"command":"mkdir -p myapp","cwd":"/r"}`, ""},
	{"codex", "local_shell", `{"type":"exec","command":["bash","-lc","make"],"working_directory":"/r"}`, "Bash", "execute", "builtin", `{"type":"exec","command":"make","cwd":"/r"}`, ""},
	{"codex", "command_execution", `{"command":"/bin/bash -lc 'echo hello && ls'"}`, "Bash", "execute", "builtin", `{"command":"echo hello && ls"}`, ""},
	{"codex", "command_execution", `{"command":"/bin/bash -lc 'npm test'"}`, "Bash", "execute", "builtin", `{"command":"npm test"}`, ""},
	{"codex", "write_stdin", `{"session_id":1,"chars":""}`, "BashOutput", "execute", "builtin", `{"shell_id":1,"chars":"","op":"poll"}`, ""},
	{"codex", "write_stdin", `{"session_id":63877,"chars":"","yield_time_ms":30000,"max_output_tokens":4000}`, "BashOutput", "execute", "builtin", `{"shell_id":63877,"chars":"","yield_time_ms":30000,"max_output_tokens":4000,"op":"poll"}`, ""},
	{"codex", "write_stdin", `{"session_id":1,"chars":"q"}`, "write_stdin", "execute", "builtin", `{"shell_id":1,"chars":"q","op":"write"}`, ""},
	// apply_patch through the shell (older rollouts): argv, bash -lc heredoc, exec_command
	{"codex", "shell", `{"command":["apply_patch","*** Begin Patch\n*** Update File: src/a.go\n@@\n-x\n+y\n*** End Patch\n"],"workdir":"/r"}`, "Edit", "write", "builtin", `{"command":"apply_patch '*** Begin Patch\n*** Update File: src/a.go\n@@\n-x\n+y\n*** End Patch\n'","cwd":"/r","patch":"*** Begin Patch\n*** Update File: src/a.go\n@@\n-x\n+y\n*** End Patch\n","file_path":"/r/src/a.go","files":[{"path":"/r/src/a.go","op":"update","edits":[{"old_string":"x","new_string":"y"}]}],"old_string":"x","new_string":"y"}`, ""},
	{"codex", "shell", `{"command":["bash","-lc","apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: b.md\n+hi\n*** End Patch\nEOF"],"workdir":"/r"}`, "Write", "write", "builtin", `{"command":"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: b.md\n+hi\n*** End Patch\nEOF","cwd":"/r","patch":"*** Begin Patch\n*** Add File: b.md\n+hi\n*** End Patch","file_path":"/r/b.md","files":[{"path":"/r/b.md","op":"add"}],"content":"hi\n"}`, ""},
	{"codex", "exec_command", `{"cmd":"cd web && apply_patch <<'PATCH'\n*** Begin Patch\n*** Delete File: old.ts\n*** Update File: x.ts\n*** Move to: y.ts\n@@\n-a\n+b\n*** End Patch\nPATCH","workdir":"/r"}`, "Edit", "write", "builtin", `{"command":"cd web && apply_patch <<'PATCH'\n*** Begin Patch\n*** Delete File: old.ts\n*** Update File: x.ts\n*** Move to: y.ts\n@@\n-a\n+b\n*** End Patch\nPATCH","cwd":"/r","patch":"*** Begin Patch\n*** Delete File: old.ts\n*** Update File: x.ts\n*** Move to: y.ts\n@@\n-a\n+b\n*** End Patch","file_path":"/r/web/old.ts","files":[{"path":"/r/web/old.ts","op":"delete"},{"path":"/r/web/x.ts","op":"update","move_to":"/r/web/y.ts","edits":[{"old_string":"a","new_string":"b"}]}]}`, ""},
	{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch"}`, "Edit", "write", "builtin", `{"patch":"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch","file_path":"a.go","files":[{"path":"a.go","op":"update","edits":[{"old_string":"x","new_string":"y"}]}],"old_string":"x","new_string":"y"}`, ""},
	{"codex", "apply_patch", `{"input":"*** Begin Patch\n*** Delete File: a.go\n*** End Patch"}`, "Edit", "write", "builtin", `{"patch":"*** Begin Patch\n*** Delete File: a.go\n*** End Patch","file_path":"a.go","files":[{"path":"a.go","op":"delete"}]}`, ""},
	{"codex", "apply_patch", `{"changes":{"/r/a.txt":{"type":"update","unified_diff":"@@","move_path":"/r/b.txt"}}}`, "Edit", "write", "builtin", `{"changes":{"/r/a.txt":{"type":"update","unified_diff":"@@","move_path":"/r/b.txt"}},"file_path":"/r/a.txt","files":[{"path":"/r/a.txt","op":"update","move_to":"/r/b.txt"}]}`, ""},
	{"codex", "file_change", `{"changes":[{"path":"/r/hello.txt","kind":"add"}]}`, "Write", "write", "builtin", `{"changes":[{"path":"/r/hello.txt","kind":"add"}],"file_path":"/r/hello.txt","files":[{"path":"/r/hello.txt","op":"add"}]}`, ""},
	{"codex", "update_plan", `{"plan":[{"step":"a","status":"completed"}],"explanation":"e"}`, "TodoWrite", "plan", "builtin", `{"todos":[{"content":"a","status":"completed"}],"explanation":"e"}`, ""},
	{"codex", "todo_list", `{"items":[{"text":"a","completed":false}]}`, "TodoWrite", "plan", "builtin", `{"todos":[{"content":"a","completed":false}]}`, ""},
	{"codex", "web_search", `{"type":"search","query":"q","queries":["q"]}`, "WebSearch", "fetch", "builtin", `{"query":"q","queries":["q"]}`, ""},
	{"codex", "web_search", `{"type":"open_page","url":"https://x"}`, "WebFetch", "fetch", "builtin", `{"type":"open_page","url":"https://x"}`, ""},
	{"codex", "tool_search", `{"query":"github","limit":8}`, "ToolSearch", "other", "builtin", `{"query":"github","limit":8}`, ""},
	{"codex", "list_mcp_resources", `{"server":"docs"}`, "ListMcpResourcesTool", "read", "builtin", `{"server":"docs"}`, ""},
	{"codex", "list_mcp_resource_templates", `{}`, "ListMcpResourcesTool", "read", "builtin", `{}`, ""},
	{"codex", "read_mcp_resource", `{"server":"docs","uri":"docs://guide"}`, "ReadMcpResourceTool", "read", "builtin", `{"server":"docs","uri":"docs://guide"}`, ""},
	{"codex", "mcp__codex_apps__github_fetch_pr", `{"pr":1}`, "mcp__codex_apps__github_fetch_pr", "other", "mcp", `{"pr":1}`, "codex_apps/github_fetch_pr"},
	{"codex", "mcp:calc/add", `{"a":2,"b":3}`, "mcp__calc__add", "other", "mcp", `{"a":2,"b":3}`, "calc/add"},
	{"codex", "mcp:skills/brainstorming", `{}`, "Skill", "other", "skill", `{"skill":"brainstorming"}`, "skills/brainstorming"},
	{"codex", "mcp__agent_skills__pdf", `{"skill":"pdf"}`, "Skill", "other", "skill", `{"skill":"pdf"}`, "agent_skills/pdf"},
	{"codex", "[trimmed for fixture]", `{"raw":"[trimmed for fixture]"}`, "[trimmed for fixture]", "other", "custom", `{"raw":"[trimmed for fixture]"}`, ""},
	// skills: a read of a plugin's SKILL.md shaped like the real reads of
	// agentv__79 loads the skill (canon's TestSameSkillEverywhere)
	{"codex", "exec_command", `{"cmd":"sed -n '1,220p' /home/u/.codex/plugins/cache/superpowers-marketplace/superpowers/4.0.3/skills/brainstorming/SKILL.md","workdir":"/home/u/proj","yield_time_ms":10000,"max_output_tokens":20000}`, "Read", "read", "skill", `{"command":"sed -n '1,220p' /home/u/.codex/plugins/cache/superpowers-marketplace/superpowers/4.0.3/skills/brainstorming/SKILL.md","cwd":"/home/u/proj","yield_time_ms":10000,"max_output_tokens":20000,"file_path":"/home/u/.codex/plugins/cache/superpowers-marketplace/superpowers/4.0.3/skills/brainstorming/SKILL.md","skill":"brainstorming","plugin":"superpowers"}`, ""},
	{"codex", "exec_command", `{"cmd":"git status --short"}`, "Bash", "execute", "builtin", `{"command":"git status --short"}`, ""},
}

func TestCanonRows(t *testing.T) { providertest.CheckRows(t, rowCases) }

func FuzzCanon(f *testing.F) { providertest.FuzzCanon(f, rowCases) }

// renderCases are calls of other providers rendered in the provider's
// layout.
var renderCases = []providertest.RenderCase{
	{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}`, "codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n@@\n-c\n+d\n*** End Patch"}`},
	{"claude", "TodoWrite", `{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}`, "codex", "update_plan", `{"plan":[{"step":"a","status":"pending","activeForm":"A"}]}`},
	{"claude", "Bash", `{"command":"go test ./...","description":"Run tests"}`, "codex", "exec_command", `{"cmd":"go test ./..."}`},
	// a reclassified shell call renders as the target's shell
	{"claude", "Bash", `{"command":"cat README.md","description":"Show"}`, "codex", "exec_command", `{"cmd":"cat README.md"}`},
	// a provider that reads with its shell gets the command that does it
	{"claude", "Read", `{"file_path":"/r/a b.go"}`, "codex", "exec_command", `{"cmd":"cat '/r/a b.go'"}`},
	{"claude", "Read", `{"file_path":"/r/a.go","offset":100,"limit":50}`, "codex", "exec_command", `{"cmd":"sed -n '100,149p' /r/a.go"}`},
	{"claude", "Grep", `{"pattern":"func main","path":"/r","glob":"*.go"}`, "codex", "exec_command", `{"cmd":"rg -n 'func main' -g '*.go' /r"}`},
	{"claude", "Glob", `{"pattern":"**/*.ts","path":"apps"}`, "codex", "exec_command", `{"cmd":"rg --files -g '**/*.ts' apps"}`},
	{"pi", "ls", `{"path":"frontend"}`, "codex", "exec_command", `{"cmd":"ls frontend"}`},
	// edits become patches for Codex and back
	{"claude", "Write", `{"file_path":"a.md","content":"# A\nb\n"}`, "codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Add File: a.md\n+# A\n+b\n*** End Patch"}`},
	{"claude", "Edit", `{"file_path":"a.go","old_string":"x := 1","new_string":"x := 2"}`, "codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: a.go\n@@\n-x := 1\n+x := 2\n*** End Patch"}`},
	{"copilot", "read_bash", `{"shellId":"3","delay":5}`, "codex", "write_stdin", `{"session_id":3,"chars":""}`},
	{"copilot", "write_bash", `{"shellId":"3","input":"y\n"}`, "codex", "write_stdin", `{"session_id":3,"chars":"y\n"}`},
}

func TestCanonRender(t *testing.T) { providertest.CheckRender(t, renderCases) }

// pathCases are file tools' calls in a session folder.
var pathCases = []providertest.PathCase{
	{"codex", "view_image", `{"path":"shot.png"}`, "/w", "file_path", "/w/shot.png"},
}

func TestCanonPaths(t *testing.T) { providertest.CheckPaths(t, pathCases) }

// warnCases are calls Codex has no tool for.
var warnCases = []providertest.WarnCase{
	{"claude", "TaskCreate", `{"subject":"s","description":"d"}`, "codex"},
}

func TestCanonWarns(t *testing.T) { providertest.CheckWarns(t, warnCases) }

// TestRenderEdited: a call whose canonical form was changed after
// normalizing renders from the canonical form, not from the native one.
func TestRenderEdited(t *testing.T) {
	tool := &agt.Tool{NativeName: "exec_command", NativeInput: agt.Raw(`{"cmd":"ls","workdir":"/r"}`)}
	canon.NormalizeIn("codex", "", tool)
	tool.Input = agt.Raw(`{"command":"ls -la","cwd":"/r"}`)
	name, in, _ := canon.RenderIn("codex", "codex", "", tool)
	if name != "exec_command" || string(in) != `{"cmd":"ls -la","workdir":"/r"}` {
		t.Errorf("got %s %s", name, in)
	}
}

// TestWebSearchToCodex: a web search renders for Codex as the action its
// web_search_call items carry, {type: search, query}, whatever agent made it.
func TestWebSearchToCodex(t *testing.T) {
	claude := &agt.Tool{NativeName: "WebSearch", NativeInput: agt.Raw(`{"query":"golang release"}`)}
	canon.NormalizeIn("claude", "", claude)
	name, in, _ := canon.RenderIn("codex", "claude", "", claude)
	if name != "web_search" || string(in) != `{"query":"golang release","type":"search"}` {
		t.Errorf("claude → codex: %s %s", name, in)
	}
	codex := &agt.Tool{NativeName: "web_search", NativeInput: agt.Raw(`{"type":"search","query":"example","queries":["example"]}`)}
	canon.NormalizeIn("codex", "", codex)
	if string(codex.Input) != `{"query":"example","queries":["example"]}` {
		t.Errorf("codex canonical input %s", codex.Input)
	}
	codex.NativeName = "" // rendered from the canonical call, not given back
	if name, in, _ := canon.RenderIn("codex", "gemini", "", codex); name != "web_search" || string(in) != `{"query":"example","queries":["example"],"type":"search"}` {
		t.Errorf("codex → codex: %s %s", name, in)
	}
}

// mcpCases are the provider's names of providertest.MCPTool.
var mcpCases = []providertest.MCPCase{
	{"mcp__github__list_issues", nil}, // function_call namespace mcp__github + name list_issues
	{"mcp:github/list_issues", nil},   // Codex's display of the call
}

// TestCanonMCP: the provider's MCP convention gives the canonical call, which
// renders for it as mcp__github__list_issues.
func TestCanonMCP(t *testing.T) {
	providertest.CheckMCP(t, "codex", "mcp__github__list_issues", mcpCases)
}

// TestCanonDefaults: the provider has a default row (the one that renders
// the canonical tool) for each of its core tools.
func TestCanonDefaults(t *testing.T) {
	providertest.CheckDefaults(t, "codex", "Bash", "Edit", "Write", "TodoWrite", "WebSearch")
}
