package canon_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
)

// renderCase is a native call of one provider rendered for another.
type renderCase struct {
	from, native, in string
	to, name, want   string
}

var renderCases = []renderCase{
	// renames undone in the target's layout
	{"claude", "Read", `{"file_path":"/r/a.go","offset":10,"limit":20}`, "pi", "read", `{"path":"/r/a.go","offset":10,"limit":20}`},
	{"claude", "Read", `{"file_path":"/r/a.go"}`, "opencode", "read", `{"filePath":"/r/a.go"}`},
	{"claude", "Read", `{"file_path":"/r/a.go"}`, "copilot", "view", `{"path":"/r/a.go"}`},
	{"claude", "Read", `{"file_path":"/r/a.go"}`, "gemini", "read_file", `{"file_path":"/r/a.go"}`},
	{"pi", "write", `{"path":"a.txt","content":"x\n"}`, "copilot", "create", `{"path":"a.txt","file_text":"x\n"}`},
	{"opencode", "edit", `{"filePath":"/r/a","oldString":"a","newString":"b","replaceAll":true}`, "claude", "Edit", `{"file_path":"/r/a","old_string":"a","new_string":"b","replace_all":true}`},
	{"claude", "Edit", `{"file_path":"/r/a","old_string":"a","new_string":"b"}`, "pi", "edit", `{"path":"/r/a","oldText":"a","newText":"b"}`},
	{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"}]}`, "claude", "MultiEdit", `{"file_path":"a.ts","edits":[{"old_string":"a","new_string":"b"}]}`},
	{"claude", "MultiEdit", `{"file_path":"a.ts","edits":[{"old_string":"a","new_string":"b"}]}`, "opencode", "multiedit", `{"filePath":"a.ts","edits":[{"oldString":"a","newString":"b"}]}`},
	{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"}]}`, "copilot", "edit", `{"path":"a.ts","old_str":"a","new_str":"b"}`},
	{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}`, "codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n@@\n-c\n+d\n*** End Patch"}`},
	{"gemini", "grep_search", `{"pattern":"TODO","dir_path":"src","include":"*.go"}`, "opencode", "grep", `{"pattern":"TODO","path":"src","include":"*.go"}`},
	{"claude", "LS", `{"path":"/r"}`, "gemini", "list_directory", `{"dir_path":"/r"}`},
	{"codex", "update_plan", `{"plan":[{"step":"a","status":"completed"}]}`, "gemini", "write_todos", `{"todos":[{"description":"a","status":"completed"}]}`},
	{"claude", "TodoWrite", `{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}`, "codex", "update_plan", `{"plan":[{"step":"a","status":"pending","activeForm":"A"}]}`},
	{"copilot", "task", `{"description":"d","prompt":"p","agent_type":"explore"}`, "claude", "Task", `{"description":"d","prompt":"p","subagent_type":"explore"}`},
	{"gemini", "web_fetch", `{"prompt":"Summarize https://go.dev/doc"}`, "claude", "WebFetch", `{"prompt":"Summarize https://go.dev/doc","url":"https://go.dev/doc"}`},
	{"claude", "WebFetch", `{"url":"https://go.dev"}`, "gemini", "web_fetch", `{"prompt":"https://go.dev"}`},
	{"codex", "web_search", `{"type":"search","query":"q"}`, "gemini", "google_web_search", `{"query":"q"}`},
	// a URL the prompt does not hold goes into it (web_fetch takes no url)
	{"claude", "WebFetch", `{"url":"https://go.dev/dl","prompt":"latest version?"}`, "gemini", "web_fetch", `{"prompt":"latest version?\n\nhttps://go.dev/dl"}`},

	// shells: command member, argv, cwd
	{"codex", "exec_command", `{"cmd":"cargo test","workdir":"/r","yield_time_ms":1000}`, "claude", "Bash", `{"command":"cd /r && cargo test"}`},
	{"claude", "Bash", `{"command":"go test ./...","description":"Run tests"}`, "codex", "exec_command", `{"cmd":"go test ./..."}`},
	{"gemini", "run_shell_command", `{"command":"npm test","dir_path":"web"}`, "opencode", "bash", `{"command":"npm test","workdir":"web"}`},
	{"codex", "shell", `{"command":["bash","-lc","make"]}`, "copilot", "bash", `{"command":"make"}`},
	{"codex", "command_execution", `{"command":"/bin/bash -lc 'npm test'"}`, "pi", "bash", `{"command":"npm test"}`},
	// a reclassified shell call renders as the target's shell
	{"claude", "Bash", `{"command":"cat README.md","description":"Show"}`, "codex", "exec_command", `{"cmd":"cat README.md"}`},
	{"codex", "exec_command", `{"cmd":"rg -n foo src","workdir":"/r"}`, "gemini", "run_shell_command", `{"command":"rg -n foo src","dir_path":"/r"}`},
	// a provider that reads with its shell gets the command that does it
	{"claude", "Read", `{"file_path":"/r/a b.go"}`, "codex", "exec_command", `{"cmd":"cat '/r/a b.go'"}`},
	{"claude", "Read", `{"file_path":"/r/a.go","offset":100,"limit":50}`, "codex", "exec_command", `{"cmd":"sed -n '100,149p' /r/a.go"}`},
	{"claude", "Grep", `{"pattern":"func main","path":"/r","glob":"*.go"}`, "codex", "exec_command", `{"cmd":"rg -n 'func main' -g '*.go' /r"}`},
	{"claude", "Glob", `{"pattern":"**/*.ts","path":"apps"}`, "codex", "exec_command", `{"cmd":"rg --files -g '**/*.ts' apps"}`},
	{"pi", "ls", `{"path":"frontend"}`, "codex", "exec_command", `{"cmd":"ls frontend"}`},

	// edits become patches for Codex and back
	{"claude", "Write", `{"file_path":"a.md","content":"# A\nb\n"}`, "codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Add File: a.md\n+# A\n+b\n*** End Patch"}`},
	{"claude", "Edit", `{"file_path":"a.go","old_string":"x := 1","new_string":"x := 2"}`, "codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: a.go\n@@\n-x := 1\n+x := 2\n*** End Patch"}`},
	{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Delete File: a.go\n*** End Patch"}`, "opencode", "apply_patch", `{"patchText":"*** Begin Patch\n*** Delete File: a.go\n*** End Patch"}`},
	{"opencode", "apply_patch", `{"patchText":"*** Begin Patch\n*** Add File: a.md\n+# A\n*** End Patch"}`, "claude", "Write", `{"file_path":"a.md","content":"# A\n"}`},

	// a patch of one file for a provider whose edit tools take strings: its
	// hunks as edits (context and removed lines → context and added lines)
	{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: /r/a.go\n@@ func a\n x := 1\n-y := 2\n+y := 3\n*** End Patch"}`, "claude", "Edit", `{"file_path":"/r/a.go","old_string":"x := 1\ny := 2","new_string":"x := 1\ny := 3"}`},
	{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: /r/a.go\n@@\n-a\n+b\n@@\n-c\n+d\n*** End Patch"}`, "claude", "MultiEdit", `{"file_path":"/r/a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`},
	{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: /r/a.go\n@@\n-a\n+b\n*** End Patch"}`, "gemini", "replace", `{"file_path":"/r/a.go","old_string":"a","new_string":"b"}`},
	// several edits for Copilot: its apply_patch
	{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}`, "copilot", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: a.ts\n@@\n-a\n+b\n@@\n-c\n+d\n*** End Patch"}`},

	// skills
	{"claude", "Skill", `{"skill":"superpowers:brainstorming"}`, "copilot", "skill", `{"skill":"brainstorming"}`},
	{"claude", "Skill", `{"skill":"superpowers:brainstorming"}`, "gemini", "activate_skill", `{"name":"brainstorming"}`},
	{"opencode", "skill", `{"name":"code-review"}`, "claude", "Skill", `{"skill":"code-review"}`},
	{"copilot", "Using skill: brainstorming", ``, "opencode", "skill", `{"name":"brainstorming"}`},
	{"pi", "read", `{"path":"/u/.pi/agent/skills/git-commit/SKILL.md"}`, "claude", "Read", `{"file_path":"/u/.pi/agent/skills/git-commit/SKILL.md"}`},

	// MCP tools in each convention
	{"claude", "mcp__linear-server__list_issues", `{"query":"q"}`, "opencode", "linear-server_list_issues", `{"query":"q"}`},
	{"claude", "mcp__linear-server__list_issues", `{"query":"q"}`, "copilot", "linear-server-list_issues", `{"query":"q"}`},
	{"claude", "mcp__linear-server__list_issues", `{"query":"q"}`, "gemini", "linear-server__list_issues", `{"query":"q"}`},
	{"opencode", "context7_resolve-library-id", `{"libraryName":"x"}`, "claude", "mcp__context7__resolve-library-id", `{"libraryName":"x"}`},
	{"codex", "mcp:skills/brainstorming", `{}`, "claude", "mcp__skills__brainstorming", `{}`},
	{"codex", "mcp:skills/brainstorming", `{}`, "gemini", "skills__brainstorming", `{}`},
	{"copilot", "github-mcp-server-web_search", `{"query":"q"}`, "claude", "WebSearch", `{"query":"q"}`},

	// background shells
	{"codex", "write_stdin", `{"session_id":1,"chars":""}`, "claude", "BashOutput", `{"bash_id":"1"}`},
	{"copilot", "read_bash", `{"shellId":"3","delay":5}`, "codex", "write_stdin", `{"session_id":3,"chars":""}`},
	{"claude", "BashOutput", `{"bash_id":"b1"}`, "copilot", "read_bash", `{"shellId":"b1"}`},
	{"claude", "TaskStop", `{"task_id":"b1"}`, "copilot", "stop_bash", `{"shellId":"b1"}`},
	{"copilot", "write_bash", `{"shellId":"3","input":"y\n"}`, "codex", "write_stdin", `{"session_id":3,"chars":"y\n"}`},

	// no counterpart: the canonical name and input stay
	{"copilot", "write_bash", `{"shellId":"s1","input":"y\n"}`, "claude", "write_stdin", `{"shell_id":"s1","chars":"y\n","op":"write"}`},
	{"pi", "subagent", `{"action":"list"}`, "claude", "subagent", `{"action":"list"}`},
}

func TestRender(t *testing.T) {
	for _, c := range renderCases {
		var in agt.Raw
		if c.in != "" {
			in = agt.Raw(c.in)
		}
		tool := &agt.Tool{NativeName: c.native, Name: c.native, Input: in, NativeInput: in}
		canon.Normalize(c.from, tool)
		for _, from := range []string{c.from, ""} {
			name, got := canon.Render(c.to, from, tool)
			if name != c.name || string(got) != c.want {
				t.Errorf("%s/%s %s → %s (from %q):\n got  %s %s\n want %s %s", c.from, c.native, c.in, c.to, from, name, got, c.name, c.want)
			}
		}
	}
}

// TestRenderEdited: a call whose canonical form was changed after
// Normalize renders from the canonical form, not from the native one.
func TestRenderEdited(t *testing.T) {
	tool := &agt.Tool{NativeName: "exec_command", NativeInput: agt.Raw(`{"cmd":"ls","workdir":"/r"}`)}
	canon.Normalize("codex", tool)
	tool.Input = agt.Raw(`{"command":"ls -la","cwd":"/r"}`)
	name, in := canon.Render("codex", "codex", tool)
	if name != "exec_command" || string(in) != `{"cmd":"ls -la","workdir":"/r"}` {
		t.Errorf("got %s %s", name, in)
	}
}

// TestRenderWarns: a call the target has no tool for keeps its canonical
// name and input, with a warning: several edits for Gemini (replace takes
// one), a patch of several files for Claude, a background shell for Pi.
func TestRenderWarns(t *testing.T) {
	for _, c := range []struct{ from, native, in, to string }{
		{"pi", "edit", `{"path":"a.ts","edits":[{"oldText":"a","newText":"b"},{"oldText":"c","newText":"d"}]}`, "gemini"},
		{"claude", "MultiEdit", `{"file_path":"a.ts","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`, "gemini"},
		{"codex", "apply_patch", `{"raw":"*** Begin Patch\n*** Update File: a.go\n@@\n-a\n+b\n*** Update File: b.go\n@@\n-c\n+d\n*** End Patch"}`, "claude"},
		{"codex", "write_stdin", `{"session_id":1,"chars":""}`, "pi"},
		{"claude", "TaskCreate", `{"subject":"s","description":"d"}`, "codex"},
	} {
		tool := &agt.Tool{NativeName: c.native, Name: c.native, Input: agt.Raw(c.in), NativeInput: agt.Raw(c.in)}
		canon.Normalize(c.from, tool)
		name, in, warn := canon.RenderIn(c.to, c.from, "", tool)
		if warn == "" || name != tool.Name || string(in) != string(tool.Input) {
			t.Errorf("%s/%s → %s: %s %s, warning %q", c.from, c.native, c.to, name, in, warn)
		}
	}
}

// TestWebSearchToCodex: a web search renders for Codex as the action its
// web_search_call items carry, {type: search, query}, whatever agent made it.
func TestWebSearchToCodex(t *testing.T) {
	claude := &agt.Tool{NativeName: "WebSearch", NativeInput: agt.Raw(`{"query":"golang release"}`)}
	canon.Normalize("claude", claude)
	name, in := canon.Render("codex", "claude", claude)
	if name != "web_search" || string(in) != `{"query":"golang release","type":"search"}` {
		t.Errorf("claude → codex: %s %s", name, in)
	}
	codex := &agt.Tool{NativeName: "web_search", NativeInput: agt.Raw(`{"type":"search","query":"example","queries":["example"]}`)}
	canon.Normalize("codex", codex)
	if string(codex.Input) != `{"query":"example","queries":["example"]}` {
		t.Errorf("codex canonical input %s", codex.Input)
	}
	codex.NativeName = "" // rendered from the canonical call, not given back
	if name, in := canon.Render("codex", "gemini", codex); name != "web_search" || string(in) != `{"query":"example","queries":["example"],"type":"search"}` {
		t.Errorf("codex → codex: %s %s", name, in)
	}
}
