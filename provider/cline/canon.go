package cline

import "github.com/agt-project/agt/provider/canon"

// tools is Cline's part of the canonical tool table (provider/canon): its
// native tools and their definitions. The registry registers it.
var tools = canon.Tools{Rows: toolRows, Defs: toolDefs, API: canon.APIParameters}

// Tools returns the provider's part of the canonical tool table.
func (Provider) Tools() canon.Tools { return tools }

// toolRows: the tools of Cline's SDK runtime (its tools/definitions.ts).
// editor edits a file (old_text → new_text), creates one (no old_text) or
// inserts at a line (insert_line): the first two are Edit and Write, the
// insertion keeps its name. apply_patch takes a patch text as Codex's
// does. The tools that take a list (read_files: files, run_commands:
// commands, search_codebase: queries, fetch_web_content: requests) keep
// their names and inputs, with the kind of what they do: one call stands
// for several canonical ones, which a rename cannot say. Team and
// sub-agent tools keep their names (kind other).
var toolRows = []canon.Row{
	{Provider: "cline", Native: "editor", If: "old_text", Name: "Edit", Fields: "path=file_path old_text=old_string new_text=new_string"},
	{Provider: "cline", Native: "editor", If: "insert_line", Name: "editor", Kind: canon.KindWrite, Out: "-"},
	{Provider: "cline", Native: "editor", Name: "Write", Fields: "path=file_path new_text=content"},
	{Provider: "cline", Native: "apply_patch", Name: "Edit", Fields: "input=patch", Conv: "patch", Out: "patch"},
	{Provider: "cline", Native: "read_files", Name: "read_files", Kind: canon.KindRead},
	{Provider: "cline", Native: "run_commands", Name: "run_commands", Kind: canon.KindExecute},
	{Provider: "cline", Native: "search_codebase", Name: "search_codebase", Kind: canon.KindSearch},
	{Provider: "cline", Native: "fetch_web_content", Name: "fetch_web_content", Kind: canon.KindFetch},
	{Provider: "cline", Native: "ask_question", Name: "ask_question", Kind: canon.KindAsk},
	{Provider: "cline", Native: "skills", Name: "Skill", Conv: "skill"},
	{Provider: "cline", Native: "submit_and_exit", Name: "submit_and_exit", Kind: canon.KindOther},
	{Provider: "cline", Native: "spawn_agent", Name: "spawn_agent", Kind: canon.KindOther},

	// The tools of the VS Code extension's tasks (and of Roo Code's and
	// Kilo Code's), by the names the model calls them (the panel's
	// records are mapped to them, tasktools.go). Write and Edit render as
	// the SDK's editor; a call read from a task renders back as it was.
	{Provider: "cline", Native: "read_file", Name: "Read", Fields: "path=file_path"},
	{Provider: "cline", Native: "write_to_file", Name: "Write", Fields: "path=file_path", Out: "-"},
	{Provider: "cline", Native: "replace_in_file", Name: "Edit", Fields: "path=file_path", Out: "-"},
	{Provider: "cline", Native: "apply_diff", Name: "Edit", Fields: "path=file_path", Out: "-"},
	{Provider: "cline", Native: "insert_content", Name: "insert_content", Kind: canon.KindWrite},
	{Provider: "cline", Native: "search_and_replace", Name: "search_and_replace", Kind: canon.KindWrite},
	{Provider: "cline", Native: "delete_file", Name: "delete_file", Kind: canon.KindWrite},
	{Provider: "cline", Native: "execute_command", Name: "Bash", Conv: "shell"},
	{Provider: "cline", Native: "search_files", Name: "Grep", Fields: "regex=pattern file_pattern=glob"},
	{Provider: "cline", Native: "list_files", Name: "LS"},
	{Provider: "cline", Native: "list_code_definition_names", Name: "list_code_definition_names", Kind: canon.KindSearch},
	{Provider: "cline", Native: "codebase_search", Name: "codebase_search", Kind: canon.KindSearch},
	{Provider: "cline", Native: "web_fetch", Name: "WebFetch"},
	{Provider: "cline", Native: "browser_action", Name: "browser_action", Kind: canon.KindFetch},
	{Provider: "cline", Native: "access_mcp_resource", Name: "access_mcp_resource", Kind: canon.KindFetch},
	{Provider: "cline", Native: "ask_followup_question", Name: "ask_followup_question", Kind: canon.KindAsk},
	{Provider: "cline", Native: "attempt_completion", Name: "attempt_completion", Kind: canon.KindOther},
	{Provider: "cline", Native: "plan_mode_respond", Name: "plan_mode_respond", Kind: canon.KindPlan},
	{Provider: "cline", Native: "act_mode_respond", Name: "act_mode_respond", Kind: canon.KindOther},
	{Provider: "cline", Native: "new_task", If: "message", Name: "Task", Fields: "message=prompt mode=subagent_type", Out: "-"},
	{Provider: "cline", Native: "new_task", Name: "Task", Fields: "context=prompt"},
	{Provider: "cline", Native: "switch_mode", Name: "switch_mode", Kind: canon.KindPlan},
	{Provider: "cline", Native: "update_todo_list", Name: "update_todo_list", Kind: canon.KindPlan},
	{Provider: "cline", Native: "fetch_instructions", Name: "fetch_instructions", Kind: canon.KindRead},
	{Provider: "cline", Native: "summarize_task", Name: "summarize_task", Kind: canon.KindOther},
	{Provider: "cline", Native: "run_slash_command", Name: "run_slash_command", Kind: canon.KindOther},
	{Provider: "cline", Native: "generate_image", Name: "generate_image", Kind: canon.KindWrite},
}

// toolDefs are the definitions of its tools, by native name (canon.Def).
var toolDefs = map[string]canon.Def{
	"editor":            {Desc: "Edits a file: replaces old_text with new_text, creates the file with new_text, or inserts new_text before insert_line.", Params: "path!:s old_text:s new_text!:s insert_line:n"},
	"apply_patch":       {Desc: canon.PatchDescription, Params: "input!:s"},
	"read_files":        {Desc: "Reads files, each whole or a range of its lines.", Params: "files!:a:o"},
	"run_commands":      {Desc: "Runs shell commands and returns their output.", Params: "commands!:a:s"},
	"search_codebase":   {Desc: "Searches the workspace for each query.", Params: "queries!:a:s"},
	"fetch_web_content": {Desc: "Fetches web pages and answers a prompt on each.", Params: "requests!:a:o"},
	"ask_question":      {Desc: "Asks the user one question with 2 to 5 options.", Params: "question!:s options!:a:s"},
	"skills":            {Params: "skill!:s args:s"},
	"submit_and_exit":   {Desc: "Ends the task with a summary of what was done.", Params: "summary!:s verified:b"},
	"spawn_agent":       {Desc: "Starts a sub-agent on a task.", Params: "systemPrompt!:s task!:s"},

	// the extension's tools (write_to_file, replace_in_file and apply_diff
	// have none: Write and Edit render as the SDK's editor)
	"read_file":                  {Desc: "Reads a file.", Params: "path!:s"},
	"insert_content":             {Desc: "Inserts content before a line of a file.", Params: "path!:s line!:n content!:s"},
	"search_and_replace":         {Desc: "Replaces text in a file.", Params: "path!:s search!:s replace!:s"},
	"delete_file":                {Desc: "Deletes a file.", Params: "path!:s"},
	"execute_command":            {Desc: "Runs a shell command.", Params: "command!:s requires_approval:b"},
	"search_files":               {Desc: "Searches the files of a folder for a regular expression.", Params: "path!:s regex!:s file_pattern:s"},
	"list_files":                 {Desc: "Lists the files of a folder.", Params: "path!:s recursive:b"},
	"list_code_definition_names": {Desc: "Lists the definitions in the source files of a folder.", Params: "path!:s"},
	"codebase_search":            {Desc: "Searches the indexed workspace for a query.", Params: "query!:s path:s"},
	"web_fetch":                  {Desc: "Fetches a web page.", Params: "url!:s"},
	"browser_action":             {Desc: "Drives a browser: launch, click, type, scroll, close.", Params: "action!:s url:s coordinate:s text:s"},
	"access_mcp_resource":        {Desc: "Reads a resource of an MCP server.", Params: "server_name!:s uri!:s"},
	"ask_followup_question":      {Desc: "Asks the user a question.", Params: "question!:s options:a:s"},
	"attempt_completion":         {Desc: "Presents the result of the task.", Params: "result!:s command:s"},
	"plan_mode_respond":          {Desc: "Answers the user in plan mode.", Params: "response!:s options:a:s"},
	"act_mode_respond":           {Desc: "Answers the user in act mode.", Params: "response!:s"},
	"new_task":                   {Desc: "Starts a new task with the context given.", Params: "context!:s"},
	"switch_mode":                {Desc: "Switches to another mode.", Params: "mode_slug!:s reason:s"},
	"update_todo_list":           {Desc: "Replaces the task's todo list.", Params: "todos!:s"},
	"fetch_instructions":         {Desc: "Fetches the instructions of a task.", Params: "task!:s"},
	"summarize_task":             {Desc: "Summarizes the task so far.", Params: "context!:s"},
	"run_slash_command":          {Desc: "Runs a slash command.", Params: "command!:s args:s"},
	"generate_image":             {Desc: "Generates an image.", Params: "prompt!:s path!:s"},
}
