// Package gemini reads Gemini CLI: its on-disk chat sessions, both the single
// JSON document of CLI ≤ 0.38 and the append-only JSONL log of ≥ 0.39 (format
// gemini-session), and the live output of `gemini -p --output-format
// stream-json` (gemini-stream-json) and `--output-format json` (gemini-json,
// also the error object the CLI prints on stderr).
//
// Decisions where the formats leave room:
//   - One format name, gemini-session, covers both on-disk formats: a
//     pretty-printed document arrives as one record, the JSONL log line by
//     line, and Decode tells them apart (a record with a top-level "messages"
//     array is a document). Document records are addressed by JSON pointer
//     (/messages/N); a JSONL $set checkpoint's messages by
//     /$set/messages/N on their line.
//   - A JSONL message id re-appended with updates yields only what is new in
//     the later version (new thoughts, new tool calls, results that arrived);
//     a changed text yields another event (suffix text:N). A version that
//     brings nothing new becomes a meta event of subtype "update". $set and
//     $rewindTo records become meta events ($set checkpoints list their
//     message ids in meta.data); nothing already emitted is withdrawn: the
//     events are the log, the fold is the reader's.
//   - Usage: one call-scope event per distinct message id with tokens, from
//     its last version, even when a rewind or checkpoint later hid it. In a
//     document each message's usage is emitted after its last occurrence; in
//     JSONL a later line can always update a message's tokens, so usage is
//     emitted when the unit ends (Finish), in order of first appearance, with
//     the src of the line its numbers come from. input = tokens.input -
//     tokens.cached + tokens.tool (tool-use prompt tokens are prompt tokens
//     that promptTokenCount leaves out), cache_read = cached, output = output +
//     thoughts, reasoning = thoughts, so that total equals Gemini's own
//     tokens.total.
//   - Tool calls and their results come from the same toolCalls[] entry: a
//     tool_call, then a tool_result once the entry has a result or a final
//     status (is_error for error and cancelled). The result's output is the
//     functionResponse's response.output (or .error) when the result is one
//     such part, otherwise the Part list as given; without a result, the
//     resultDisplay.
//   - Message types user / gemini / info / error / warning become user /
//     assistant / system events (meta.type keeps the native type on system
//     events); each thought becomes a reasoning event "subject\n\ndescription"
//     with its own timestamp. A user message whose displayContent is a slash
//     command (text starting with "/") also yields a slash_command event. A
//     user message whose content the CLI wrote, not the person, is context:
//     a system event of meta type "user", subtype "context", that keeps its
//     text. The session log tells it by structure: a user message first met
//     in a $set checkpoint (a turn the CLI put into the model's history
//     itself and synced into the log: the <session_context> block, a
//     compression summary; a typed prompt is recorded on its own line
//     first), or one whose displayContent (what the CLI showed as the
//     person's input) is a slash command (the content is the command's
//     prompt) or has no text (a request the CLI made, e.g. "System: Please
//     continue."). A displayContent with other text (an @file prompt) leaves
//     the message the person's. Session documents (≤ 0.38) never recorded
//     the session context; live outputs carry only the -p prompt. A
//     subagent chat (kind "subagent") is its own session, in stream
//     "subagent:<sessionId>" (the parent's toolCalls[].agentId).
//   - stream-json: consecutive assistant delta chunks become one assistant
//     event at the first chunk's line; the other chunks' lines become meta
//     events of subtype "delta". Usage comes from result.stats as run-scope
//     events, one per model (all-zero stats yield none). stream-json stats
//     do not report thoughts: output = total_tokens - input_tokens, and the
//     part above output_tokens is reported as reasoning.
//   - json: one document; usage per model from stats.models[m].tokens as
//     run-scope events (same arithmetic as session tokens, prompt for
//     input).
//   - A document cut short yields the events of every complete record and one
//     error event.
//   - A session-….jsonl given together with the session-….json it was
//     migrated from is read after it in the same unit, so that the repeated
//     messages yield no second set of events and count once.
package gemini

import (
	"path/filepath"
	"strings"

	"github.com/agt-project/agt"
)

// Formats read by this package.
const (
	FormatSession    = "gemini-session"
	FormatStreamJSON = "gemini-stream-json"
	FormatJSON       = "gemini-json"
)

// Provider is the Gemini CLI provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "gemini" }

// Agent is what the provider declares about its agent.
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Gemini CLI", Vendor: "gcp.gemini"}
}

// Formats lists the formats of Gemini CLI; the first is the default.
func (Provider) Formats() []string { return []string{FormatSession, FormatStreamJSON, FormatJSON} }

// NewParser returns a parser for one unit in format.
func (Provider) NewParser(format string, opts agt.Options) agt.Parser {
	switch format {
	case FormatStreamJSON:
		return newStreamParser()
	case FormatJSON:
		return jsonParser{}
	}
	return newSessionParser(opts)
}

// Owner reads a session log migrated from a legacy document with that
// document when both are given: resuming a ≤ 0.38 session-….json writes
// session-….jsonl beside it, repeating every message with the same ids, which
// then count once.
func (Provider) Owner(path string) string {
	base := filepath.Base(path)
	if strings.HasPrefix(base, "session-") && strings.HasSuffix(base, ".jsonl") {
		return strings.TrimSuffix(path, "l")
	}
	return ""
}

// Identify names the session of a whole session document from its first
// block (h.Doc, which may be cut anywhere): its top-level sessionId. Line
// formats are left to their parser.
func (Provider) Identify(format string, h agt.Head) (session string, member, ok bool) {
	if format != FormatSession || h.Doc == nil {
		return "", false, false
	}
	ms, _ := members(h.Doc)
	if v := get(ms, "sessionId"); len(v) > 1 && v[0] == '"' && v[len(v)-1] == '"' {
		return unquote(v), false, true
	}
	return "", false, false
}
