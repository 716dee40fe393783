// Package cline reads Cline's session files: the sessions its SDK runtime
// (the Cline CLI, and the VS Code extension since it runs on that SDK)
// keeps under ~/.cline/data/sessions/<sessionId>/, one folder per session.
// Both files of a session are one format, cline-session, told apart by
// their members:
//
//   - <sessionId>.messages.json: {version, updated_at, agent, sessionId,
//     messages, system_prompt}, where messages are Anthropic-style messages
//     with Cline's additions ({id, role, content, ts, modelInfo{id,
//     provider, family}, metrics{inputTokens, outputTokens,
//     cacheReadTokens, cacheWriteTokens, cost}, metadata}). A user message
//     holds text, file (an @-mentioned file's content), image and
//     tool_result blocks; an assistant message text, thinking,
//     redacted_thinking and tool_use blocks, and the usage of the model
//     call that wrote it. A sub-agent's messages are a file of their own in
//     the same folder.
//   - <sessionId>.json, the manifest: {version, session_id, source,
//     started_at, ended_at, status, provider, model, cwd, workspace_root,
//     metadata{title, fork, …}, messages_path}.
//
// What maps to what: the messages document gives a session meta event
// (agent, updated_at), the system prompt as a system event, then per
// message its blocks in order (text → user or assistant, thinking →
// reasoning, tool_use → tool_call, tool_result → tool_result, file →
// system event of type file, image → meta) and an assistant message's
// metrics as a usage event. A compaction summary (metadata.kind
// compaction_summary) is a summary event. The manifest gives a session
// meta event with the working folder and the title.
//
// Usage: Cline's inputTokens is the whole prompt, cache reads and writes
// included (the SDK's usage chunk: "total number of input tokens reported
// by the provider"); agt's input is inputTokens less both. outputTokens
// includes reasoning. cost is Cline's own figure in USD.
//
// Not read: the compaction sidecar (<sessionId>.compaction.json:
// source_message_count, messages as last sent to the model), which repeats
// the history the messages file holds and is not detected.
//
// The task folders of the VS Code extension, and of its forks Roo Code and
// Kilo Code (tasks/<taskId>/ under the extension's global storage folder:
// saoudrizwan.claude-dev, rooveterinaryinc.roo-cline, kilocode.kilo-code),
// are formats of their own, named after the extension whose storage holds
// the folder (cline-task, roo-code-task, kilo-code-task; a folder elsewhere
// is cline-task). A task folder is claimed as one input (task.go), read as
// lines {cline_task, extension, file, ptr, ui|api|item|metadata}: Roo
// Code's history_item.json ({id, ts, task, workspace, mode, parentTaskId,
// rootTaskId, token totals}), task_metadata.json ({files_in_context,
// model_usage, environment_history}: model_usage names the model of the
// records that name none), the elements of ui_messages.json (ClineMessage
// {ts, type say|ask, say|ask, text, partial, modelInfo,
// conversationHistoryIndex, …}), then those of
// api_conversation_history.json (Anthropic MessageParam, with ts,
// modelInfo and metrics in later versions). Each event's src names the
// file and the record's JSON pointer.
//
// The panel's records are the conversation, as they carry the times and
// the usage: say text before the first api_req_started and user_feedback
// are the user's, later texts and reasoning the model's; each
// api_req_started opens the reply to one API request (message id req-<n>),
// and its text, JSON {request, tokensIn, tokensOut, cacheWrites,
// cacheReads, cost, cancelReason, streamingFailedMessage}, is the
// request's usage (tokensIn without the cache, Anthropic's meaning; cost
// as native_cost_usd); a request cancelled or failed while streaming says
// its outcome. Tool records (say or ask tool, JSON {tool: readFile,
// newFileCreated, editedExistingFile, appliedDiff, listFilesTopLevel,
// searchFiles, newTask, …}) are calls under the names the model called
// (tasktools.go: read_file, write_to_file, replace_in_file, apply_diff,
// list_files, search_files, new_task, …), with the listing or matches the
// panel shows as their result, else the head of the next request's text
// ([read_file for 'x'] Result: …); command is execute_command and its
// command_output records (joined) its result; use_mcp_server is use_mcp_tool with the
// server and tool in mcp; completion_result is attempt_completion, which
// says the task's outcome (success), as the ask that follows it does; api_req_failed and
// mistake_limit_reached are errors with outcome error. The API history is
// the conversation only when the folder has no ui_messages.json; else its
// messages are meta events, as is the task metadata. A subtask (new_task)
// is a task folder of its own; Roo Code's names its parent task.
package cline

import "github.com/agt-project/agt"

// Format names: the SDK's sessions, and the task folders of the VS Code
// extension and of its forks, each named after the extension that wrote
// them.
const (
	FormatSession  = "cline-session"
	FormatTask     = "cline-task"
	FormatRooTask  = "roo-code-task"
	FormatKiloTask = "kilo-code-task"
)

// Provider is Cline.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "cline" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Cline"}
}

// Formats lists the formats the provider reads; the first is the default.
func (Provider) Formats() []string {
	return []string{FormatSession, FormatTask, FormatRooTask, FormatKiloTask}
}

// NewParser returns a parser for one input in format.
func (Provider) NewParser(format string, _ agt.Options) agt.Parser {
	switch format {
	case FormatTask, FormatRooTask, FormatKiloTask:
		return newTaskParser(format)
	}
	return &parser{calls: map[string]string{}}
}
