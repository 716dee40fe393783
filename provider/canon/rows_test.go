package canon_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
)

// rowCase is a native call and its canonical form; input is compared byte
// for byte (member order included).
type rowCase struct {
	provider, native, in     string
	name, kind, origin, want string
	mcp                      string // "server/tool"
}

// rowCases cover every row family of every provider, with inputs shaped
// like the corpus's.
var rowCases = []rowCase{
	// Claude: canonical already
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

	// Codex
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

	// Gemini
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

	// Copilot
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
	{"acp/copilot", "execute", `{"command":"cat does-not-exist.txt","description":"Show a missing file"}`, "Read", "read", "builtin", `{"command":"cat does-not-exist.txt","description":"Show a missing file","file_path":"does-not-exist.txt"}`, ""},
	{"acp/copilot", "edit", `{"path":"/r/hello.txt","file_text":"hello world\n"}`, "Write", "write", "builtin", `{"file_path":"/r/hello.txt","content":"hello world\n"}`, ""},

	// Pi
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

	// OpenCode
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

	// Continue: 1.x names, and the builtin_* names before them
	{"continue", "read_file", `{"filepath":"src/a.ts"}`, "Read", "read", "builtin", `{"file_path":"src/a.ts"}`, ""},
	{"continue", "read_file_range", `{"filepath":"src/a.ts","startLine":1,"endLine":9}`, "Read", "read", "builtin", `{"file_path":"src/a.ts","startLine":1,"endLine":9}`, ""},
	{"continue", "create_new_file", `{"filepath":"a.md","contents":"# A"}`, "Write", "write", "builtin", `{"file_path":"a.md","content":"# A"}`, ""},
	{"continue", "single_find_and_replace", `{"filepath":"a.go","old_string":"a","new_string":"b"}`, "Edit", "write", "builtin", `{"file_path":"a.go","old_string":"a","new_string":"b"}`, ""},
	{"continue", "multi_edit", `{"filepath":"a.go","edits":[{"old_string":"a","new_string":"b"}]}`, "Edit", "write", "builtin", `{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"}]}`, ""},
	{"continue", "edit_existing_file", `{"filepath":"a.go","changes":"x"}`, "Edit", "write", "builtin", `{"file_path":"a.go","changes":"x"}`, ""},
	{"continue", "run_terminal_command", `{"command":"go test ./...","waitForCompletion":true}`, "Bash", "execute", "builtin", `{"command":"go test ./...","waitForCompletion":true}`, ""},
	{"continue", "grep_search", `{"query":"func main"}`, "Grep", "search", "builtin", `{"pattern":"func main"}`, ""},
	{"continue", "file_glob_search", `{"pattern":"**/*.go"}`, "Glob", "search", "builtin", `{"pattern":"**/*.go"}`, ""},
	{"continue", "ls", `{"dirPath":"src","recursive":false}`, "LS", "search", "builtin", `{"path":"src","recursive":false}`, ""},
	{"continue", "search_web", `{"query":"q"}`, "WebSearch", "fetch", "builtin", `{"query":"q"}`, ""},
	{"continue", "fetch_url_content", `{"url":"https://go.dev"}`, "WebFetch", "fetch", "builtin", `{"url":"https://go.dev"}`, ""},
	{"continue", "read_skill", `{"skillName":"review"}`, "Skill", "other", "skill", `{"skill":"review"}`, ""},
	{"continue", "builtin_read_file", `{"filepath":"src/a.ts"}`, "Read", "read", "builtin", `{"file_path":"src/a.ts"}`, ""},
	{"continue", "builtin_ls", `{"dirPath":"src","recursive":true}`, "LS", "search", "builtin", `{"path":"src","recursive":true}`, ""},

	// Cursor agent transcripts
	{"cursor", "Shell", `{"command":"go test ./...","working_directory":"/repo","description":"Run tests"}`, "Bash", "execute", "builtin", `{"command":"go test ./...","cwd":"/repo","description":"Run tests"}`, ""},
	{"cursor", "StrReplace", `{"path":"/r/a.rs","old_string":"a","new_string":"b"}`, "Edit", "write", "builtin", `{"file_path":"/r/a.rs","old_string":"a","new_string":"b"}`, ""},
	{"cursor", "Write", `{"path":"/r/n.txt","contents":"x"}`, "Write", "write", "builtin", `{"file_path":"/r/n.txt","content":"x"}`, ""},
	{"cursor", "Glob", `{"glob_pattern":"**/*","target_directory":"/tmp"}`, "Glob", "search", "builtin", `{"pattern":"**/*","path":"/tmp"}`, ""},

	// unknown names pass through
	{"pi", "check_ste_file", `{"file_path":"a.md"}`, "check_ste_file", "other", "custom", `{"file_path":"a.md"}`, ""},
	{"codex", "[trimmed for fixture]", `{"raw":"[trimmed for fixture]"}`, "[trimmed for fixture]", "other", "custom", `{"raw":"[trimmed for fixture]"}`, ""},
}

func TestRows(t *testing.T) {
	for _, c := range rowCases {
		var in agt.Raw
		if c.in != "" {
			in = agt.Raw(c.in)
		}
		tool := &agt.Tool{ID: "x", Name: c.native, NativeName: c.native, Input: in, NativeInput: in}
		canon.Normalize(c.provider, tool)
		where := c.provider + "/" + c.native + " " + c.in
		if tool.Name != c.name || tool.Kind != c.kind || tool.Origin != c.origin {
			t.Errorf("%s: got %s %s %s, want %s %s %s", where, tool.Name, tool.Kind, tool.Origin, c.name, c.kind, c.origin)
		}
		if string(tool.Input) != c.want {
			t.Errorf("%s: input\n got  %s\n want %s", where, tool.Input, c.want)
		}
		mcp := ""
		if tool.MCP != nil {
			mcp = tool.MCP.Server + "/" + tool.MCP.Tool
		}
		if mcp != c.mcp {
			t.Errorf("%s: mcp %q, want %q", where, mcp, c.mcp)
		}
		if tool.NativeName != c.native || string(tool.NativeInput) != c.in {
			t.Errorf("%s: native name or input changed", where)
		}
		// the call renders back to its provider
		to := strings.TrimPrefix(c.provider, "acp/")
		name, back := canon.Render(to, c.provider, tool)
		if name != c.native || string(back) != c.in {
			t.Errorf("%s: rendered back as %s %s", where, name, back)
		}
	}
}

// TestRelativePaths: a file tool's relative path is joined to the call's
// working folder (its cwd member, else the session's), as a reclassified
// shell command's is; home, absolute and drive-letter paths stay.
func TestRelativePaths(t *testing.T) {
	for _, c := range []struct{ provider, native, in, cwd, key, want string }{
		{"pi", "read", `{"path":"src/a.ts"}`, "/w", "file_path", "/w/src/a.ts"},
		{"pi", "edit", `{"path":"./b.py","oldText":"a","newText":"b"}`, "/w", "file_path", "/w/b.py"},
		{"pi", "grep", `{"pattern":"x","path":"pkg"}`, "/w", "path", "/w/pkg"},
		{"pi", "read", `{"path":"~/.pi/t.json"}`, "/w", "file_path", "~/.pi/t.json"},
		{"pi", "read", `{"path":"/abs/a.ts"}`, "/w", "file_path", "/abs/a.ts"},
		{"pi", "read", `{"path":"C:\\x\\a.ts"}`, "/w", "file_path", `C:\x\a.ts`},
		{"pi", "read", `{"path":"src/a.ts"}`, "", "file_path", "src/a.ts"},
		{"codex", "view_image", `{"path":"shot.png"}`, "/w", "file_path", "/w/shot.png"},
	} {
		tool := &agt.Tool{NativeName: c.native, NativeInput: agt.Raw(c.in)}
		canon.NormalizeIn(c.provider, c.cwd, tool)
		var in map[string]any
		if err := json.Unmarshal(tool.Input, &in); err != nil {
			t.Fatal(err)
		}
		if got, _ := in[c.key].(string); got != c.want {
			t.Errorf("%s %s in %q: %s = %q, want %q", c.provider, c.in, c.cwd, c.key, got, c.want)
		}
	}
}
