// Package kiro reads Kiro CLI (the successor of Amazon Q Developer CLI):
// the session logs of its KAS engine (kas.go), the conversations of its
// legacy chat, which Amazon Q Developer CLI wrote too (format
// kiro-conversation, conversation.go: a ConversationState document, as
// /save writes it; format kiro-db, db.go: the data.sqlite3 that holds
// them), and the session logs of its V2 agent engine, `<session_id>.jsonl` beside
// `<session_id>.json` in ~/.kiro/sessions/cli/. Each line is a versioned
// log entry, {"version":"v1","kind":K,"data":{…}}, as the CLI's event log
// writes it (kinds Prompt, AssistantMessage, ToolResults, Compaction,
// ResetTo, CancelledPrompt, Clear); content blocks are {"kind":"text"|
// "toolUse"|"toolResult"|"image","data":…}.
//
// What maps to what:
//   - Prompt text blocks are user events, at the prompt's meta.timestamp
//     (epoch seconds), the only time a log entry carries.
//   - AssistantMessage text blocks are assistant events (empty texts, which
//     the engine writes before tool uses, are left out), toolUse blocks
//     tool calls; both carry the entry's message_id.
//   - ToolResults toolResult blocks are tool results: a single text block's
//     text is the output, else the content blocks; status "error" is an
//     error; a shell's json block "exit_status": "exit status: N" gives the
//     exit code. The entry's results map repeats the calls and results in
//     the engine's own types: it is not read again.
//   - Compaction is a summary event (its summary); ResetTo, CancelledPrompt
//     and Clear are meta events that say how the conversation was rewound.
//
// Decisions where the format leaves room:
//   - The log names no session: its session is the file's name (the CLI
//     names the file after the session id).
//   - The log holds no token counts; the sibling .json holds the session's
//     per-turn metadata (input/output token counts, credits) and is not
//     read, so that no usage is made up: there are no usage events.
package kiro

import (
	"io"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// Formats read by this package.
const (
	FormatSession = "kiro-session"
	FormatKAS     = "kiro-kas"          // the KAS engine's log, kas.go
	FormatConv    = "kiro-conversation" // the legacy chat's conversation, conversation.go
	FormatDB      = "kiro-db"           // the legacy chat's database, db.go
)

// Provider is the Kiro CLI provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "kiro" }

// Agent is what the provider declares about its agent.
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Kiro CLI", Vendor: "aws.bedrock"}
}

// Formats lists the formats of Kiro CLI.
func (Provider) Formats() []string { return []string{FormatSession, FormatKAS, FormatConv, FormatDB} }

// NewParser returns a parser for one unit.
func (Provider) NewParser(format string, opts agt.Options) agt.Parser {
	if format == FormatConv {
		return &convParser{raw: opts.Raw}
	}
	if format == FormatDB {
		return &dbParser{conv: convParser{raw: opts.Raw}}
	}
	if format == FormatKAS {
		return &kasParser{calls: map[string]string{}}
	}
	return &parser{calls: map[string]string{}}
}

// Claim makes the legacy chat's database one input: a line per
// conversation (db.go).
func (Provider) Claim(path string, isDir bool) (stage.Input, bool) {
	if isDir || !store.Holds(path) {
		return stage.Input{}, false
	}
	return stage.Input{Path: path, Open: func() (io.ReadCloser, error) { return store.Rows(path) }}, true
}
