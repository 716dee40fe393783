// Package agentv renders a consolidated session as AgentV transcript rows
// (agentv.transcript.v1): one JSON line per message, so that AgentV's
// graders and replay provider read agt's output unchanged. AgentV groups
// rows by test_id into one transcript each (messages in message_index
// order; its final answer is the last assistant message, its tool order
// the calls' order): the session's own messages are one transcript
// (test_id the native session id), each subagent's another, after it
// (test_id <session>/<stream>, its metadata naming the stream, the parent
// session and the tool call that started it). A session whose own
// conversation is empty (a Codex child rollout, a subagent's file read
// alone) has its first subagent's as its transcript (metadata.stream names
// it). A row carries its message's
// role, text, tool calls (canonical names, input, output, status, times)
// and its model call's token usage; transcript_* fields are the
// transcript's totals (the session's, subagents included, on the session's
// rows; a subagent's own on its rows), left out when the log has no usage,
// and how the run ended is every row's metadata.transcript_outcome.
//
// A tool call that loads a skill (its canonical input names it: input.skill)
// is tool Skill, as examples/tools.jq counts it, so that AgentV's
// skill-trigger grader finds the skills examples/skills.jq finds (a Pi or
// Codex read of skills/<category>/<name>/SKILL.md included).
//
// Token usage counts as the GenAI conventions do: input is every input
// token, those read from a cache (cached) and written to one included. A
// conversation without messages gives no row.
package agentv

import (
	"bytes"
	"encoding/json"
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
	TranscriptTokenUsage *Usage         `json:"transcript_token_usage,omitempty"`
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

// Rows are t's rows: the session's, then each subagent's.
func Rows(t *transcript.Transcript) []Row {
	id := export.SessionID(t)
	src := Source{Kind: "agt", Provider: t.Provider, SessionID: id, Format: t.Format, Model: t.Model, Timestamp: t.StartedAt,
		GitBranch: t.GitBranch, Cwd: t.Cwd, Version: t.Version}
	var rows []Row
	convs := export.Convs(t)
	root := export.Root(convs)
	for i, c := range convs {
		if len(c.Messages) == 0 {
			continue
		}
		testID, total, cost, duration := id, totals(&t.Usage, t.Messages, t.Subagents), t.CostUSD, t.DurationMS
		md := map[string]any{"stream": c.Stream, "transcript_outcome": t.Outcome}
		if i != root {
			sub := &t.Subagents[i-1]
			testID, total, cost, duration = id+"/"+c.Stream, totals(&c.Usage, c.Messages, nil), c.CostUSD, nil
			md = map[string]any{"stream": c.Stream, "parent_test_id": id, "transcript_outcome": c.Outcome}
			if sub.ToolCallID != "" {
				md["tool_call_id"] = sub.ToolCallID
			}
		}
		for j := range c.Messages {
			m := &c.Messages[j]
			r := Row{SchemaVersion: Schema, TestID: testID, Target: t.Provider, MessageIndex: j, Role: m.Role, Content: export.Text(m.Text),
				StartTime: m.TS, TranscriptTokenUsage: total, TranscriptDurationMS: duration, TranscriptCostUSD: cost, Source: src}
			mmd := make(map[string]any, len(md)+4)
			for k, v := range md {
				mmd[k] = v
			}
			if m.Model != "" {
				mmd["model"] = m.Model
			}
			if m.Kind != "" {
				mmd["kind"] = m.Kind
			}
			if len(m.Reasoning) > 0 {
				mmd["reasoning"] = export.Text(m.Reasoning)
			}
			if m.Usage != nil {
				u := usage(m.Usage)
				r.TokenUsage = &u
				if m.Usage.CacheWrite != 0 {
					mmd["cache_creation_input_tokens"] = m.Usage.CacheWrite
				}
				if m.Usage.CostUSD != nil {
					mmd["cost_usd"] = *m.Usage.CostUSD
				}
			}
			r.Metadata = mmd
			for k := range m.ToolCalls {
				tc := &m.ToolCalls[k]
				r.ToolCalls = append(r.ToolCalls, ToolCall{Tool: toolName(tc), Input: tc.Input, Output: tc.Output, ID: tc.ID, Status: tc.Status,
					StartTime: tc.StartedAt, EndTime: tc.EndedAt, DurationMS: tc.DurationMS})
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// totals is u as a transcript's token usage, or nil when the log gave none
// (no count, and no message or subagent with usage): missing, not 0.
func totals(u *agt.Usage, msgs []transcript.Message, subs []transcript.Subagent) *Usage {
	if u.Input != 0 || u.CacheRead != 0 || u.CacheWrite != 0 || u.Output != 0 || u.Reasoning != 0 || hasUsage(msgs) {
		v := usage(u)
		return &v
	}
	for i := range subs {
		if hasUsage(subs[i].Messages) {
			v := usage(u)
			return &v
		}
	}
	return nil
}

func hasUsage(msgs []transcript.Message) bool {
	for i := range msgs {
		if msgs[i].Usage != nil {
			return true
		}
	}
	return false
}

// skillInput is what toolName reads of a canonical input.
type skillInput struct {
	Skill *string `json:"skill"`
}

// toolName is a call's tool in the rows: Skill for a skill load (its
// canonical input names a skill), else its canonical name.
func toolName(tc *transcript.ToolCall) string {
	if len(tc.Input) > 0 && tc.Input[0] == '{' && bytes.Contains(tc.Input, []byte(`"skill"`)) {
		var in skillInput
		if json.Unmarshal(tc.Input, &in) == nil && in.Skill != nil && *in.Skill != "" {
			return "Skill"
		}
	}
	return tc.Name
}
