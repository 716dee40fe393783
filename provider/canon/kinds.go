package canon

// Tool kinds (DESIGN.md §3).
const (
	KindRead    = "read"
	KindWrite   = "write"
	KindExecute = "execute"
	KindSearch  = "search"
	KindFetch   = "fetch"
	KindPlan    = "plan"
	KindAsk     = "ask"
	KindThink   = "think"
	KindOther   = "other"
)

// Origins of a tool.
const (
	OriginBuiltin = "builtin" // a tool of the agent itself (a row of the table)
	OriginMCP     = "mcp"     // a tool of an MCP server
	OriginSkill   = "skill"   // a call that loads a skill: input.skill is set
	OriginCustom  = "custom"  // anything else: extension, plugin or unknown tools

	// ViaShell is the via of a call that ran through the shell and only
	// reads, lists or searches: reclassified (Read, LS, Glob, Grep), or kept
	// as Bash on request (NormalizeKeep), its kind saying what it does
	ViaShell = "shell"
)

// kinds is the kind of each canonical name. The kinds follow the ACP tool
// kinds that agents already give these tools (Grep, Glob and LS search;
// WebFetch and WebSearch fetch; Task think), with agt's own plan and ask.
var kinds = map[string]string{
	"Read":            KindRead,
	"Write":           KindWrite,
	"Edit":            KindWrite,
	"NotebookEdit":    KindWrite,
	"Bash":            KindExecute,
	"BashOutput":      KindExecute,
	"KillShell":       KindExecute,
	"write_stdin":     KindExecute,
	"list_bash":       KindExecute,
	"Grep":            KindSearch,
	"Glob":            KindSearch,
	"LS":              KindSearch,
	"WebFetch":        KindFetch,
	"WebSearch":       KindFetch,
	"Task":            KindThink,
	"TodoWrite":       KindPlan,
	"ExitPlanMode":    KindPlan,
	"Skill":           KindOther,
	"AskUserQuestion": KindAsk,
}
