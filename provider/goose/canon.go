package goose

import "github.com/agt-project/agt/provider/canon"

// tools is Goose's part of the canonical tool table (provider/canon): the
// tools of its developer extension, under both their names (developer__
// shell, and shell as Goose 1.3x names them), and the way it names an
// extension's tool. The registry registers it.
var tools = canon.Tools{Rows: toolRows, MCP: mcpStyles, Defs: toolDefs, API: canon.APIParameters}

// Tools returns the provider's part of the canonical tool table.
func (Provider) Tools() canon.Tools { return tools }

// toolRows: the developer extension. shell runs a command; text_editor
// views (Read), writes (Write: file_text), edits (Edit: old_str, new_str),
// inserts or undoes by its command member; the current developer
// extension has write (path, content), edit (path, before, after) and
// tree (a listing) instead, the --to goose rows of Write, Edit and LS;
// list_windows and screen_capture keep their names.
var toolRows = []canon.Row{
	{Provider: "goose", Native: "developer__shell", Name: "Bash", Conv: "shell", Out: "-"},
	{Provider: "goose", Native: "shell", Name: "Bash", Conv: "shell"},
	{Provider: "goose", Native: "developer__text_editor", If: "command=view", Name: "Read", Fields: "path=file_path", Out: "-"},
	{Provider: "goose", Native: "developer__text_editor", If: "command=write", Name: "Write", Fields: "path=file_path file_text=content", Out: "-"},
	{Provider: "goose", Native: "developer__text_editor", If: "command=str_replace", Name: "Edit", Fields: "path=file_path old_str=old_string new_str=new_string", Out: "-"},
	{Provider: "goose", Native: "developer__text_editor", Name: "text_editor", Kind: canon.KindWrite, Out: "-"},
	{Provider: "goose", Native: "text_editor", If: "command=view", Name: "Read", Fields: "path=file_path"},
	{Provider: "goose", Native: "text_editor", If: "command=write", Name: "Write", Fields: "path=file_path file_text=content", Out: "-"},
	{Provider: "goose", Native: "text_editor", If: "command=str_replace", Name: "Edit", Fields: "path=file_path old_str=old_string new_str=new_string", Out: "-"},
	{Provider: "goose", Native: "write", Name: "Write", Fields: "path=file_path"},
	{Provider: "goose", Native: "edit", Name: "Edit", Fields: "path=file_path before=old_string after=new_string"},
	{Provider: "goose", Native: "tree", Name: "LS"},
	{Provider: "goose", Native: "text_editor", Name: "text_editor", Kind: canon.KindWrite},
	{Provider: "goose", Native: "developer__list_windows", Name: "list_windows", Kind: canon.KindOther, Out: "-"},
	{Provider: "goose", Native: "developer__screen_capture", Name: "screen_capture", Kind: canon.KindRead, Out: "-"},
	{Provider: "goose", Native: "developer__image_processor", Name: "image_processor", Kind: canon.KindRead, Out: "-"},
}

// mcpStyles: an extension's tool is <extension>__<tool> (Goose's
// extensions are MCP servers).
var mcpStyles = []canon.MCPStyle{
	{Pattern: "{s}__{t}", Out: true},
}

// toolDefs are the definitions of the developer extension's tools, by
// native name (canon.Def).
var toolDefs = map[string]canon.Def{
	"shell":       {Desc: "Runs a shell command and returns its output.", Params: "command!:s"},
	"write":       {Desc: "Creates or overwrites a file.", Params: "path!:s content!:s"},
	"edit":        {Desc: "Edits a file by replacing the exact text before with after.", Params: "path!:s before!:s after!:s"},
	"tree":        {Desc: "Lists a folder tree with line counts.", Params: "path:s depth:i"},
	"text_editor": {Desc: "Views, writes, edits (str_replace), inserts into or undoes the last edit of a file.", Params: "command!:s path!:s file_text:s old_str:s new_str:s insert_line:i view_range:a:i"},
}
