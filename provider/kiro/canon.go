package kiro

import "github.com/agt-project/agt/provider/canon"

// tools is Kiro CLI's part of the canonical tool table (provider/canon):
// its native tools and their definitions. The registry registers it.
var tools = canon.Tools{Rows: toolRows, Defs: toolDefs, API: canon.APIMessages}

// Tools returns the provider's part of the canonical tool table.
func (Provider) Tools() canon.Tools { return tools }

// toolRows: the V2 engine's built-in tools as its session logs name them
// (a kiro-cli 2.4.2 capture; the members are those of the engine's typed
// copies in each ToolResults entry). write is one tool for every file
// change, told apart by its command: create (Write) and strReplace (Edit,
// the engine's camelCase tag); read takes a list of operations, each a
// path (converter operations).
var toolRows = []canon.Row{
	{Provider: "kiro", Native: "shell", Name: "Bash", Fields: "working_dir=cwd", Conv: "shell"},
	{Provider: "kiro", Native: "read", Name: "Read", Conv: "operations"},
	{Provider: "kiro", Native: "write", If: "command=create", Name: "Write", Fields: "path=file_path"},
	{Provider: "kiro", Native: "write", If: "command=strReplace", Name: "Edit", Fields: "path=file_path old_str=old_string new_str=new_string"},
	{Provider: "kiro", Native: "grep", Name: "Grep"},
	{Provider: "kiro", Native: "glob", Name: "Glob"},
	// the KAS engine: create writes a file (modifiedContent), run_command
	// runs a command
	{Provider: "kiro", Native: "create", Name: "Write", Fields: "file=file_path modifiedContent=content", Out: "-"},
	{Provider: "kiro", Native: "run_command", Name: "Bash", Conv: "shell", Out: "-"},
	// the legacy chat (conversation.go): fs_read takes a list of
	// operations (earlier one, its mode naming what it does), fs_write a
	// command; a call read from a conversation renders back as it was,
	// the V2 engine's tools are the defaults (the legacy tools have no
	// definition: no canonical call renders as one of them)
	{Provider: "kiro", Native: "fs_read", If: "operations", Name: "Read", Conv: "operations", Out: "-"},
	{Provider: "kiro", Native: "fs_read", If: "mode=Directory", Name: "LS", Out: "-"},
	{Provider: "kiro", Native: "fs_read", If: "mode=Search", Name: "Grep", Out: "-"},
	{Provider: "kiro", Native: "fs_read", If: "mode=Image", Name: "fs_read", Kind: canon.KindRead, Out: "-"},
	{Provider: "kiro", Native: "fs_read", Name: "Read", Fields: "path=file_path", Out: "-"},
	{Provider: "kiro", Native: "fs_write", If: "command=create", Name: "Write", Fields: "path=file_path file_text=content", Out: "-"},
	{Provider: "kiro", Native: "fs_write", If: "command=str_replace", Name: "Edit", Fields: "path=file_path old_str=old_string new_str=new_string", Out: "-"},
	{Provider: "kiro", Native: "fs_write", Name: "fs_write", Kind: canon.KindWrite, Out: "-"},
	{Provider: "kiro", Native: "execute_bash", Name: "Bash", Fields: "working_dir=cwd", Conv: "shell", Out: "-"},
	{Provider: "kiro", Native: "execute_cmd", Name: "Bash", Fields: "working_dir=cwd", Conv: "shell", Out: "-"},
	{Provider: "kiro", Native: "web_fetch", Name: "WebFetch", Out: "-"},
	{Provider: "kiro", Native: "web_search", Name: "WebSearch", Out: "-"},
	{Provider: "kiro", Native: "use_aws", Name: "use_aws", Kind: canon.KindExecute, Out: "-"},
	{Provider: "kiro", Native: "use_subagent", Name: "use_subagent", Kind: canon.KindOther, Out: "-"},
	{Provider: "kiro", Native: "code", Name: "code", Kind: canon.KindSearch, Out: "-"},
	{Provider: "kiro", Native: "introspect", Name: "introspect", Kind: canon.KindRead, Out: "-"},
	{Provider: "kiro", Native: "thinking", Name: "thinking", Kind: canon.KindThink, Out: "-"},
	{Provider: "kiro", Native: "todo_list", Name: "todo_list", Kind: canon.KindPlan, Out: "-"},
	{Provider: "kiro", Native: "knowledge", Name: "knowledge", Kind: canon.KindOther, Out: "-"},
	{Provider: "kiro", Native: "session", Name: "session", Kind: canon.KindOther, Out: "-"},
	{Provider: "kiro", Native: "report_issue", Name: "report_issue", Kind: canon.KindOther, Out: "-"},
	{Provider: "kiro", Native: "dummy", Name: "dummy", Kind: canon.KindOther, Out: "-"},
}

// toolDefs are the definitions of its tools, by native name (see
// canon.Def).
var toolDefs = map[string]canon.Def{
	"shell": {Params: "command!:s working_dir:s"},
	"read":  {Params: "operations!:a:o"},
	"write": {Params: "command!:s path!:s content:s old_str:s new_str:s replace_all:b"},
	"grep":  {Params: "pattern!:s path:s include:s case_sensitive:b output_mode:s max_matches_per_file:n max_files:n max_total_lines:n max_depth:n"},
	"glob":  {Params: "pattern!:s path:s limit:n max_depth:n"},
}
