package canon

// geminiRows: Gemini CLI (session logs, stream-json, ACP). Tool names are
// Gemini's function names (not the display names such as "ReadFile");
// the grep tool was renamed search_file_content → grep_search. MCP tools:
// <server>__<tool> and the display name "<tool> (<server> MCP Server)"
// (see mcp.go).
var geminiRows = []Row{
	{Provider: "gemini", Native: "read_file", If: "absolute_path !file_path", Name: "Read", Fields: "absolute_path=file_path", Out: "-"},
	{Provider: "gemini", Native: "read_file", If: "path !file_path", Name: "Read", Fields: "path=file_path", Out: "-"},
	{Provider: "gemini", Native: "read_file", Name: "Read"},
	{Provider: "gemini", Native: "read_many_files", Name: "Read", Conv: "readmany", Out: "files"},
	{Provider: "gemini", Native: "write_file", Name: "Write"},
	{Provider: "gemini", Native: "replace", Name: "Edit", Fields: "allow_multiple=replace_all"},
	{Provider: "gemini", Native: "run_shell_command", Name: "Bash", Fields: "dir_path=cwd directory=cwd", Conv: "shell"},
	{Provider: "gemini", Native: "grep_search", Name: "Grep", Fields: "dir_path=path include=glob"},
	{Provider: "gemini", Native: "search_file_content", Name: "Grep", Fields: "dir_path=path include=glob", Out: "-"},
	{Provider: "gemini", Native: "glob", Name: "Glob", Fields: "dir_path=path"},
	{Provider: "gemini", Native: "list_directory", Name: "LS", Fields: "dir_path=path"},
	{Provider: "gemini", Native: "google_web_search", Name: "WebSearch"},
	{Provider: "gemini", Native: "web_fetch", Name: "WebFetch", Conv: "urlprompt"},
	{Provider: "gemini", Native: "write_todos", Name: "TodoWrite", Fields: "todos=todos[description=content]"},
	{Provider: "gemini", Native: "save_memory", Name: "save_memory", Kind: KindWrite},
	{Provider: "gemini", Native: "ask_user", Name: "AskUserQuestion"},
	{Provider: "gemini", Native: "activate_skill", Name: "Skill", Fields: "name=skill", Conv: "skill"},
	{Provider: "gemini", Native: "enter_plan_mode", Name: "EnterPlanMode", Kind: KindPlan},
	{Provider: "gemini", Native: "exit_plan_mode", Name: "ExitPlanMode"},
	{Provider: "gemini", Native: "update_topic", Name: "update_topic", Kind: KindOther},
}
