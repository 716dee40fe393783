// Package pi reads the formats of the Pi coding agent
// (@mariozechner/pi-coding-agent):
//
//   - pi-session: the session files under ~/.pi/agent/sessions, every version:
//     v1 (linear, no entry ids), v2 and v3 (a tree of entries linked by
//     id/parentId). Every entry becomes events in file order, whatever branch
//     it is on: a branch abandoned with /tree still spent its model calls.
//   - pi-json: the stdout of `pi --mode json`: a session header line, then
//     agent events (agent_start, turn_start, message_start/update/end,
//     tool_execution_start/update/end, turn_end, agent_end, …).
//   - pi-rpc: the stdout of `pi --mode rpc`: the same events without the
//     header, plus {"type":"response"} lines answering the commands.
//
// The session is the header's id, or the sessionId of a response
// (get_state, get_session_stats; a later one naming another session, after
// new_session or switch_session, starts that session). Live output does
// not wait for it: records before it go to a provisional session
// (agt.Emitter.Provisional, named after the first line), which the session
// named first continues (a session_named meta event ties them, and the
// calls open then stay open; agt-transcript makes them one transcript).
//
// Messages (session "message" entries, live message_end) map by role:
// user → user events (one per text block; an image block → meta "image");
// assistant → reasoning / assistant / tool_call events in block order, then
// a system event with errorMessage when the call failed or was aborted, then
// one usage event (scope call) when the message spent tokens or money;
// toolResult → tool_result linked by toolCallId to the call; bashExecution
// (a user's `!cmd`) → a tool_call named "bashExecution" (id "bash:<entry
// key>", input {command}) and its tool_result with the exit code;
// custom / hookMessage (extension messages that enter the model's context,
// e.g. subagent-notify) → system events with meta type "custom_message",
// subtype = customType and agent = details.agent when the extension names
// one; branchSummary / compactionSummary → summary events.
//
// Usage is Pi's own per-message count: input = input (it excludes cache
// reads), cache_read = cacheRead, cache_write = cacheWrite, output = output
// (reasoning included), reasoning = usage.reasoning where logged; cost.total
// becomes native_cost_usd. Messages of zero tokens and zero cost (aborted or
// failed requests) get no usage event. A compaction entry's own usage (the
// summarising call, logged by recent versions) is kept in the meta data of
// the compaction event but is not a usage event: the reference counts
// assistant messages only. Live formats count message_end of assistant
// messages only: message_start, message_update, turn_end and agent_end
// repeat the same messages and become meta events, as does the run total
// of a get_session_stats response.
//
// message_update lines carry the whole partial message on every delta; each
// becomes one small meta event (type message_update, subtype the delta type)
// and nothing of the partial is kept. tool_execution_* lines are meta events
// too: the tool's result comes from the toolResult message that follows.
package pi

import "github.com/agt-project/agt"

// Format names.
const (
	FormatSession = "pi-session"
	FormatJSON    = "pi-json"
	FormatRPC     = "pi-rpc"
)

// Provider is the pi provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "pi" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Pi"}
}

// Formats lists the formats pi writes; session files are the default.
func (Provider) Formats() []string { return []string{FormatSession, FormatJSON, FormatRPC} }

// NewParser returns a parser for one input in format.
func (Provider) NewParser(format string, _ agt.Options) agt.Parser {
	if format == FormatJSON || format == FormatRPC {
		return &parser{handlers: liveEvents, calls: map[string]string{}, live: true}
	}
	return &parser{handlers: sessionEntries, calls: map[string]string{}, tree: true}
}
