// Package continuedev reads what Continue (continue.dev; the VS Code and
// JetBrains extensions and the cn CLI) keeps under ~/.continue. The
// provider is named continue in events; the package is not, continue being
// a Go keyword.
//
//   - continue-session: a session, sessions/<sessionId>.json: sessionId,
//     title, workspaceDirectory and history, one item per message
//     ({message: {id, role, content, toolCalls?}, contextItems,
//     promptLogs?, toolCallState?, …}).
//   - continue-index: the session index, sessions/sessions.json: an array
//     of {sessionId, title, dateCreated (epoch ms, as a string),
//     workspaceDirectory}.
//   - continue-tokens: the token log, dev_data/tokens_generated.jsonl
//     (newer: dev_data/0.2.0/tokensGenerated.jsonl): one line per model
//     request, {model, provider, promptTokens, generatedTokens} (newer
//     lines add timestamp and, on some, sessionId).
//
// The three are joined by session id, as every session is: the index's
// entries are meta events (title, working folder, creation time) of the
// sessions they name, so that a transcript of a session file and the index
// has its start time; token log lines naming a session are its usage.
// Session files hold no times and no usage; the old token log names no
// session, so its lines are usage events of a session named after the log
// file (one call each: input = promptTokens, Continue's own count of the
// prompt; output = generatedTokens; no cache counts).
//
// History items map by role: user → user events (text parts; images →
// meta), assistant → assistant event (model from its prompt log's
// completion options, else its model title) and a tool_call per toolCalls
// entry; tool → tool_result linked by toolCallId; a toolCallState with
// output on an assistant item (newer versions) is its call's result.
// Context items (files and snippets attached to a message) and prompt logs
// stay in the raw record.
package continuedev

import "github.com/agt-project/agt"

// Format names.
const (
	FormatSession = "continue-session"
	FormatIndex   = "continue-index"
	FormatTokens  = "continue-tokens"
)

// Provider is the continue provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "continue" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Continue"}
}

// Formats lists the formats read; session files are the default.
func (Provider) Formats() []string { return []string{FormatSession, FormatIndex, FormatTokens} }

// NewParser returns a parser for one input in format.
func (Provider) NewParser(format string, _ agt.Options) agt.Parser {
	switch format {
	case FormatIndex:
		return indexParser{}
	case FormatTokens:
		return tokensParser{}
	}
	return &sessionParser{calls: map[string]string{}}
}
