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
//     usage_ledger(id, session_id, created_timestamp, model, input_tokens, output_tokens,
//     total_tokens, cache_read_tokens, cache_write_tokens, cost, cost_source, is_compaction) (schema 15 on)
//
//     Claim makes such a database one input: its rows as JSON lines
//     ({"goose":"session"|"message"|"usage","row":{column: value}}, a
//     session's line with "ledger": the sums of its ledger rows), each
//     session followed by its messages in the order they were written and
//     its ledger rows; then the messages and ledger rows of a session the
//     sessions table does not hold (Goose deletes them with it: a damaged
//     or hand-made database), under their own session id. Events name
//     their row in src ({database, "/sessions/<id>", "/messages/<id>" or
//     "/usage_ledger/<id>"}).
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
// Usage: Goose 1.3x (schema 15 on) writes a usage_ledger row per model
// call (session_id, created_timestamp, model, input_tokens,
// output_tokens, total_tokens, cache_read_tokens, cache_write_tokens,
// cost, cost_source, is_compaction); each becomes a usage event of scope
// call with the row's model, placed before the first message written
// after it (src {database, "/usage_ledger/<id>"}). A row of cost_source
// carried_forward is the catch-up Goose writes for what a session spent
// before its ledger began: scope run. Goose's input_tokens counts the
// whole prompt, cache reads and writes in it: agt's input is what is left.
// Goose's totals are, column by column, the larger of the accumulated_*
// columns (input, output, cache reads and writes, and the cost when the
// provider priced it) and the sums of the ledger rows; what the
// accumulated columns hold beyond the rows (all of it in a database
// without a ledger, or a session file) is one usage event of scope run.
// The plain input/output/total columns are the last call's and stay in
// the session's meta event.
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
	if isDir || filepath.Ext(path) == ".jsonl" || !store.Holds(path) {
		return stage.Input{}, false
	}
	return stage.Input{Path: path, Open: func() (io.ReadCloser, error) { return store.Rows(path) }}, true
}
