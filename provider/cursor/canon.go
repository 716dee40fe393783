package cursor

import "github.com/agt-project/agt/provider/canon"

// tools is Cursor's part of the canonical tool table (provider/canon):
// its native tools. The registry registers it.
var tools = canon.Tools{Rows: toolRows}

// Tools returns the provider's part of the canonical tool table.
func (Provider) Tools() canon.Tools { return tools }

// toolRows: Cursor CLI stream-json, whose tool name is the key of the
// tool_call object (readToolCall, editToolCall, …). Its edit tool sends the
// whole new text of the file (streamContent): a Write in agt's terms. Its
// agent transcripts name the tools otherwise (Shell, StrReplace, …).
var toolRows = []canon.Row{
	{Provider: "cursor", Native: "readToolCall", Name: "Read", Fields: "path=file_path"},
	{Provider: "cursor", Native: "editToolCall", If: "streamContent", Name: "Write", Fields: "path=file_path streamContent=content", Out: "-"},
	{Provider: "cursor", Native: "editToolCall", Name: "Edit", Fields: "path=file_path"},
	{Provider: "cursor", Native: "writeToolCall", Name: "Write", Fields: "path=file_path"},
	{Provider: "cursor", Native: "deleteToolCall", Name: "delete", Kind: canon.KindWrite, Fields: "path=file_path"},
	{Provider: "cursor", Native: "shellToolCall", Name: "Bash", Fields: "workingDirectory=cwd", Conv: "shell"},
	{Provider: "cursor", Native: "grepToolCall", Name: "Grep"},
	{Provider: "cursor", Native: "globToolCall", Name: "Glob", Fields: "globPattern=pattern targetDirectory=path"},
	{Provider: "cursor", Native: "lsToolCall", Name: "LS"},
	{Provider: "cursor", Native: "todoToolCall", Name: "TodoWrite"},

	// the agent transcripts (agent-transcripts/*.jsonl), Claude-like
	// tool_use blocks with names of their own (read only: Cursor has no
	// --to form)
	{Provider: "cursor", Native: "Shell", Name: "Bash", Fields: "working_directory=cwd", Conv: "shell", Out: "-"},
	{Provider: "cursor", Native: "Read", Name: "Read", Fields: "path=file_path", Out: "-"},
	{Provider: "cursor", Native: "StrReplace", Name: "Edit", Fields: "path=file_path", Out: "-"},
	{Provider: "cursor", Native: "Write", Name: "Write", Fields: "path=file_path contents=content", Out: "-"},
	{Provider: "cursor", Native: "Delete", Name: "delete", Kind: canon.KindWrite, Fields: "path=file_path", Out: "-"},
	{Provider: "cursor", Native: "Grep", Name: "Grep", Out: "-"},
	{Provider: "cursor", Native: "Glob", Name: "Glob", Fields: "glob_pattern=pattern target_directory=path", Out: "-"},
}
