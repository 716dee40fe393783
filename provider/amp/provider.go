// Package amp reads Sourcegraph Amp: the live output of `amp --execute
// --stream-json` (also with --stream-json-thinking and
// --stream-json-input), which Amp makes Claude Code compatible: one JSON
// object a line, system/init first, then user and assistant messages, then
// a result. Every line carries session_id, the thread id "T-<uuid>". And
// its threads: the JSON document `amp threads export` prints (the shape of
// the older ~/.local/share/amp/threads/T-*.json), thread.go.
//
// What maps to what in the stream:
//   - system/init opens the session (session_id) and is a meta event
//     (cwd; tools, mcp_servers, agent_mode and reasoning_effort in data).
//     Amp names its agent mode (smart, rush, deep, medium…), never the
//     model, so no event has a model.
//   - user text blocks are user events, tool_result blocks tool results;
//     Amp stringifies a tool's structured result into the block's content,
//     whose exitCode (shell tools) becomes the result's exit_code; a
//     non-zero one makes the result an error, as for Codex (Amp's is_error
//     stays false for a command that ran and failed).
//   - assistant blocks are assistant (text), reasoning (thinking,
//     redacted_thinking) and tool_call events; parent_tool_use_id names
//     the Task call whose subagent wrote the line: its stream is
//     "sidechain:<that id>".
//   - result is a meta event (subtype, is_error, duration_ms, num_turns,
//     and its usage when it has one, in data); an error result is a system
//     event with the error's text.
//
// Decisions where the format leaves room:
//   - Usage is per call: each assistant line's message.usage is that model
//     call's own figures (Amp's thread export holds the same figures per
//     message), so it is a usage event of scope call; input_tokens excludes
//     the cache counts as in agt. max_tokens, the model's input window,
//     is context_window. A result's usage (documented as optional) is a
//     total of the same calls: it stays in the meta event's data, so that
//     nothing is counted twice.
//   - Lines carry no message id and no time: events have no ts, and usage
//     no message_id.
package amp

import "github.com/agt-project/agt"

// Formats read by this package.
const (
	FormatStreamJSON = "amp-stream-json"
	FormatThread     = "amp-thread"
)

// Provider is the Amp provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "amp" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Amp"}
}

// Formats lists the formats of Amp.
func (Provider) Formats() []string { return []string{FormatStreamJSON, FormatThread} }

// NewParser returns a parser for one unit.
func (Provider) NewParser(format string, opts agt.Options) agt.Parser {
	if format == FormatThread {
		return &threadParser{raw: opts.Raw}
	}
	return &parser{calls: calls{}}
}
