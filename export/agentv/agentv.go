// Package agentv renders a consolidated session as AgentV transcript rows
// (agentv.transcript.v1): one JSON line per message, the session's messages
// then each subagent's, so that AgentV's graders and replay provider read
// agt's output unchanged. A row carries its message's role, text, tool
// calls (canonical names, input, output, status, times), its model call's
// token usage and the session's totals, duration and cost; rows of one
// session share test_id (the native session id). How the run ended (the
// transcript's outcome {status, reason, errors}) is every row's
// metadata.transcript_outcome, as the transcript_* fields repeat the
// session's totals.
//
// Token usage counts as the GenAI conventions do: input is every input
// token, those read from a cache (cached) and written to one included. A
// session without messages gives no row.
package agentv

import (
	"io"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/transcript"
)

// Schema is the schema_version of every row.
const Schema = "agentv.transcript.v1"

// Ext is the ending of a rows file beside a transcript.
const Ext = ".agentv.jsonl"

// Row is one message. Field order is the wire order.
type Row struct {
	SchemaVersion        string         `json:"schema_version"`
	TestID               string         `json:"test_id"`
	Target               string         `json:"target"`
	MessageIndex         int            `json:"message_index"`
	Role                 string         `json:"role"`
	Content              string         `json:"content"`
	ToolCalls            []ToolCall     `json:"tool_calls,omitempty"`
	StartTime            string         `json:"start_time,omitempty"`
	Metadata             map[string]any `json:"metadata,omitempty"`
	TokenUsage           *Usage         `json:"token_usage,omitempty"`
	TranscriptTokenUsage Usage          `json:"transcript_token_usage"`
	TranscriptDurationMS *int64         `json:"transcript_duration_ms,omitempty"`
	TranscriptCostUSD    *float64       `json:"transcript_cost_usd"`
	Source               Source         `json:"source"`
}

// ToolCall is a tool call with its result.
type ToolCall struct {
	Tool       string  `json:"tool"`
	Input      agt.Raw `json:"input,omitempty"`
	Output     agt.Raw `json:"output,omitempty"`
	ID         string  `json:"id,omitempty"`
	Status     string  `json:"status"`
	StartTime  string  `json:"start_time,omitempty"`
	EndTime    string  `json:"end_time,omitempty"`
	DurationMS *int64  `json:"duration_ms,omitempty"`
}

// Usage is a token count.
type Usage struct {
	Input     int64 `json:"input"`
	Output    int64 `json:"output"`
	Cached    int64 `json:"cached"`
	Reasoning int64 `json:"reasoning"`
}

// Source tells where the rows come from.
type Source struct {
	Kind      string `json:"kind"`
	Provider  string `json:"provider"`
	SessionID string `json:"session_id"`
	Format    string `json:"format,omitempty"`
	Model     string `json:"model,omitempty"`
	Timestamp string `json:"timestamp,omitempty"`
	GitBranch string `json:"git_branch,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
	Version   string `json:"version,omitempty"`
}

func usage(u *agt.Usage) Usage {
	return Usage{Input: export.Prompt(u), Output: u.Output, Cached: u.CacheRead, Reasoning: u.Reasoning}
}

// Write writes t's rows.
func Write(w io.Writer, t *transcript.Transcript) error {
	var buf []byte
	for _, r := range Rows(t) {
		buf = transcript.AppendJSON(buf[:0], &r)
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// Rows are t's rows.
func Rows(t *transcript.Transcript) []Row {
	id := export.SessionID(t)
	src := Source{Kind: "agt", Provider: t.Provider, SessionID: id, Format: t.Format, Model: t.Model, Timestamp: t.StartedAt,
		GitBranch: t.GitBranch, Cwd: t.Cwd, Version: t.Version}
	total := usage(&t.Usage)
	var rows []Row
	for _, c := range export.Convs(t) {
		for i := range c.Messages {
			m := &c.Messages[i]
			r := Row{SchemaVersion: Schema, TestID: id, Target: t.Provider, MessageIndex: len(rows), Role: m.Role, Content: export.Text(m.Text),
				StartTime: m.TS, TranscriptTokenUsage: total, TranscriptDurationMS: t.DurationMS, TranscriptCostUSD: t.CostUSD, Source: src}
			md := map[string]any{"stream": c.Stream, "transcript_outcome": t.Outcome}
			if m.Model != "" {
				md["model"] = m.Model
			}
			if m.Kind != "" {
				md["kind"] = m.Kind
			}
			if len(m.Reasoning) > 0 {
				md["reasoning"] = export.Text(m.Reasoning)
			}
			if m.Usage != nil {
				u := usage(m.Usage)
				r.TokenUsage = &u
				if m.Usage.CacheWrite != 0 {
					md["cache_creation_input_tokens"] = m.Usage.CacheWrite
				}
				if m.Usage.CostUSD != nil {
					md["cost_usd"] = *m.Usage.CostUSD
				}
			}
			r.Metadata = md
			for j := range m.ToolCalls {
				tc := &m.ToolCalls[j]
				r.ToolCalls = append(r.ToolCalls, ToolCall{Tool: tc.Name, Input: tc.Input, Output: tc.Output, ID: tc.ID, Status: tc.Status,
					StartTime: tc.StartedAt, EndTime: tc.EndedAt, DurationMS: tc.DurationMS})
			}
			rows = append(rows, r)
		}
	}
	return rows
}
