// Package qwen reads the chat records of Qwen Code, the Gemini CLI fork
// (~/.qwen/projects/<project>/chats/<sessionId>.jsonl): one ChatRecord per
// line, linked into a tree by uuid/parentUuid like Claude Code's session
// logs, each holding a Gemini Content (role and parts) and, on assistant
// records, the response's usageMetadata.
//
// Records map by type: user → user events (one per text part); assistant →
// reasoning (parts with thought: true), assistant (text parts) and tool_call
// (functionCall parts) events in part order, then one usage event (scope
// call) from usageMetadata; tool_result → a tool_result event per
// functionResponse part, linked by id to its call, failed when
// toolCallResult.status is "error"; system → meta events named by subtype
// (ui_telemetry, attribution_snapshot, chat_compression, custom_title, …),
// except slash_command invocations (slash_command events). Records of a
// subagent (agentId set) go to the stream subagent:<agentId>. Other record
// types are unknown events.
//
// Usage is Gemini's accounting made agt's: promptTokenCount includes the
// cached tokens (input = prompt - cached, cache_read = cached); reasoning is
// thoughtsTokenCount, and output is candidatesTokenCount, thoughts included:
// Qwen's OpenAI-compatible backend (its default) writes the completion
// tokens, thoughts within, as candidates, and its total is prompt +
// candidates; only a record whose total also counts the thoughts apart
// (Google's API) has them added. Every model response counts once: the
// ui_telemetry api_response event Qwen writes just before a response's
// assistant record (the same figures) is a meta event, and one no
// assistant record claims (a sub-agent's call, a call made inside a tool)
// is a meta event and the call's usage event, emitted when the next
// assistant record claims a later response, the next user record comes, or
// the session ends.
//
// Earlier releases kept sessions as one JSON document under ~/.qwen/tmp in
// Gemini CLI's shape; the gemini provider reads those.
package qwen

import "github.com/agt-project/agt"

// FormatSession is the chat record JSONL.
const FormatSession = "qwen-session"

// Provider is the qwen provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "qwen" }

// Agent is what the provider declares about its agent.
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Qwen Code", Vendor: "alibaba"}
}

// Formats lists the formats qwen writes.
func (Provider) Formats() []string { return []string{FormatSession} }

// NewParser returns a parser for one input.
func (Provider) NewParser(string, agt.Options) agt.Parser {
	return &parser{calls: map[string]string{}}
}
