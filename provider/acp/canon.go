package acp

import "github.com/agt-project/agt/provider/canon"

// tools is ACP's part of the canonical tool table (provider/canon):
// its native tools. The registry registers it.
var tools = canon.Tools{Rows: toolRows, Protocol: FormatACP}

// Tools returns the provider's part of the canonical tool table.
func (Provider) Tools() canon.Tools { return tools }

// toolRows: ACP tool kinds. An ACP agent that names no tool (Copilot over
// ACP) leaves the kind as the tool's name and its own input layout; these
// rows are tried for every provider after its own rows. Gemini over ACP
// sends no input, only {title, kind, locations, content}: acpDescription
// (convert.go) reads the path, command and diff from it.
var toolRows = []canon.Row{
	{Provider: "acp", Native: "read", Name: "Read", Fields: "path=file_path", Out: "-"},
	{Provider: "acp", Native: "edit", If: "file_text !old_str", Name: "Write", Fields: "path=file_path file_text=content", Out: "-"},
	{Provider: "acp", Native: "edit", Name: "Edit", Fields: "path=file_path old_str=old_string new_str=new_string", Out: "-"},
	{Provider: "acp", Native: "execute", Name: "Bash", Conv: "shell", Out: "-"},
	{Provider: "acp", Native: "search", Name: "Grep", Out: "-"},
	{Provider: "acp", Native: "fetch", Name: "WebFetch", Out: "-"},
	{Provider: "acp", Native: "delete", Name: "delete", Kind: canon.KindWrite, Out: "-"},
	{Provider: "acp", Native: "move", Name: "move", Kind: canon.KindWrite, Out: "-"},
	{Provider: "acp", Native: "think", Name: "think", Kind: canon.KindThink, Out: "-"},
	{Provider: "acp", Native: "switch_mode", Name: "switch_mode", Kind: canon.KindPlan, Out: "-"},
}
