package canon

// codexRows: Codex CLI rollouts (function_call, custom_tool_call,
// local_shell_call, web_search_call, tool_search_call items, as the codex
// parser names them) and codex exec --json items. The shell tools differ by
// generation: shell (argv array, ≤0.5x), shell_command (string, 0.6x),
// exec_command (cmd string, unified exec, 0.1xx: the default for rendering).
// apply_patch arrives as {"raw": patch} (custom_tool_call), {"input": patch}
// (function_call) or {"changes": {...}} (end events); exec's file_change
// lists changes[]. MCP tools: mcp__<server>__<tool> (the namespace
// mcp__<server> + the name) and mcp:<server>/<tool> (see mcp.go).
// write_stdin writes to a running exec_command session: with no chars it
// only polls the command's output (Claude's BashOutput).
var codexRows = []Row{
	{Provider: "codex", Native: "exec_command", Name: "Bash", Fields: "cmd=command workdir=cwd", Conv: "shell"},
	{Provider: "codex", Native: "shell", Name: "Bash", Fields: "workdir=cwd", Conv: "argv", Out: "-"},
	{Provider: "codex", Native: "shell_command", Name: "Bash", Fields: "workdir=cwd", Conv: "shell", Out: "-"},
	{Provider: "codex", Native: "local_shell", Name: "Bash", Fields: "working_directory=cwd", Conv: "argv", Out: "-"},
	{Provider: "codex", Native: "local_shell_call", Name: "Bash", Fields: "working_directory=cwd", Conv: "argv", Out: "-"},
	{Provider: "codex", Native: "command_execution", Name: "Bash", Conv: "wrapped", Out: "-"},
	{Provider: "codex", Native: "write_stdin", If: "chars=", Name: "BashOutput", Fields: "session_id=shell_id", Conv: "bg"},
	{Provider: "codex", Native: "write_stdin", Name: "write_stdin", Fields: "session_id=shell_id", Conv: "bg"},
	{Provider: "codex", Native: "apply_patch", If: "raw", Name: "Edit", Fields: "raw=patch", Conv: "patch"},
	{Provider: "codex", Native: "apply_patch", If: "raw", Name: "Write", Fields: "raw=patch", Conv: "patch"},
	{Provider: "codex", Native: "apply_patch", If: "input", Name: "Edit", Fields: "input=patch", Conv: "patch", Out: "-"},
	{Provider: "codex", Native: "apply_patch", If: "changes", Name: "Edit", Conv: "changes", Out: "-"},
	{Provider: "codex", Native: "file_change", Name: "Edit", Conv: "changes", Out: "-"},
	{Provider: "codex", Native: "update_plan", Name: "TodoWrite", Fields: "plan=todos[step=content]"},
	{Provider: "codex", Native: "todo_list", Name: "TodoWrite", Fields: "items=todos[text=content]", Out: "-"},
	{Provider: "codex", Native: "web_search", If: "type=open_page", Name: "WebFetch", Out: "-"},
	{Provider: "codex", Native: "web_search", If: "type=find_in_page", Name: "WebFetch", Out: "-"},
	{Provider: "codex", Native: "web_search", Name: "WebSearch"},
	{Provider: "codex", Native: "web_search_call", Name: "WebSearch", Out: "-"},
	{Provider: "codex", Native: "view_image", Name: "Read", Fields: "path=file_path", Out: "-"},
	{Provider: "codex", Native: "tool_search", Name: "tool_search", Kind: KindOther},
	{Provider: "codex", Native: "image_generation", Name: "image_generation", Kind: KindOther},
}
