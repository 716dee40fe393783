package claude

import "github.com/agt-project/agt/provider/canon"

// tools is Claude Code's part of the canonical tool table (provider/canon):
// its native tools, the way it names MCP tools and its tools'
// definitions. The registry registers it.
var tools = canon.Tools{Rows: toolRows, MCP: mcpStyles, Defs: toolDefs, API: canon.APIMessages, Vocabulary: true}

// Tools returns the provider's part of the canonical tool table.
func (Provider) Tools() canon.Tools { return tools }

// toolRows: Claude Code (session logs, stream-json, and ACP through
// claude-agent-acp, which names the tool in _meta.claudeCode.toolName).
// Claude's names and input members are the canonical ones; MCP tools are
// mcp__<server>__<tool> (see mcpStyles). Background shells: BashOutput
// (polls a shell's output; TaskOutput since 2.0.6x) and KillShell (stops
// it; KillBash before, TaskStop since) are the canonical names of those
// operations for every provider (conversion bg); their shell id is
// shell_id.
var toolRows = []canon.Row{
	{Provider: "claude", Native: "Read", Name: "Read"},
	{Provider: "claude", Native: "NotebookRead", Name: "Read", Fields: "notebook_path=file_path", Out: "-"},
	{Provider: "claude", Native: "Write", Name: "Write"},
	{Provider: "claude", Native: "Edit", Name: "Edit"},
	{Provider: "claude", Native: "MultiEdit", Name: "Edit", Out: "edits"},
	{Provider: "claude", Native: "NotebookEdit", Name: "NotebookEdit", Fields: "notebook_path=file_path"},
	{Provider: "claude", Native: "Bash", Name: "Bash", Conv: "shell"},
	{Provider: "claude", Native: "BashOutput", Name: "BashOutput", Fields: "bash_id=shell_id", Conv: "bg"},
	{Provider: "claude", Native: "KillShell", Name: "KillShell", Conv: "bg"},
	{Provider: "claude", Native: "KillBash", Name: "KillShell", Conv: "bg", Out: "-"},
	{Provider: "claude", Native: "TaskOutput", Name: "BashOutput", Fields: "task_id=shell_id", Conv: "bg", Out: "-"},
	{Provider: "claude", Native: "TaskStop", Name: "KillShell", Fields: "task_id=shell_id", Conv: "bg", Out: "-"},
	{Provider: "claude", Native: "Grep", Name: "Grep"},
	{Provider: "claude", Native: "Glob", Name: "Glob"},
	{Provider: "claude", Native: "LS", Name: "LS"},
	{Provider: "claude", Native: "WebFetch", Name: "WebFetch"},
	{Provider: "claude", Native: "WebSearch", Name: "WebSearch"},
	{Provider: "claude", Native: "Task", Name: "Task"},
	{Provider: "claude", Native: "Agent", Name: "Task", Out: "-"},
	{Provider: "claude", Native: "TodoWrite", Name: "TodoWrite"},
	{Provider: "claude", Native: "TodoRead", Name: "TodoRead", Kind: canon.KindPlan},
	{Provider: "claude", Native: "TaskCreate", Name: "TaskCreate", Kind: canon.KindPlan},
	{Provider: "claude", Native: "TaskGet", Name: "TaskGet", Kind: canon.KindPlan},
	{Provider: "claude", Native: "TaskList", Name: "TaskList", Kind: canon.KindPlan},
	{Provider: "claude", Native: "TaskUpdate", Name: "TaskUpdate", Kind: canon.KindPlan},
	{Provider: "claude", Native: "Skill", Name: "Skill", Conv: "qskill"},
	{Provider: "claude", Native: "SlashCommand", Name: "SlashCommand", Kind: canon.KindOther},
	{Provider: "claude", Native: "AskUserQuestion", Name: "AskUserQuestion"},
	{Provider: "claude", Native: "ExitPlanMode", Name: "ExitPlanMode"},
	{Provider: "claude", Native: "EnterPlanMode", Name: "EnterPlanMode", Kind: canon.KindPlan},
	{Provider: "claude", Native: "ToolSearch", Name: "ToolSearch", Kind: canon.KindOther},
	{Provider: "claude", Native: "ListMcpResourcesTool", Name: "ListMcpResourcesTool", Kind: canon.KindRead},
	{Provider: "claude", Native: "ReadMcpResourceTool", Name: "ReadMcpResourceTool", Kind: canon.KindRead},
}

// mcpStyles are the ways Claude Code names an MCP server's tool, tried in
// order after its rows and the parsers' own spelling mcp__{s}__{t}.
var mcpStyles = []canon.MCPStyle{
	{Pattern: "mcp__{s}__{t}", Out: true},
}

// toolDefs are the definitions of its tools, by native name (see
// canon.Def).
var toolDefs = map[string]canon.Def{
	"Read":                 {Params: "file_path!:s offset:n limit:n pages:s"},
	"Write":                {Params: "file_path!:s content!:s"},
	"Edit":                 {Params: "file_path!:s old_string!:s new_string!:s replace_all:b"},
	"MultiEdit":            {Desc: "Makes several exact string replacements in one file, in order.", Params: "file_path!:s edits!:a:o"},
	"NotebookEdit":         {Params: "notebook_path!:s new_source!:s cell_id:s cell_type:s edit_mode:s"},
	"Bash":                 {Params: "command!:s description:s timeout:n run_in_background:b dangerouslyDisableSandbox:b"},
	"BashOutput":           {Params: "bash_id!:s filter:s"},
	"KillShell":            {Params: "shell_id!:s"},
	"Grep":                 {Params: "pattern!:s path:s glob:s type:s output_mode:s -i:b -n:b -A:n -B:n -C:n head_limit:n offset:n multiline:b"},
	"Glob":                 {Params: "pattern!:s path:s"},
	"LS":                   {Params: "path!:s ignore:a:s"},
	"WebFetch":             {Params: "url!:s prompt!:s"},
	"WebSearch":            {Params: "query!:s allowed_domains:a:s blocked_domains:a:s"},
	"Task":                 {Params: "description!:s prompt!:s subagent_type!:s model:s run_in_background:b resume:s"},
	"TodoWrite":            {Params: "todos!:a:o"},
	"TodoRead":             {Desc: "Reads the session's todo list.", Params: ""},
	"TaskCreate":           {Desc: "Creates a task in the session's task list.", Params: "subject!:s description!:s activeForm:s metadata:o"},
	"TaskGet":              {Desc: "Reads one task of the session's task list.", Params: "taskId!:s"},
	"TaskList":             {Desc: "Lists the session's tasks.", Params: ""},
	"TaskUpdate":           {Desc: "Updates a task of the session's task list.", Params: "taskId!:s status:s subject:s description:s activeForm:s owner:s addBlocks:a:s addBlockedBy:a:s metadata:o"},
	"Skill":                {Params: "skill!:s args:s"},
	"SlashCommand":         {Desc: "Runs a slash command.", Params: "command!:s"},
	"AskUserQuestion":      {Params: "questions!:a:o"},
	"ExitPlanMode":         {Params: "plan:s allowedPrompts:a:o"},
	"EnterPlanMode":        {Params: ""},
	"ToolSearch":           {Desc: "Searches the deferred tools by name or purpose.", Params: "query!:s max_results:n"},
	"ListMcpResourcesTool": {Desc: "Lists the resources of the MCP servers.", Params: "server:s"},
	"ReadMcpResourceTool":  {Desc: "Reads a resource of an MCP server.", Params: "server!:s uri!:s"},
}
