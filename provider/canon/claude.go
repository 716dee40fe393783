package canon

// claudeRows: Claude Code (session logs, stream-json, and ACP through
// claude-agent-acp, which names the tool in _meta.claudeCode.toolName).
// Claude's names and input members are the canonical ones; MCP tools are
// mcp__<server>__<tool> (see mcp.go).
var claudeRows = []Row{
	{Provider: "claude", Native: "Read", Name: "Read"},
	{Provider: "claude", Native: "NotebookRead", Name: "Read", Fields: "notebook_path=file_path", Out: "-"},
	{Provider: "claude", Native: "Write", Name: "Write"},
	{Provider: "claude", Native: "Edit", Name: "Edit"},
	{Provider: "claude", Native: "MultiEdit", Name: "Edit", Out: "edits"},
	{Provider: "claude", Native: "NotebookEdit", Name: "NotebookEdit", Fields: "notebook_path=file_path"},
	{Provider: "claude", Native: "Bash", Name: "Bash", Conv: "shell"},
	{Provider: "claude", Native: "BashOutput", Name: "BashOutput"},
	{Provider: "claude", Native: "KillShell", Name: "KillShell"},
	{Provider: "claude", Native: "KillBash", Name: "KillShell", Out: "-"},
	{Provider: "claude", Native: "TaskOutput", Name: "TaskOutput", Kind: KindExecute},
	{Provider: "claude", Native: "TaskStop", Name: "TaskStop", Kind: KindExecute},
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
