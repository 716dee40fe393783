// Package acp reads Agent Client Protocol captures: the JSON-RPC 2.0 lines
// an ACP agent (gemini --acp, claude-agent-acp, copilot --acp, …) and its
// client exchange over stdio, as raw agent stdout (one message per line) or
// as a both-direction capture ({"dir": "client->agent"|"agent->client",
// "msg": {…}} per line). The format is "acp".
//
// Decisions where the protocol leaves room:
//   - Provider: the initialize result's agentInfo (name, else title) names
//     the agent: gemini-cli → "gemini", claude-agent-acp / Claude Code →
//     "claude", Copilot → "copilot" (table agents); anything else, or a
//     capture without the initialize result, stays "acp". The provider is
//     only changed while no event has a session yet (it is part of the
//     session id), which is the case when initialize comes first: the
//     request in a both-direction capture, the result in an agent-side one.
//     Hints that come later (Claude's _meta.claudeCode) are not used: the
//     session id would change mid-stream.
//   - Messages: consecutive chunks of one kind (and messageId) in one
//     session are one user, assistant, reasoning or summary event, emitted
//     when the run ends (the next other line, or the end) with the src of
//     its last chunk line; every earlier chunk line yields a meta event of
//     subtype <chunk kind>. Empty runs are a meta event. The prompt of
//     session/prompt is a user event (text blocks joined by a blank line;
//     other blocks in a meta event of subtype "attachments"). Texts are kept
//     verbatim (Gemini's "****\n" prefix of a thought without subject too).
//   - Agent quirks (table agents): Gemini's "[MODE_UPDATE] <mode>" message
//     chunk is a meta event (subtype current_mode_update); Copilot's
//     "Info: …" chunk is a system event.
//   - Tool calls: tool_call, tool_call_update and the toolCall of
//     session/request_permission are merged by toolCallId. The tool_call
//     event is emitted at the first sight with the input known: Claude's
//     placeholder rawInput {} waits for the update that fills it (or the
//     next line about something else, or the end). The input is rawInput,
//     or else the ACP description {title, kind, locations, content} (Gemini
//     sends no rawInput). The name is the update's name, Claude Code's
//     _meta.claudeCode.toolName, Gemini's "<name>__<name>_…" call id, or
//     else the ACP kind (Copilot names no tool). The ACP kind and title are
//     kept in the event's meta (subtype, title). The tool_result is emitted
//     when the status becomes completed, failed or cancelled (v2): output =
//     rawOutput, else the content sent once the call ran, else Claude's
//     toolResponse; is_error when failed or cancelled, or when a shell exit
//     code (Copilot rawOutput.contents[shell_exit].exitCode, Claude "Exit
//     code N") is not 0. Lines that add nothing to emit are meta events.
//   - Requests of the agent to the client (fs/*, terminal/*,
//     session/request_permission) and all responses are meta events: they
//     serve tool calls the updates already report. A response is matched to
//     its request by id (and direction, when the capture gives it); in an
//     agent-side capture the method is inferred from the result's shape.
//   - Usage: one "run" event per prompt turn from the session/prompt
//     result: result.usage, else _meta.quota (per model, else its total),
//     never both. Gemini's quota names no cached tokens: its input_tokens
//     are taken as they are. Copilot's inputTokens include cached tokens (subtracted),
//     claude-agent-acp's do not; for other agents totalTokens decides
//     (total = input + output ⇒ input includes the cache). Thought tokens
//     are part of output unless totalTokens counts them apart. The
//     cumulative usage_update cost (USD) is turned into differences: the
//     growth since the previous turn becomes native_cost_usd of the turn's
//     first usage event (a usage event with no tokens when the turn reports
//     none), and a growth no turn took is emitted at the end, at the last
//     usage_update line. usage_update.used/size are context occupancy, not
//     usage: meta events (size becomes context_window).
package acp

import "github.com/agt-project/agt"

// FormatACP is the format of ACP captures.
const FormatACP = "acp"

// Provider is the ACP reader.
type Provider struct{}

// Name is the provider's name in events when the agent is not known.
func (Provider) Name() string { return "acp" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "ACP agent"}
}

// Formats lists the formats this package reads.
func (Provider) Formats() []string { return []string{FormatACP} }

// NewParser returns a parser for one capture.
func (Provider) NewParser(_ string, opts agt.Options) agt.Parser { return newParser(opts) }
