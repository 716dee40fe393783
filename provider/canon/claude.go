package canon

// claudeRows: Claude Code (session logs, stream-json, and ACP through
// claude-agent-acp, which names the tool in _meta.claudeCode.toolName).
// Claude's names and input members are the canonical ones; MCP tools are
// mcp__<server>__<tool> (see mcp.go). Background shells: BashOutput
// (polls a shell's output; TaskOutput since 2.0.6x) and KillShell (stops
// it; KillBash before, TaskStop since) are the canonical names of those
// operations for every provider (conversion bg); their shell id is
// shell_id.
var claudeRows = []Row{
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
	{Provider: "claude", Native: "TodoRead", Name: "TodoRead", Kind: KindPlan},
	{Provider: "claude", Native: "TaskCreate", Name: "TaskCreate", Kind: KindPlan},
	{Provider: "claude", Native: "TaskGet", Name: "TaskGet", Kind: KindPlan},
	{Provider: "claude", Native: "TaskList", Name: "TaskList", Kind: KindPlan},
	{Provider: "claude", Native: "TaskUpdate", Name: "TaskUpdate", Kind: KindPlan},
	{Provider: "claude", Native: "Skill", Name: "Skill", Conv: "qskill"},
	{Provider: "claude", Native: "SlashCommand", Name: "SlashCommand", Kind: KindOther},
	{Provider: "claude", Native: "AskUserQuestion", Name: "AskUserQuestion"},
	{Provider: "claude", Native: "ExitPlanMode", Name: "ExitPlanMode"},
	{Provider: "claude", Native: "EnterPlanMode", Name: "EnterPlanMode", Kind: KindPlan},
	{Provider: "claude", Native: "ToolSearch", Name: "ToolSearch", Kind: KindOther},
	{Provider: "claude", Native: "ListMcpResourcesTool", Name: "ListMcpResourcesTool", Kind: KindRead},
	{Provider: "claude", Native: "ReadMcpResourceTool", Name: "ReadMcpResourceTool", Kind: KindRead},
}
