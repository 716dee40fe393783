package copilot

import "github.com/agt-project/agt/provider/canon"

// tools is Copilot CLI's part of the canonical tool table (provider/canon):
// its native tools, the way it names MCP tools and its tools'
// definitions. The registry registers it.
var tools = canon.Tools{Rows: toolRows, MCP: mcpStyles, Defs: toolDefs, API: canon.APIChatCompletions}

// Tools returns the provider's part of the canonical tool table.
func (Provider) Tools() canon.Tools { return tools }

// toolRows: GitHub Copilot CLI (events.jsonl, -p --output-format json,
// the 2025 history-session-state documents, ACP). The 2025 CLI edited
// through one str_replace_editor tool whose command member names the
// operation; 1.0 has view/create/edit. Over ACP Copilot names no tool: the
// ACP kind stands for it (acp rows) and the input is Copilot's own. MCP
// tools carry mcpServerName/mcpToolName (the parser sets Tool.MCP) or, in
// 2025 logs, are named <server>-<tool> (see mcpStyles); web_search is served
// by github-mcp-server but offered as Copilot's own web search. Background
// shells (async bash): read_bash, write_bash, stop_bash, list_bash, keyed
// by shellId (1.0; the coding agent's earlier tools by sessionId, the bash
// session's).
var toolRows = []canon.Row{
	{Provider: "copilot", Native: "bash", Name: "Bash", Conv: "shell"},
	{Provider: "copilot", Native: "shell", Name: "Bash", Conv: "shell", Out: "-"},
	{Provider: "copilot", Native: "powershell", Name: "Bash", Conv: "shell", Out: "-"},
	{Provider: "copilot", Native: "read_bash", Name: "BashOutput", Fields: "shellId=shell_id sessionId=shell_id", Conv: "bg"},
	{Provider: "copilot", Native: "write_bash", Name: "write_stdin", Fields: "shellId=shell_id sessionId=shell_id input=chars", Conv: "bg"},
	{Provider: "copilot", Native: "stop_bash", Name: "KillShell", Fields: "shellId=shell_id sessionId=shell_id", Conv: "bg"},
	{Provider: "copilot", Native: "list_bash", Name: "list_bash", Conv: "bg"},
	{Provider: "copilot", Native: "view", Name: "Read", Fields: "path=file_path"},
	// AgentV's variants (ACP titles and client methods): inputs as the
	// ACP fs methods and Copilot's own tools name them
	{Provider: "copilot", Native: "Read File", Name: "Read", Fields: "path=file_path filePath=file_path", Out: "-"},
	{Provider: "copilot", Native: "readFile", Name: "Read", Fields: "path=file_path filePath=file_path", Out: "-"},
	{Provider: "copilot", Native: "readTextFile", Name: "Read", Fields: "path=file_path filePath=file_path", Out: "-"},
	{Provider: "copilot", Native: "Viewing *", Name: "Read", Fields: "path=file_path", Conv: "argpath", Out: "-"},
	{Provider: "copilot", Native: "writeTextFile", Name: "Write", Fields: "path=file_path filePath=file_path", Out: "-"},
	{Provider: "copilot", Native: "Write File", Name: "Write", Fields: "path=file_path filePath=file_path file_text=content", Out: "-"},
	{Provider: "copilot", Native: "editFile", Name: "Edit", Fields: "path=file_path filePath=file_path old_str=old_string new_str=new_string oldText=old_string newText=new_string", Out: "-"},
	{Provider: "copilot", Native: "Edit File", Name: "Edit", Fields: "path=file_path filePath=file_path old_str=old_string new_str=new_string oldText=old_string newText=new_string", Out: "-"},
	{Provider: "copilot", Native: "runTerminalCommand", Name: "Bash", Conv: "shell", Out: "-"},
	{Provider: "copilot", Native: "create", Name: "Write", Fields: "path=file_path file_text=content"},
	{Provider: "copilot", Native: "edit", If: "file_text !old_str", Name: "Write", Fields: "path=file_path file_text=content", Out: "-"},
	{Provider: "copilot", Native: "edit", Name: "Edit", Fields: "path=file_path old_str=old_string new_str=new_string"},
	{Provider: "copilot", Native: "str_replace_editor", If: "command=view", Name: "Read", Fields: "path=file_path", Out: "-"},
	{Provider: "copilot", Native: "str_replace_editor", If: "command=create", Name: "Write", Fields: "path=file_path file_text=content", Out: "-"},
	{Provider: "copilot", Native: "str_replace_editor", If: "command=str_replace", Name: "Edit", Fields: "path=file_path old_str=old_string new_str=new_string", Out: "-"},
	{Provider: "copilot", Native: "str_replace_editor", If: "command=insert", Name: "Edit", Fields: "path=file_path new_str=new_string", Out: "-"},
	{Provider: "copilot", Native: "str_replace_editor", If: "command=undo_edit", Name: "Edit", Fields: "path=file_path", Out: "-"},
	{Provider: "copilot", Native: "apply_patch", If: "raw", Name: "Edit", Fields: "raw=patch", Conv: "patch", Out: "patch|edits"},
	{Provider: "copilot", Native: "apply_patch", If: "raw", Name: "Write", Fields: "raw=patch", Conv: "patch", Out: "patch"},
	{Provider: "copilot", Native: "apply_patch", If: "input", Name: "Edit", Fields: "input=patch", Conv: "patch", Out: "-"},
	{Provider: "copilot", Native: "glob", Name: "Glob"},
	{Provider: "copilot", Native: "grep", Name: "Grep"},
	{Provider: "copilot", Native: "web_fetch", Name: "WebFetch"},
	{Provider: "copilot", Native: "web_search", Name: "WebSearch"},
	{Provider: "copilot", Native: "github-mcp-server-web_search", Name: "WebSearch", MCP: "github-mcp-server/web_search", Out: "-"},
	{Provider: "copilot", Native: "update_todo", Name: "TodoWrite"},
	{Provider: "copilot", Native: "task", Name: "Task", Fields: "agent_type=subagent_type"},
	{Provider: "copilot", Native: "skill", Name: "Skill", Conv: "skill"},
	{Provider: "copilot", Native: "Using skill: *", Name: "Skill", Conv: "skill", Out: "-"},
	{Provider: "copilot", Native: "ask_user", Name: "AskUserQuestion"},
	{Provider: "copilot", Native: "report_intent", Name: "report_intent", Kind: canon.KindThink},
	{Provider: "copilot", Native: "task_complete", Name: "task_complete", Kind: canon.KindOther},
	// Copilot Chat in VS Code (vscode.go), by the names the model calls:
	// a call read from a chat session renders back as it was, the CLI's
	// tools stay the defaults
	{Provider: "copilot", Native: "read_file", Name: "Read", Fields: "filePath=file_path", Out: "-"},
	{Provider: "copilot", Native: "create_file", Name: "Write", Fields: "filePath=file_path", Out: "-"},
	{Provider: "copilot", Native: "replace_string_in_file", Name: "Edit", Fields: "filePath=file_path oldString=old_string newString=new_string", Out: "-"},
	{Provider: "copilot", Native: "insert_edit_into_file", Name: "insert_edit_into_file", Kind: canon.KindWrite, Out: "-"},
	{Provider: "copilot", Native: "multi_replace_string_in_file", Name: "multi_replace_string_in_file", Kind: canon.KindWrite, Out: "-"},
	{Provider: "copilot", Native: "run_in_terminal", Name: "Bash", Conv: "shell", Out: "-"},
	{Provider: "copilot", Native: "grep_search", Name: "Grep", Fields: "query=pattern includePattern=glob", Out: "-"},
	{Provider: "copilot", Native: "file_search", Name: "Glob", Fields: "query=pattern", Out: "-"},
	{Provider: "copilot", Native: "list_dir", Name: "LS", Out: "-"},
	{Provider: "copilot", Native: "semantic_search", Name: "semantic_search", Kind: canon.KindSearch, Out: "-"},
	{Provider: "copilot", Native: "get_errors", Name: "get_errors", Kind: canon.KindRead, Out: "-"},
	{Provider: "copilot", Native: "fetch_webpage", Name: "fetch_webpage", Kind: canon.KindFetch, Out: "-"},
	{Provider: "copilot", Native: "manage_todo_list", Name: "manage_todo_list", Kind: canon.KindPlan, Out: "-"},
}

// mcpStyles are the ways Copilot CLI names an MCP server's tool, tried in
// order after its rows and the parsers' own spelling mcp__{s}__{t}.
var mcpStyles = []canon.MCPStyle{
	{Pattern: "{s}-{t}", Servers: []string{"github-mcp-server"}, Out: true},
}

// toolDefs are the definitions of its tools, by native name (see
// canon.Def).
var toolDefs = map[string]canon.Def{
	"bash":          {Params: "command!:s description:s sessionId:s async:b mode:s timeout:n initial_wait:n detach:b"},
	"read_bash":     {Params: "shellId!:s sessionId:s delay:n"},
	"write_bash":    {Params: "shellId!:s sessionId:s input:s delay:n"},
	"stop_bash":     {Params: "shellId!:s sessionId:s"},
	"list_bash":     {Desc: "Lists the background shell sessions.", Params: ""},
	"view":          {Params: "path!:s view_range:a:i"},
	"create":        {Params: "path!:s file_text!:s"},
	"edit":          {Params: "path!:s old_str!:s new_str:s"},
	"apply_patch":   {Desc: canon.PatchDescription, Params: "raw!:s", Kind: "custom"},
	"glob":          {Params: "pattern!:s path:s"},
	"grep":          {Params: "pattern!:s path:s glob:s type:s output_mode:s -i:b -n:b -A:n -B:n -C:n head_limit:n multiline:b"},
	"web_fetch":     {Params: "url!:s max_length:n start_index:n raw:b"},
	"web_search":    {Params: "query!:s"},
	"update_todo":   {Params: "todos!:*"},
	"task":          {Params: "description!:s prompt!:s agent_type!:s model:s mode:s"},
	"skill":         {Params: "skill!:s"},
	"ask_user":      {Params: "question!:s choices:a:s allow_freeform:b"},
	"report_intent": {Desc: "States in a few words what the agent is doing now.", Params: "intent!:s"},
	"task_complete": {Desc: "Ends the task with a summary.", Params: "summary:s"},
}
