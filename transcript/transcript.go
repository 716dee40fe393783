// Package transcript consolidates agt.event/1 events into agt.transcript/1
// lines, one per session: messages in order, each assistant message with its
// tool calls paired to their results, usage per message and per session,
// subagent streams apart. It also writes the stream logs (every event, or one
// readable line per message and tool call) and the output folder of
// agt-transcript -o.
package transcript

import "github.com/agt-project/agt"

// Schema is the value of every transcript's schema field.
const Schema = "agt.transcript/1"

// Roles of messages.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleSystem    = "system"
)

// Kinds of messages whose role does not tell what they are (Message.Kind).
const (
	KindCompaction = "compaction"    // the summary that replaced the context
	KindSummary    = "summary"       // another summary (a title, a branch, a task)
	KindError      = "error"         // an error the agent logged
	KindCommand    = "slash_command" // a user's slash command
)

// ScopeSession is the usage scope of a transcript's and a subagent's totals.
const ScopeSession = "session"

// Tool call statuses.
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusUnknown = "unknown" // no result in the log
)

// Transcript is one agt.transcript/1 line. Field order is the wire order.
type Transcript struct {
	Schema        string `json:"schema"`
	Session       string `json:"session"`
	NativeSession string `json:"native_session"`
	// Continues is the native id of the session this one continues (a
	// resumed or forked session given with its original): the records it
	// holds of it count in the original's transcript, not in this one.
	Continues string `json:"continues,omitempty"`
	// ParentSession is the native id of the session that started this one
	// (a Crush or OpenCode sub-agent's session, a Codex thread spawned by
	// another, a Pi or Cline child session), as the session's own records
	// name it.
	ParentSession string     `json:"parent_session,omitempty"`
	Provider      string     `json:"provider"`
	Format        string     `json:"format"`
	Model         string     `json:"model,omitempty"`
	Models        []string   `json:"models"`
	Cwd           string     `json:"cwd,omitempty"`
	GitBranch     string     `json:"git_branch,omitempty"`
	Version       string     `json:"version,omitempty"`
	Title         string     `json:"title,omitempty"`
	StartedAt     string     `json:"started_at,omitempty"`
	EndedAt       string     `json:"ended_at,omitempty"`
	DurationMS    *int64     `json:"duration_ms,omitempty"`
	Messages      []Message  `json:"messages"`
	Usage         agt.Usage  `json:"usage"`
	CostUSD       *float64   `json:"cost_usd,omitempty"`
	NativeCostUSD *float64   `json:"native_cost_usd,omitempty"` // the agent's own figure
	ContextWindow int64      `json:"context_window,omitempty"`
	Subagents     []Subagent `json:"subagents"`
	// Turns groups the main conversation by user prompt (turns.go).
	Turns   []Turn  `json:"turns"`
	Counts  Counts  `json:"counts"`
	Outcome Outcome `json:"outcome"`

	spill *spill // the messages before Messages, when spilled (Whole)
}

// Message is one message of a conversation.
type Message struct {
	Index     int        `json:"index"`
	Role      string     `json:"role"`
	Kind      string     `json:"kind,omitempty"` // KindCompaction, KindSummary, KindError, KindCommand
	TS        string     `json:"ts,omitempty"`
	Text      agt.Raw    `json:"text,omitempty"`
	Reasoning agt.Raw    `json:"reasoning,omitempty"`
	Model     string     `json:"model,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	Usage     *agt.Usage `json:"usage,omitempty"`
	// Raw are the agent's records the message was made from, each once, in
	// the order they came (Consolidator.Raw: agt-transcript --raw).
	Raw []agt.Raw `json:"raw,omitempty"`
}

// ToolCall is a tool call with its result.
type ToolCall struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	NativeName string  `json:"native_name"`
	Via        string  `json:"via,omitempty"` // "shell": a shell call read as the tool it performs
	Kind       string  `json:"kind,omitempty"`
	Input      agt.Raw `json:"input,omitempty"`
	Output     agt.Raw `json:"output,omitempty"`
	Status     string  `json:"status"`
	IsError    bool    `json:"is_error"`
	ExitCode   *int    `json:"exit_code,omitempty"`
	StartedAt  string  `json:"started_at,omitempty"`
	EndedAt    string  `json:"ended_at,omitempty"`
	DurationMS *int64  `json:"duration_ms,omitempty"`
}

// Subagent is a subagent's or sidechain's own conversation within a session.
// ToolCallID is the id of the tool call that started it (a Claude Code
// Task/Agent call), where the log tells it.
type Subagent struct {
	Stream        string    `json:"stream"`
	ToolCallID    string    `json:"tool_call_id,omitempty"`
	Model         string    `json:"model,omitempty"`
	StartedAt     string    `json:"started_at,omitempty"`
	EndedAt       string    `json:"ended_at,omitempty"`
	Messages      []Message `json:"messages"`
	Usage         agt.Usage `json:"usage"`
	CostUSD       *float64  `json:"cost_usd,omitempty"`
	NativeCostUSD *float64  `json:"native_cost_usd,omitempty"` // the agent's own figure
	Counts        Counts    `json:"counts"`
	Outcome       Outcome   `json:"outcome"`

	spill *spill // the messages before Messages, when spilled (Transcript.Whole)
}

// Outcome is how a run ended: Status is one of agt's Outcome* statuses,
// Reason the agent's own words for it (or why agt says truncated), Errors
// the errors the run met (error events and failure signals).
type Outcome struct {
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	Errors int    `json:"errors"`
}

// Counts sums up a conversation.
type Counts struct {
	Messages        int `json:"messages"`
	ToolCalls       int `json:"tool_calls"`
	ToolErrors      int `json:"tool_errors"`
	UnpairedCalls   int `json:"unpaired_calls"`
	UnpairedResults int `json:"unpaired_results"`
	Errors          int `json:"errors"`
	Unknown         int `json:"unknown"`
}

func (c *Counts) add(d Counts) {
	c.Messages += d.Messages
	c.ToolCalls += d.ToolCalls
	c.ToolErrors += d.ToolErrors
	c.UnpairedCalls += d.UnpairedCalls
	c.UnpairedResults += d.UnpairedResults
	c.Errors += d.Errors
	c.Unknown += d.Unknown
}
