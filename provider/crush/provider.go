// Package crush reads the sessions of Crush (charmbracelet/crush), kept in
// the SQLite database .crush/crush.db of each project (read in pure Go, as
// OpenCode's; the WAL beside it is read with it when its folder can be
// written to, else the database is read as it is on disk):
//
//	sessions(id, parent_session_id, title, message_count, prompt_tokens, completion_tokens, cost, updated_at, created_at, summary_message_id[, todos])
//	messages(id, session_id, role, parts, model, created_at, updated_at, finished_at, provider[, is_summary_message])
//	files(id, session_id, path, content, version, created_at, updated_at)
//	read_files(session_id, path, read_at)  (newer)
//
// Claim makes such a database one input: its rows as JSON lines
// ({"crush":"session"|"message"|"file"|"read_file","row":{column: value}}),
// each session followed by its messages (in order of creation), files and
// reads; events name their row in src ({database, "/messages/<id>"}). The
// format is crush-db.
//
// A session row is a meta event (title, parent session) and, when the
// session cost anything, one usage event of scope run carrying the cost
// Crush summed (native_cost_usd) and no token counts: Crush keeps no
// per-message tokens, and its prompt_tokens / completion_tokens are
// overwritten by each model call (input + cache reads and output in
// current releases; input + cache writes and output + cache reads in
// 2025 ones), not a total; they stay in the meta event's data. Message parts map by type:
// text → user / assistant events by role; reasoning → reasoning;
// tool_call → tool_call (its input, a JSON string, decoded); tool_result →
// tool_result linked by tool_call_id; finish → meta, or a system event when
// the call ended in error, was cancelled or refused; shell_command (a
// command the user ran) → a tool_call named shell_command and its
// tool_result with the exit code; image_url and binary → meta.
// Times are Unix seconds (the schema's comments say milliseconds; values
// past 10^12 are read as milliseconds). File rows (versions of files the
// agent wrote) and read rows are meta events.
package crush

import (
	"io"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// FormatDB is the rows of a Crush database as Claim reads them.
const FormatDB = "crush-db"

// Provider is the crush provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "crush" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Crush", Stores: []string{".db"}}
}

// Formats lists the formats read.
func (Provider) Formats() []string { return []string{FormatDB} }

// NewParser returns a parser for one database.
func (Provider) NewParser(string, agt.Options) agt.Parser {
	return &parser{calls: map[string]string{}}
}

// Claim makes a Crush database one input: its rows, one JSON line each.
func (Provider) Claim(path string, isDir bool) (stage.Input, bool) {
	if isDir || !store.Holds(path) {
		return stage.Input{}, false
	}
	return stage.Input{Path: path, Open: func() (io.ReadCloser, error) { return store.Rows(path) }}, true
}
