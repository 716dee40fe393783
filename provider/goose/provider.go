// Package goose reads the sessions of Goose (Block's agent, block/goose):
//
//   - goose-db: the SQLite database sessions.db
//     (~/.local/share/goose/sessions/sessions.db; %APPDATA%\Block\goose\data\sessions
//     on Windows), read in pure Go and never written (sqlitero):
//
//     sessions(id "YYYYMMDD_N", name, description, user_set_name, session_type user|sub_agent|scheduled|acp,
//     working_dir, created_at "YYYY-MM-DD HH:MM:SS" UTC, updated_at, extension_data,
//     total_tokens, input_tokens, output_tokens, accumulated_total_tokens,
//     accumulated_input_tokens, accumulated_output_tokens, accumulated_cost,
//     schedule_id, recipe_json, user_recipe_values_json, provider_name,
//     model_config_json {model_name, …}, goose_mode, archived_at, project_id[, parent_session_id])
//     messages(id, message_id, session_id, role user|assistant, content_json, created_timestamp (Unix seconds),
//     timestamp, tokens, metadata_json {userVisible, agentVisible})
//
//     Claim makes such a database one input: its rows as JSON lines
//     ({"goose":"session"|"message","row":{column: value}}), each session
//     followed by its messages in the order they were written; events name
//     their row in src ({database, "/sessions/<id>" or "/messages/<id>"}).
//
//   - goose-jsonl: the session files of earlier versions
//     (~/.local/share/goose/sessions/<id>.jsonl, earlier ~/.config/goose/sessions/):
//     a first line of metadata {working_dir, description, message_count,
//     total_tokens, input_tokens, output_tokens, accumulated_*_tokens, …},
//     then one message a line {id, role, created, content}.
//
// A message's content is an array of blocks, by type: text → user or
// assistant event by role; thinking → reasoning; redactedThinking →
// reasoning (meta redacted); toolRequest {id, toolCall: {status, value:
// {name, arguments}} or {status: error, error}} → tool_call (a failed
// request also an error event); toolResponse {id, toolResult: {status,
// value: {content, isError} or, earlier, the content array}} → tool_result
// (the text of its content); error {kind, message} (an error Goose
// reports: the context is too long, the credits ran out) → system event
// with outcome error; image, toolConfirmationRequest,
// frontendToolRequest, contextLengthExceeded, summarizationRequested,
// systemNotification, actionRequired → meta. Tool results come back on
// user messages.
//
// Tool names are the extension's and the tool's, joined by "__"
// (developer__shell); Goose 1.3x names the developer extension's tools
// alone (shell, text_editor) and names the extension in _meta; the
// current developer extension has shell, write, edit and tree. Those of
// the developer extension are canonical (canon.go); any other
// extension__tool is an MCP server's tool (Goose's extensions are MCP
// servers): mcp__extension__tool.
//
// Usage: Goose stores token counts per session, not per message: the
// accumulated_* columns are the session's totals (input, output, and the
// cost when the provider priced it), the plain input/output/total columns
// the last call's. A session gives one usage event of scope run with the
// accumulated totals (the plain columns when a database predates them);
// the other columns stay in the session's meta event. Goose does not tell
// cache reads and writes apart from input.
package goose

import (
	"io"
	"path/filepath"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// Format names.
const (
	FormatDB    = "goose-db"
	FormatJSONL = "goose-jsonl"
)

// Provider is Goose.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "goose" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Goose", Stores: []string{".db"}}
}

// Formats lists the formats read; the database is the default.
func (Provider) Formats() []string { return []string{FormatDB, FormatJSONL} }

// NewParser returns a parser for one input.
func (Provider) NewParser(format string, _ agt.Options) agt.Parser {
	return &parser{jsonl: format == FormatJSONL, calls: map[string]string{}}
}

// Claim makes a Goose database one input: its rows, one JSON line each.
func (Provider) Claim(path string, isDir bool) (stage.Input, bool) {
	if isDir || filepath.Ext(path) == ".jsonl" || !isGooseDB(path) {
		return stage.Input{}, false
	}
	return stage.Input{Path: path, Open: func() (io.ReadCloser, error) { return openRows(path) }}, true
}
