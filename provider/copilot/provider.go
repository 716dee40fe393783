// Package copilot reads the logs of GitHub Copilot CLI, and the chat
// sessions of Copilot Chat in VS Code (vscode.go).
//
// Formats:
//   - copilot-session: ~/.copilot/session-state/<id>/events.jsonl (and the
//     flat <id>.jsonl of 0.0.3xx–0.0.4xx), one SessionEvent per line:
//     {type, data, id, timestamp, parentId, ephemeral?, agentId?}.
//   - copilot-json: the live stream of `copilot -p --output-format json`,
//     the same objects (ephemeral ones included, usage events left out)
//     and a last {type:"result", sessionId, exitCode, usage} line.
//   - copilot-legacy: ~/.copilot/history-session-state/*.json, one document
//     {sessionId, startTime, chatMessages, timeline} (see legacy.go).
//   - copilot-vscode, copilot-vscode-log: VS Code's chat sessions
//     (workspaceStorage/<hash>/chatSessions/<id>.json, and the change log
//     <id>.jsonl that replaced it), see vscode.go.
//
// Events. The session is session.start's sessionId, else the result line's
// or a hook's input.sessionId. In copilot-session, records seen before it
// is known (data errors included) are held and emitted in order into it
// once it is, so that results can link to their calls; past 4096 held
// records, or at the end without an id, they go to a session named after
// the file (the folder for .../<id>/events.jsonl). The live stream
// (copilot-json) names it on its last line: its records go at once to a
// provisional session (agt.Emitter.Provisional, named after the first
// line), which the session named then continues (a session_named meta
// event ties them; agt-transcript makes them one transcript).
// Records are keyed by their native id (the line when it is missing or
// repeated). user.message is a user event (a message with no user text but
// a transformedContent, injected by the runtime, is a system event);
// system.message, system.notification and session.error are system
// events; assistant.message, one model response, gives a reasoning event
// (reasoningText), an assistant event (content) and one tool_call per
// toolRequests entry, all with the response's id as message_id (its
// apiCallId, else its messageId; id#n when a scrubbed log repeats it), so
// that each response is one transcript message; a response with neither text
// nor tool requests is an assistant event without text;
// assistant.reasoning is a reasoning event; the summaries of
// session.task_complete and session.compaction_complete are summary
// events; command.queued/execute are slash commands; skill.invoked is a
// meta event with the skill's name as subtype (the `skill` tool call stays
// a tool call); every other known type is a meta event (types with large
// or repeated payloads — deltas, skills_loaded, hook inputs — keep no
// data). Events without a model of their own take the session's current
// one (selectedModel, session.model_change, session.auto_mode_resolved, the
// last assistant.message model). agentId, or the deprecated
// parentToolCallId, puts an event on stream subagent:<id>.
//
// Tools. The tool request of an assistant message is the tool_call. It
// is emitted (at the message's place) when its tool.execution_start comes,
// which names the MCP server and tool (mcpServerName, mcpToolName: the
// request names the server at most, its tool is then the name less
// "<server>-"), or as soon as any other record shows that no start
// follows; the start is a meta event then (a start with no request before
// it is the tool_call); tool.execution_complete is the tool_result,
// linked by toolCallId: output = result.content (the text the model got),
// or error.message; is_error when success is false, an error is given or
// the shell's exit code (shellExecution.exitCode, or the "<exited with exit
// code N>" / "<shellId: S completed with exit code N>" line older versions
// append) is not 0; exit_code when known. A call id used a second time in
// a session (only scrubbed fixtures do that) becomes id#n, so that each
// result pairs with one call.
//
// Usage. Copilot persists no per-call usage: assistant.usage is ephemeral
// (per call when an input has it anyway: emitted as scope "call").
// session.shutdown.modelMetrics holds the totals of one process run per
// model (a resumed session writes one shutdown per run, each with that
// run's totals, so shutdowns are added, not differenced); they are emitted
// as scope "run" usage per model, less what assistant.usage events of the
// same run gave, so no token counts twice. Copilot's inputTokens is gross:
// it includes cacheReadTokens and cacheWriteTokens (checked on the corpus:
// a single-call run's inputTokens is about its context size, currentTokens,
// which inputTokens + cacheReadTokens would double), so input = inputTokens −
// cacheReadTokens − cacheWriteTokens (kept as is when smaller than its
// cache parts). reasoningTokens are part of outputTokens (OpenAI's
// completion_tokens convention; 15 reasoning of 30 output in the corpus),
// so output = outputTokens and reasoning = reasoningTokens. When no model
// has usage, the shutdown's session-wide tokenDetails (input, cache_read,
// cache_write, output; already net) are the run usage of its one model or
// currentModel. A run that ends without totals (killed before shutdown:
// the next session.resume or the end of the input closes it) leaves only
// assistant.message outputTokens: their sum per model is emitted as scope
// "run" usage with output only. Per-message outputTokens are never added
// on top of shutdown totals (in the corpus they sum to the shutdown's
// outputTokens exactly), nor are subagent totalTokens, agentMetrics or
// compactionTokensUsed. requests.cost, totalPremiumRequests and
// totalNanoAiu are Copilot billing units, not USD: they stay in meta data.
package copilot

import "github.com/agt-project/agt"

// Format names.
const (
	FormatSession = "copilot-session"
	FormatJSON    = "copilot-json"
	FormatLegacy  = "copilot-legacy"
	// Copilot Chat in VS Code (vscode.go): a chat session document, and
	// the log of changes VS Code keeps of one
	FormatVSCode    = "copilot-vscode"
	FormatVSCodeLog = "copilot-vscode-log"
)

// Provider is the copilot provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "copilot" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Copilot CLI"}
}

// Formats lists the formats read; copilot-session is the default.
func (Provider) Formats() []string {
	return []string{FormatSession, FormatJSON, FormatLegacy, FormatVSCode, FormatVSCodeLog}
}

// NewParser returns a parser for one input in format.
func (Provider) NewParser(format string, _ agt.Options) agt.Parser {
	if format == FormatLegacy {
		return legacyParser{}
	}
	if format == FormatVSCode || format == FormatVSCodeLog {
		return &vsParser{log: format == FormatVSCodeLog}
	}
	p := newSessionParser()
	p.live = format == FormatJSON
	return p
}
