package canon

// piRows: Pi coding agent (session files, --mode json and rpc). Pi's
// built-in tools are read, write, edit, bash, grep, find and ls; a user's
// "!cmd" is recorded as bashExecution. Pi has no MCP; its extension tools
// keep their names (origin custom) except the few whose purpose is plain
// from the name and input (web fetch and search, asking the user).
var piRows = []Row{
	{Provider: "pi", Native: "read", Name: "Read", Fields: "path=file_path"},
	{Provider: "pi", Native: "write", Name: "Write", Fields: "path=file_path"},
	{Provider: "pi", Native: "edit", If: "edits", Name: "Edit", Fields: "path=file_path edits=edits[oldText=old_string,newText=new_string]", Out: "edits"},
	{Provider: "pi", Native: "edit", Name: "Edit", Fields: "path=file_path oldText=old_string newText=new_string"},
	{Provider: "pi", Native: "bash", Name: "Bash", Conv: "shell"},
	{Provider: "pi", Native: "bashExecution", Name: "Bash", Conv: "shell", Out: "-"},
	{Provider: "pi", Native: "grep", Name: "Grep"},
	{Provider: "pi", Native: "find", Name: "Glob"},
	{Provider: "pi", Native: "ls", Name: "LS"},
	{Provider: "pi", Native: "webfetch", Name: "WebFetch", Origin: OriginCustom},
	{Provider: "pi", Native: "websearch", Name: "WebSearch", Origin: OriginCustom},
	{Provider: "pi", Native: "ask_user_question", Name: "AskUserQuestion", Origin: OriginCustom},
}
