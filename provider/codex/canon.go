package codex

import (
	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
)

// tools is Codex CLI's part of the canonical tool table (provider/canon):
// its native tools, the way it names MCP tools and its tools'
// definitions. The registry registers it.
var tools = canon.Tools{Rows: toolRows, MCP: mcpStyles, Defs: toolDefs, API: canon.APIResponses,
	Needs: map[string]map[string]agt.Raw{"BashOutput": {"chars": agt.Raw(`""`)}}, // write_stdin polls with no chars
}

// Tools returns the provider's part of the canonical tool table.
func (Provider) Tools() canon.Tools { return tools }

// toolRows: Codex CLI rollouts (function_call, custom_tool_call,
// local_shell_call, web_search_call, tool_search_call items, as the codex
// parser names them) and codex exec --json items. The shell tools differ by
// generation: shell (argv array, ≤0.5x), shell_command (string, 0.6x),
// exec_command (cmd string, unified exec, 0.1xx: the default for rendering).
// apply_patch arrives as {"raw": patch} (custom_tool_call), {"input": patch}
// (function_call) or {"changes": {...}} (end events); exec's file_change
// lists changes[]. MCP tools: mcp__<server>__<tool> (the namespace
// mcp__<server> + the name) and mcp:<server>/<tool> (see mcpStyles).
// write_stdin writes to a running exec_command session: with no chars it
// only polls the command's output (Claude's BashOutput).
var toolRows = []canon.Row{
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
	{Provider: "codex", Native: "web_search", Name: "WebSearch", Conv: "search"},
	{Provider: "codex", Native: "web_search_call", Name: "WebSearch", Out: "-"},
	{Provider: "codex", Native: "view_image", Name: "Read", Fields: "path=file_path", Out: "-"},
	{Provider: "codex", Native: "tool_search", Name: "ToolSearch", Kind: canon.KindOther},
	{Provider: "codex", Native: "list_mcp_resources", Name: "ListMcpResourcesTool", Kind: canon.KindRead},
	{Provider: "codex", Native: "list_mcp_resource_templates", Name: "ListMcpResourcesTool", Kind: canon.KindRead, Out: "-"}, // Claude Code has no templates tool: native_name tells
	{Provider: "codex", Native: "read_mcp_resource", Name: "ReadMcpResourceTool", Kind: canon.KindRead},
	{Provider: "codex", Native: "image_generation", Name: "image_generation", Kind: canon.KindOther},
}

// mcpStyles are the ways Codex CLI names an MCP server's tool, tried in
// order after its rows and the parsers' own spelling mcp__{s}__{t}.
var mcpStyles = []canon.MCPStyle{
	{Pattern: "mcp__{s}__{t}", Out: true},
	{Pattern: "mcp:{s}/{t}"}, // Codex's display of a call
}

// toolDefs are the definitions of its tools, by native name (see
// canon.Def).
var toolDefs = map[string]canon.Def{
	"exec_command":       {Params: "cmd!:s workdir:s shell:s login:b tty:b yield_time_ms:n max_output_tokens:n sandbox_permissions:s justification:s prefix_rule:a:s"},
	"write_stdin":        {Desc: "Writes characters to a running exec_command session and returns its recent output (no characters: polls it).", Params: "session_id!:n chars:s yield_time_ms:n max_output_tokens:n"},
	"apply_patch":        {Desc: canon.PatchDescription, Params: "raw!:s", Kind: "custom"},
	"update_plan":        {Params: "plan!:a:o explanation:s"},
	"web_search":         {Params: "*", Kind: "hosted"},
	"tool_search":        {Desc: "Searches the tools of the connected apps.", Params: "query!:s limit:n"},
	"list_mcp_resources": {Desc: "Lists the resources of the connected MCP servers.", Params: "server:s cursor:s"},
	"read_mcp_resource":  {Desc: "Reads an MCP resource by server and URI.", Params: "server!:s uri!:s"},
	"image_generation":   {Desc: "Generates an image.", Params: "*", Kind: "hosted"},
}
