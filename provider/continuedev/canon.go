package continuedev

import "github.com/agt-project/agt/provider/canon"

// tools is Continue's part of the canonical tool table (provider/canon):
// its native tools, the way it names MCP tools and its tools' definitions.
// The registry registers it.
var tools = canon.Tools{Rows: toolRows, MCP: mcpStyles, Defs: toolDefs, API: canon.APIChatCompletions}

// mcpStyles are the ways Continue names an MCP server's tool: the server's
// name in lower case with runs of other characters as "_", then "_" and
// the tool (core/tools/mcpToolName.ts). For rendering only: read back,
// the pattern would take its own builtin_* tools that have no row.
var mcpStyles = []canon.MCPStyle{
	{Pattern: "{s}_{t}", Out: true, OutOnly: true},
}

// Tools returns the provider's part of the canonical tool table.
func (Provider) Tools() canon.Tools { return tools }

// toolRows: Continue (session files). Its built-in tools are named as in
// core/tools/builtIn.ts: read_file, create_new_file, … since 1.0, and
// builtin_read_file, … before (read only: rendered, a call takes today's
// name). File paths are filepath, a new file's text contents. Its
// edit_existing_file takes the changes as a sketch of the new code
// (placeholders for the unchanged parts), which no exact replacement
// renders to; single_find_and_replace and multi_edit take Claude's
// old_string/new_string.
var toolRows = []canon.Row{
	{Provider: "continue", Native: "read_file", Name: "Read", Fields: "filepath=file_path"},
	{Provider: "continue", Native: "read_file_range", Name: "Read", Fields: "filepath=file_path", Out: "-"}, // startLine/endLine kept as they are
	{Provider: "continue", Native: "create_new_file", Name: "Write", Fields: "filepath=file_path contents=content"},
	{Provider: "continue", Native: "multi_edit", Name: "Edit", Fields: "filepath=file_path", Out: "edits"},
	{Provider: "continue", Native: "single_find_and_replace", Name: "Edit", Fields: "filepath=file_path"},
	{Provider: "continue", Native: "edit_existing_file", Name: "Edit", Fields: "filepath=file_path", Out: "-"}, // changes: a sketch of the new code, no old and new strings
	{Provider: "continue", Native: "run_terminal_command", Name: "Bash", Conv: "shell"},
	{Provider: "continue", Native: "grep_search", Name: "Grep", Fields: "query=pattern"},
	{Provider: "continue", Native: "file_glob_search", Name: "Glob"},
	{Provider: "continue", Native: "ls", Name: "LS", Fields: "dirPath=path"},
	{Provider: "continue", Native: "search_web", Name: "WebSearch"},
	{Provider: "continue", Native: "fetch_url_content", Name: "WebFetch"},
	{Provider: "continue", Native: "read_skill", Name: "Skill", Fields: "skillName=skill", Conv: "skill"},

	{Provider: "continue", Native: "builtin_read_file", Name: "Read", Fields: "filepath=file_path", Out: "-"},
	{Provider: "continue", Native: "builtin_create_new_file", Name: "Write", Fields: "filepath=file_path contents=content", Out: "-"},
	{Provider: "continue", Native: "builtin_edit_existing_file", Name: "Edit", Fields: "filepath=file_path", Out: "-"},
	{Provider: "continue", Native: "builtin_run_terminal_command", Name: "Bash", Conv: "shell", Out: "-"},
	{Provider: "continue", Native: "builtin_grep_search", Name: "Grep", Fields: "query=pattern", Out: "-"},
	{Provider: "continue", Native: "builtin_file_glob_search", Name: "Glob", Out: "-"},
	{Provider: "continue", Native: "builtin_ls", Name: "LS", Fields: "dirPath=path", Out: "-"},
	{Provider: "continue", Native: "builtin_search_web", Name: "WebSearch", Out: "-"},
	{Provider: "continue", Native: "builtin_fetch_url_content", Name: "WebFetch", Out: "-"},
}

// toolDefs are the definitions of its tools, by native name (see
// canon.Def): the parameters of Continue's built-in tools
// (core/tools/definitions), which it offers as OpenAI function tools.
var toolDefs = map[string]canon.Def{
	"read_file":               {Params: "filepath!:s"},
	"create_new_file":         {Params: "filepath!:s contents!:s"},
	"single_find_and_replace": {Params: "filepath!:s old_string!:s new_string!:s replace_all:b"},
	"multi_edit":              {Params: "filepath!:s edits!:a:o"},
	"run_terminal_command":    {Params: "command!:s waitForCompletion:b"},
	"grep_search":             {Params: "query!:s"},
	"file_glob_search":        {Params: "pattern!:s"},
	"ls":                      {Params: "dirPath:s recursive:b"},
	"search_web":              {Params: "query!:s"},
	"fetch_url_content":       {Params: "url!:s"},
	"read_skill":              {Params: "skillName!:s"},
}
