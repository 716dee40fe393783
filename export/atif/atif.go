// Package atif renders a consolidated session as an ATIF trajectory
// (Harbor's Agent Trajectory Interchange Format, v1.7): one JSON document
// per session, its steps the session's messages (user, agent and system
// steps; an agent step carries its tool calls, their results as its
// observation, and the model call's token metrics), its subagents embedded
// as subagent_trajectories.
//
// Token counts follow the format: prompt_tokens counts every input token,
// cached_tokens (those read from a cache) included; tokens written to a
// cache are in prompt_tokens and again in metrics.extra. final_metrics are
// the session's totals, subagents included, equal to the transcript's usage
// (a log that gives only a session total, such as Copilot CLI's, has steps
// without metrics and the total in final_metrics). A compaction summary is a
// system step with extra.context_management {type: compaction, boundary:
// replace}. How the run ended (the transcript's outcome {status, reason,
// errors}) is the trajectory's extra.outcome, a subagent's its own.
package atif

import (
	"io"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/transcript"
)

// Version is the schema_version written.
const Version = "ATIF-v1.7"

// Ext is the ending of a trajectory file beside a transcript.
const Ext = ".trajectory.json"

// Trajectory is an ATIF document. Field order is the wire order.
type Trajectory struct {
	SchemaVersion string         `json:"schema_version"`
	SessionID     string         `json:"session_id,omitempty"`
	TrajectoryID  string         `json:"trajectory_id,omitempty"`
	Agent         Agent          `json:"agent"`
	Steps         []Step         `json:"steps"`
	FinalMetrics  *FinalMetrics  `json:"final_metrics,omitempty"`
	Subagents     []Trajectory   `json:"subagent_trajectories,omitempty"`
	Extra         map[string]any `json:"extra,omitempty"`
}

// Agent names the agent that ran the session.
type Agent struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	ModelName string `json:"model_name,omitempty"`
}

// Step is one message.
type Step struct {
	StepID           int            `json:"step_id"`
	Timestamp        string         `json:"timestamp,omitempty"`
	Source           string         `json:"source"`
	ModelName        string         `json:"model_name,omitempty"`
	Message          string         `json:"message"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []ToolCall     `json:"tool_calls,omitempty"`
	Observation      *Observation   `json:"observation,omitempty"`
	Metrics          *Metrics       `json:"metrics,omitempty"`
	Extra            map[string]any `json:"extra,omitempty"`
}

// ToolCall is a call of a tool, by its canonical name.
type ToolCall struct {
	ToolCallID   string         `json:"tool_call_id"`
	FunctionName string         `json:"function_name"`
	Arguments    agt.Raw        `json:"arguments"`
	Extra        map[string]any `json:"extra,omitempty"`
}

// Observation holds the results of a step's tool calls.
type Observation struct {
	Results []Result `json:"results"`
}

// Result is one tool call's result.
type Result struct {
	SourceCallID string         `json:"source_call_id"`
	Content      string         `json:"content"`
	Extra        map[string]any `json:"extra,omitempty"`
}

// Metrics are the token counts and cost of one model call.
type Metrics struct {
	PromptTokens     int64          `json:"prompt_tokens"`
	CompletionTokens int64          `json:"completion_tokens"`
	CachedTokens     int64          `json:"cached_tokens"`
	CostUSD          *float64       `json:"cost_usd,omitempty"`
	Extra            map[string]any `json:"extra,omitempty"`
}

// FinalMetrics are a trajectory's totals.
type FinalMetrics struct {
	TotalPromptTokens     int64          `json:"total_prompt_tokens"`
	TotalCompletionTokens int64          `json:"total_completion_tokens"`
	TotalCachedTokens     int64          `json:"total_cached_tokens"`
	TotalCostUSD          *float64       `json:"total_cost_usd,omitempty"`
	TotalSteps            int            `json:"total_steps"`
	Extra                 map[string]any `json:"extra,omitempty"`
}

// sources are the step sources of the transcript's roles.
var sources = map[string]string{
	transcript.RoleUser:      "user",
	transcript.RoleAssistant: "agent",
	transcript.RoleSystem:    "system",
}

// Write writes t as one ATIF document on one line.
func Write(w io.Writer, t *transcript.Transcript) error {
	return export.WriteJSON(w, Of(t))
}

// Of is the trajectory of t.
func Of(t *transcript.Transcript) *Trajectory {
	convs := export.Convs(t)
	agent := Agent{Name: export.Agent(t.Provider), Version: t.Version}
	if agent.Version == "" {
		agent.Version = "unknown"
	}
	id := export.SessionID(t)
	tr := trajectory(&convs[0], agent, &t.Usage, t.CostUSD)
	tr.SessionID = id
	tr.Extra = map[string]any{"agt_session": t.Session, "provider": t.Provider, "format": t.Format, "outcome": convs[0].Outcome}
	for i := range convs[1:] {
		c := &convs[1+i]
		sub := trajectory(c, agent, &c.Usage, c.CostUSD)
		sub.TrajectoryID = id + "/" + c.Stream
		sub.Extra = map[string]any{"stream": c.Stream, "outcome": c.Outcome}
		tr.Subagents = append(tr.Subagents, sub)
	}
	return &tr
}

// trajectory is the trajectory of one conversation run by agent, its final
// metrics the totals u and cost (the session's, subagents included, for the
// main conversation).
func trajectory(c *export.Conv, agent Agent, u *agt.Usage, cost *float64) Trajectory {
	agent.ModelName = c.Model
	s := steps(c)
	return Trajectory{SchemaVersion: Version, Agent: agent, Steps: s, FinalMetrics: &FinalMetrics{
		TotalPromptTokens:     export.Prompt(u),
		TotalCompletionTokens: u.Output,
		TotalCachedTokens:     u.CacheRead,
		TotalCostUSD:          cost,
		TotalSteps:            len(s),
		Extra:                 map[string]any{"total_cache_creation_input_tokens": u.CacheWrite, "total_reasoning_output_tokens": u.Reasoning},
	}}
}

// steps are the steps of one conversation, numbered from 1.
func steps(c *export.Conv) []Step {
	out := make([]Step, 0, len(c.Messages))
	for i := range c.Messages {
		m := &c.Messages[i]
		s := Step{
			StepID:           len(out) + 1,
			Timestamp:        timestamp(m.TS),
			Source:           sources[m.Role],
			Message:          export.Text(m.Text),
			ReasoningContent: export.Text(m.Reasoning),
		}
		if s.Source == "" {
			s.Source = "system"
		}
		if s.Source == "agent" {
			s.ModelName = m.Model
		}
		switch m.Kind {
		case transcript.KindCompaction:
			s.Extra = map[string]any{"context_management": map[string]string{"type": "compaction", "boundary": "replace"}}
		case "":
		default:
			s.Extra = map[string]any{"kind": m.Kind}
		}
		for j := range m.ToolCalls {
			tc := &m.ToolCalls[j]
			s.ToolCalls = append(s.ToolCalls, ToolCall{ToolCallID: tc.ID, FunctionName: tc.Name, Arguments: arguments(tc.Input),
				Extra: map[string]any{"native_name": tc.NativeName}})
			if tc.Status == transcript.StatusUnknown {
				continue
			}
			if s.Observation == nil {
				s.Observation = &Observation{}
			}
			r := Result{SourceCallID: tc.ID, Content: export.Text(tc.Output), Extra: map[string]any{"status": tc.Status}}
			if tc.ExitCode != nil {
				r.Extra["exit_code"] = *tc.ExitCode
			}
			s.Observation.Results = append(s.Observation.Results, r)
		}
		if u := m.Usage; u != nil && s.Source == "agent" {
			s.Metrics = &Metrics{PromptTokens: export.Prompt(u), CompletionTokens: u.Output, CachedTokens: u.CacheRead, CostUSD: u.CostUSD,
				Extra: map[string]any{"cache_creation_input_tokens": u.CacheWrite, "reasoning_output_tokens": u.Reasoning}}
		}
		out = append(out, s)
	}
	return out
}

// timestamp is ts when it is an RFC 3339 time (ATIF's ISO 8601), else
// none.
func timestamp(ts string) string {
	if _, err := time.Parse(time.RFC3339Nano, ts); err != nil {
		return ""
	}
	return ts
}

// arguments is a call's input as an object: an input that is not one (or
// none) is wrapped as {"input": …}.
func arguments(in agt.Raw) agt.Raw {
	if len(in) > 0 && in[0] == '{' {
		return in
	}
	if in.IsNull() {
		return agt.Raw(`{}`)
	}
	return agt.Raw(`{"input":` + string(in) + `}`)
}
