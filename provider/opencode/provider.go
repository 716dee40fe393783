// Package opencode reads the formats of OpenCode (opencode-ai, formerly
// sst/opencode):
//
//   - "opencode-export": the document `opencode export <session>` prints,
//     {info, messages:[{info, parts:[…]}]}, pretty-printed (one record, the
//     whole document) or on one line. Its records are addressed by JSON
//     pointer: /info, /messages/N/info, /messages/N/parts/M.
//   - "opencode-run-json": the live output of `opencode run --format json`,
//     one event per line, each with the sessionID.
//
// OpenCode's on-disk storage (the JSON files under storage/ of versions up to
// 1.1, and the SQLite database opencode.db of later ones) is read by
// WalkStorage and WalkDB, which turn each session into export documents
// that the export parser reads like any other (see storage.go): one, or for
// a session past 1 MiB several of whole messages, so that a session of any
// size is read with the memory of one.
//
// Decisions the formats leave open:
//   - Usage: one "call" usage event per assistant message, from its
//     info.tokens and info.cost (native_cost_usd), emitted after the
//     message's parts; step-finish parts split the same tokens per step and
//     become meta events, so nothing is counted twice. A message with neither
//     tokens nor cost (aborted before the model answered) has no usage event.
//     In the live format the steps are the only usage there is: one event per
//     step_finish. See usage.go for output and reasoning.
//   - Every record yields an event at its pointer: the session info a
//     "session" meta event; a user message's info a "message" meta event
//     before its parts; an assistant message's info its usage, and a system
//     event for its error (MessageAbortedError, APIError: the agent's error,
//     not bad input, so not an error event), or else a "message" meta event.
//   - Text parts: user text is "user", assistant text "assistant", the text
//     of a compaction summary (summary:true or mode "compaction") "summary",
//     synthetic or ignored text (reminders OpenCode adds) "system".
//   - Event keys are the native ids (session, message, part); an id that is
//     missing or already used in the session (redacted logs repeat
//     "REDACTED") falls back to the record's JSON pointer alone, so that a
//     session read from storage or the database gets the ids its export gets.
//   - A subagent (task tool) runs in a child session whose info names its
//     parent in parentID: it stays its own session, its session meta event
//     carries Meta.ParentSession, and the parent's task tool part adds a meta
//     event naming the child session.
//   - Tool ids: OpenCode's callID is only unique per message for some models
//     (kimi's "functions.bash:0" restarts with each message) and redacted logs
//     repeat placeholders; a call id already used in the session gets
//     "#<n>" appended (n = 2, 3, …) so that each result pairs with one call.
package opencode

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// Format names.
const (
	FormatExport  = "opencode-export"
	FormatRunJSON = "opencode-run-json"
)

// Provider is the opencode provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "opencode" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "OpenCode", Stores: []string{".db"}}
}

// Formats lists the formats read; the export document is the default.
func (Provider) Formats() []string { return []string{FormatExport, FormatRunJSON} }

// NewParser returns a parser for one input unit in format.
func (Provider) NewParser(format string, opts agt.Options) agt.Parser {
	if format == FormatRunJSON {
		return &liveParser{state: newState()}
	}
	return &exportParser{state: newState()}
}

// Claim makes a storage folder or an opencode.db one input: its sessions as
// export documents, one per line (OpenStored). A folder's input is named
// after its storage/ folder, the unit every storage file belongs to.
func (Provider) Claim(path string, isDir bool) (stage.Input, bool) {
	if !IsStored(path) {
		return stage.Input{}, false
	}
	if isDir {
		path = StorageRoot(path)
	}
	return stage.Input{Path: path, Open: func() (io.ReadCloser, error) { return OpenStored(path) }}, true
}

// Owner reads every file of a storage folder as part of the folder (events
// name their storage file in src).
func (Provider) Owner(path string) string {
	const s = string(filepath.Separator) + "storage" + string(filepath.Separator)
	i := strings.LastIndex(path, s)
	if i < 0 {
		return ""
	}
	sub, _, _ := strings.Cut(path[i+len(s):], string(filepath.Separator))
	switch sub {
	case "session", "message", "part", "project":
		return path[:i+len(s)-1]
	}
	return ""
}
