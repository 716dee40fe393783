// Package codex reads OpenAI Codex CLI: the on-disk rollouts of every
// generation and the live output of `codex exec --json`.
//
// Formats:
//   - codex-rollout: the current rollout envelope, one {timestamp, type,
//     payload} object per line (session_meta, turn_context, response_item,
//     event_msg, compacted, world_state, inter_agent_communication_metadata).
//   - codex-rollout-legacy: the early Rust rollout (≈0.1–0.2x): a bare
//     header {id, timestamp, instructions, git} on line 1, then
//     {"record_type":"state"} markers and bare ResponseItems. Lines in the
//     current envelope after them (a session a later version resumed) are
//     read as a current rollout's, with the same session, calls and token
//     counter.
//   - codex-legacy-json: the TypeScript-era rollout, one JSON document
//     {session, items:[ResponseItem…]}; records are addressed by JSON pointer
//     (/session, /items/N).
//   - codex-exec-json: `codex exec --json` (≥0.44 thread/turn/item events,
//     the 0.41–0.43 item_type/assistant_message spelling, and the ≤0.41 raw
//     protocol events {"id", "msg":{…}}).
//
// Decisions where the formats leave room:
//   - A rollout is the record of one thread: its first session_meta names the
//     session and, from payload.source, the stream ("main", or
//     "subagent:<review|compact|nickname|role|…>" with meta.parent_session
//     from parent_thread_id or forked_from_id). A later session_meta of a
//     thread in effect (a resume) is a meta event of subtype "resumed"; one
//     of another thread heads history a fork copied from that thread
//     (subtype "copied"; Codex writes the fork's session_meta, then the
//     parent's items from its session_meta on, each line stamped anew).
//     The copied records are the parent's: their events are in the parent's
//     session, with the parent's stream, and its token counter. A copy ends
//     at a pause of more than a second between lines (Codex writes it in
//     one go), at a line whose turn id (a UUIDv7) is newer than the thread
//     that copied it, at the output a spawned sub-agent's copy gives the
//     parent's spawn call (the sub-agent's own), or at a session_meta of a
//     thread in effect; a copy may hold copies (a fork of a fork). The
//     session_meta lines that open a fork are emitted innermost first, and
//     Identify names that thread, so that parent and forks are read in one
//     group (see fork.go).
//   - Record keys (rollouts): events that have no tool id are keyed by the
//     line's content, without its timestamp and ordinal ("c" and 24 hex
//     digits of its XXH3-128, "#n" for the n-th line of the same content in
//     a session), so that a copied record and its original have one id and
//     count once when parent and fork are read together.
//   - Text comes from the event_msg stream in current rollouts: user_message
//     (the typed text) is the user event, agent_message the assistant event,
//     agent_reasoning the reasoning event. Their response_item twins
//     (message with role user or assistant, reasoning) become meta events of
//     subtype "message:user", "message:assistant", "reasoning". Developer
//     and system messages, which have no twin, are system events.
//   - Injected context is decided by structure: Codex writes a user_message
//     for each prompt the person typed and none for the context it sends as
//     user messages (AGENTS.md, environment, skills, plugins, app context,
//     aborted-turn notes, and whatever block a later release adds). A user
//     response_item is the twin of the user_message of the same text (text
//     parts joined by a blank line; either order, within the turn); any other
//     is a system event of subtype "message:user" that keeps its text. A
//     user item waits for its user_message through the lines of a turn's
//     input (session_meta, turn_context, world_state, task_started,
//     turn_started, user/developer/system messages) and is decided at the
//     first other line or at the end of the input; its event keeps its own
//     line. Fallback: until a rollout has written a user_message, it gives no
//     structure (the legacy formats, which have no event_msg stream, and
//     rollouts written without user_message): its user items are user
//     events, except those that open like a known context block (the
//     injected list: <environment_context>, <user_instructions>, # AGENTS.md
//     instructions, <turn_aborted>, <permissions instructions>,
//     <user_shell_command>, <collaboration_mode>, <skill>), system events.
//   - Tool calls come from the response items (function_call with the
//     namespace prefixed to the name, custom_tool_call, local_shell_call,
//     tool_search_call, web_search_call, image_generation_call) and results
//     from their outputs. Exit codes are read from shell outputs (the 0.39
//     JSON-encoded {"output","metadata":{"exit_code"}}, "Exit code: N",
//     "Process exited with code N"); a non-zero code marks the result as an
//     error. exec_command_end, patch_apply_end, mcp_tool_call_end,
//     web_search_end and image_generation_end are meta events when the call
//     they close has its own output (their exit code or failure enriches that
//     result); when the call is known but its output never comes, the result
//     is built from the end event when the file ends; when no call is known
//     (a user shell command, a server-side search), the end event yields both
//     the call and the result. MCP calls named by an end event or an exec
//     item are called mcp__<server>__<tool>, with the server and tool as
//     the call's MCP. A rollout's MCP function call (named mcp__…, a name
//     Codex sanitised) waits for its mcp_tool_call_begin or _end, whose
//     invocation names the server and tool; any other line first emits it
//     as it is. It keeps its own line. An end event whose result is a
//     SKILL.md (front matter with name and description, canon.SkillDoc)
//     says the call loaded that skill: the MCP's skill is set, and the call
//     normalizes to Skill whatever the server's name (Codex writes no MCP
//     configuration in its rollouts, and the tool descriptions only where a
//     tool_search lists them; the result is what every call has).
//   - A web_search_call has no output item and often no id. It pairs with
//     the web_search_end of its id or, failing that, of its query (0.146
//     names the two with different ids); when no end event comes, a search
//     the item reports completed or failed gets a result {"status": …} from
//     the item when the file ends (failed is an error). An item without an id
//     is given "ws_" and 16 hex digits of the SHA-256 of its line's content
//     (without its timestamp, as record keys); an end event (exec_command_end,
//     …) that names no call is a call of its own with "end_" and such digits.
//   - Errors the agent reports (event_msg error/stream_error/warning, exec
//     error lines and turn.failed, exec error items) are system events; the
//     error kind is kept for input that cannot be read.
//   - Usage (rollouts): one "call" event per event_msg token_count whose
//     info.total_token_usage differs from the previous total of the same
//     thread (the thread the line belongs to; a repeated total is a
//     meta event). A thread's first total counts from the file's latest
//     total when it is not smaller (a fork's counter is seeded from its
//     parent's), otherwise from zero; a total smaller than the previous one
//     is a counter that started again from zero (after /compact, in a
//     resumed session): it counts in full and becomes the new baseline (a
//     meta event when it is zero). input = input_tokens −
//     cached_input_tokens − cache_write_input_tokens (OpenAI's input_tokens
//     includes both, so total equals Codex's total_tokens), cache_read =
//     cached_input_tokens, cache_write = cache_write_input_tokens, output =
//     output_tokens, reasoning = reasoning_output_tokens; the model is the
//     latest turn_context model; context_window is info.model_context_window.
//   - Usage (exec): turn.completed.usage is the thread's cumulative total,
//     resumes included; each turn.completed is a "run" event holding the
//     difference from the previous one of the same thread in the input (the
//     first as given), so that a file's sum is its last total. A capture that
//     starts with a resumed run therefore reports the thread's total so far.
//   - Exec items pair by item id, started ↔ completed (the first "id" of a
//     web_search item, which carries the key twice); ids restart at item_0
//     on resume, so a completion pairs with the latest open call of its id,
//     and a completion without a start yields the call too.
//   - Tool ids are the native call ids, unique per session: a native id
//     seen again in a session (exec item ids after a resume, a call id
//     repeated with another input) gets a "#n" suffix on its call and on that call's
//     results, so that pairing by (session, tool id) stays right. A result
//     links to the latest call of its native id seen before it.
//   - Lines are read with keys matched to the fields exactly
//     (agt.DecodeExact), not regardless of case: Codex writes each key one
//     way (snake_case; the corpus reads the same either way), and a line's
//     many members no field reads are then skipped at once. A key in
//     another case is an unknown member, as a new key is.
package codex

import "github.com/agt-project/agt"

// Formats read by this package.
const (
	FormatRollout       = "codex-rollout"
	FormatRolloutLegacy = "codex-rollout-legacy"
	FormatLegacyJSON    = "codex-legacy-json"
	FormatExecJSON      = "codex-exec-json"
)

// Provider is the Codex CLI provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "codex" }

// Agent is what the provider declares about its agent.
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Codex", Vendor: "openai"}
}

// Formats lists the formats of Codex CLI.
func (Provider) Formats() []string {
	return []string{FormatRollout, FormatRolloutLegacy, FormatLegacyJSON, FormatExecJSON}
}

// NewParser returns a parser for one unit in format.
func (Provider) NewParser(format string, opts agt.Options) agt.Parser {
	switch format {
	case FormatExecJSON:
		return newLive()
	case FormatRolloutLegacy:
		return newLegacy(opts.Usage)
	case FormatLegacyJSON:
		return &docParser{conv: newConv(true)}
	}
	c := newConv(false)
	c.holdMCP = true
	return &rolloutParser{conv: c, usage: opts.Usage}
}
