package canon

// opencodeRows: OpenCode (export, storage, db, run --format json). Input
// members are camelCase. MCP tools are <server>_<tool> (see mcp.go).
var opencodeRows = []Row{
	{Provider: "opencode", Native: "bash", Name: "Bash", Fields: "workdir=cwd", Conv: "shell"},
	{Provider: "opencode", Native: "read", Name: "Read", Fields: "filePath=file_path"},
	{Provider: "opencode", Native: "write", Name: "Write", Fields: "filePath=file_path"},
	{Provider: "opencode", Native: "edit", Name: "Edit", Fields: "filePath=file_path oldString=old_string newString=new_string replaceAll=replace_all"},
	{Provider: "opencode", Native: "multiedit", Name: "Edit", Fields: "filePath=file_path edits=edits[filePath=file_path,oldString=old_string,newString=new_string,replaceAll=replace_all]", Out: "edits"},
	{Provider: "opencode", Native: "apply_patch", Name: "Edit", Fields: "patchText=patch", Conv: "patch", Out: "patch"},
	{Provider: "opencode", Native: "apply_patch", Name: "Write", Fields: "patchText=patch", Conv: "patch", Out: "patch"},
	{Provider: "opencode", Native: "patch", Name: "Edit", Fields: "patchText=patch", Conv: "patch", Out: "-"},
	{Provider: "opencode", Native: "glob", Name: "Glob"},
	{Provider: "opencode", Native: "grep", Name: "Grep", Fields: "include=glob"},
	{Provider: "opencode", Native: "list", Name: "LS"},
	{Provider: "opencode", Native: "webfetch", Name: "WebFetch"},
	{Provider: "opencode", Native: "websearch", Name: "WebSearch"},
	{Provider: "opencode", Native: "codesearch", Name: "codesearch", Kind: KindFetch},
	{Provider: "opencode", Native: "todowrite", Name: "TodoWrite"},
	{Provider: "opencode", Native: "todoread", Name: "TodoRead", Kind: KindPlan},
	{Provider: "opencode", Native: "task", Name: "Task"},
	{Provider: "opencode", Native: "skill", Name: "Skill", Fields: "name=skill", Conv: "skill"},
	{Provider: "opencode", Native: "question", Name: "AskUserQuestion"},
	{Provider: "opencode", Native: "plan_exit", Name: "ExitPlanMode"},
	{Provider: "opencode", Native: "plan_enter", Name: "EnterPlanMode", Kind: KindPlan},
	{Provider: "opencode", Native: "batch", Name: "batch", Kind: KindOther},
	{Provider: "opencode", Native: "invalid", Name: "invalid", Kind: KindOther},
}
