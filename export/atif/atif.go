// Package atif renders a consolidated session as an ATIF trajectory
// (Harbor's Agent Trajectory Interchange Format, v1.8 by default, v1.7 on
// request): one JSON document per session, its steps the session's
// messages (user, agent and system steps; an agent step carries its tool
// calls, their results as its observation, and the model call's token
// metrics), its subagents embedded as subagent_trajectories.
//
// The documents are what Harbor's pydantic models accept: never an empty
// steps (a session without any message has no document: Write returns an
// error wrapping export.ErrNothing, which the CLI reports on one line; a
// session whose own conversation is empty but a subagent's is not, such as
// a Codex child rollout, is that subagent's trajectory, extra.stream naming
// it); no tool_call_id twice in a step (a repeated one is written
// <id>#<n>); reasoning, tool calls and metrics on agent steps only. A
// subagent is embedded in the trajectory of the conversation whose tool
// call started it (the transcript's subagent tool_call_id), and that
// call's observation result carries subagent_trajectory_ref with its
// trajectory_id (<session>/<stream>), a result without content when the
// call has none; a subagent without a known call is embedded in the root.
// A tool result is text: a string as it is, content blocks that are all
// text as their texts joined with newlines, anything else as its JSON.
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
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/transcript"
)

// The versions written: Version (the current one, ATIF-v1.8) by default,
// V17 on request. Harbor reads both with the same models; the documents
// differ only in their schema_version.
const (
	V17     = "ATIF-v1.7"
	V18     = "ATIF-v1.8"
	Version = V18
)

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

// Result is one tool call's result, with the subagents the call started.
type Result struct {
	SourceCallID string         `json:"source_call_id"`
	Content      *string        `json:"content,omitempty"`
	Subagents    []Ref          `json:"subagent_trajectory_ref,omitempty"`
	Extra        map[string]any `json:"extra,omitempty"`
}

// Ref is a reference to an embedded subagent trajectory.
type Ref struct {
	TrajectoryID string `json:"trajectory_id"`
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

// Write writes t as one ATIF document (the current version) on one line;
// a session with no message gives an error wrapping export.ErrNothing.
func Write(w io.Writer, t *transcript.Transcript) error { return write(w, t, Version) }

// WriteV17 is Write labelled ATIF-v1.7.
func WriteV17(w io.Writer, t *transcript.Transcript) error { return write(w, t, V17) }

func write(w io.Writer, t *transcript.Transcript, version string) error {
	tr := Of(t, version)
	if tr == nil {
		return fmt.Errorf("session %s: %w", export.SessionID(t), export.ErrNothing)
	}
	return export.WriteJSON(w, tr)
}

// Of is the trajectory of t labelled version, or nil when no conversation
// of t has a message. The root is the session's own conversation, or, when
// it has no message (a Codex child rollout, a subagent's file read alone),
// its first subagent's that has one. A subagent is embedded in the
// trajectory of the conversation whose tool call started it, and the
// result of that call refers to it; one whose call is not found is
// embedded in the root. A conversation without a message has no
// trajectory (its usage stays in the root's final metrics).
func Of(t *transcript.Transcript, version string) *Trajectory {
	convs := export.Convs(t)
	root := export.Root(convs)
	if root < 0 {
		return nil
	}
	id := export.SessionID(t)
	// where each tool call is: call id → conversation
	at := map[string]int{}
	for i := range convs {
		for _, m := range convs[i].Messages {
			for _, tc := range m.ToolCalls {
				if _, ok := at[tc.ID]; !ok && tc.ID != "" {
					at[tc.ID] = i
				}
			}
		}
	}
	children := make([][]int, len(convs))
	refs := make([]map[string][]Ref, len(convs)) // per conversation: call id → subagents it started
	for i := 1; i < len(convs); i++ {
		if i == root || len(convs[i].Messages) == 0 {
			continue
		}
		parent := root
		if call := t.Subagents[i-1].ToolCallID; call != "" {
			if p, ok := at[call]; ok && p != i {
				parent = p
				if refs[p] == nil {
					refs[p] = map[string][]Ref{}
				}
				refs[p][call] = append(refs[p][call], Ref{TrajectoryID: trajectoryID(id, &convs[i])})
			}
		}
		children[parent] = append(children[parent], i)
	}
	// a parent that is itself unreachable from the root (a cycle of
	// subagents each started by the other's call) is attached to the root
	reach := make([]bool, len(convs))
	var mark func(int)
	mark = func(i int) {
		reach[i] = true
		for _, c := range children[i] {
			if !reach[c] {
				mark(c)
			}
		}
	}
	mark(root)
	for i := range convs {
		if i != root && len(convs[i].Messages) > 0 && !reach[i] {
			children[root] = append(children[root], i)
			mark(i)
		}
	}
	agent := Agent{Name: export.Agent(t.Provider), Version: t.Version}
	if agent.Version == "" {
		agent.Version = "unknown"
	}
	var build func(i int) Trajectory
	build = func(i int) Trajectory {
		c := &convs[i]
		u, cost := &c.Usage, c.CostUSD
		if i == root {
			u, cost = &t.Usage, t.CostUSD
		}
		tr := trajectory(c, agent, u, cost, version, refs[i])
		if i != root {
			tr.TrajectoryID = trajectoryID(id, c)
			tr.Extra = map[string]any{"stream": c.Stream, "outcome": c.Outcome}
			if call := t.Subagents[i-1].ToolCallID; call != "" {
				tr.Extra["tool_call_id"] = call
			}
		}
		for _, ch := range children[i] {
			tr.Subagents = append(tr.Subagents, build(ch))
		}
		return tr
	}
	tr := build(root)
	tr.SessionID = id
	tr.Extra = map[string]any{"agt_session": t.Session, "provider": t.Provider, "format": t.Format, "outcome": t.Outcome}
	if root != 0 {
		tr.Extra["stream"] = convs[root].Stream
	}
	return &tr
}

// trajectoryID is the trajectory_id of a subagent's conversation.
func trajectoryID(session string, c *export.Conv) string { return session + "/" + c.Stream }

// trajectory is the trajectory of one conversation run by agent, its final
// metrics the totals u and cost (the session's, subagents included, for the
// root); refs are the subagents its tool calls started.
func trajectory(c *export.Conv, agent Agent, u *agt.Usage, cost *float64, version string, refs map[string][]Ref) Trajectory {
	agent.ModelName = c.Model
	s := steps(c, refs)
	return Trajectory{SchemaVersion: version, Agent: agent, Steps: s, FinalMetrics: &FinalMetrics{
		TotalPromptTokens:     export.Prompt(u),
		TotalCompletionTokens: u.Output,
		TotalCachedTokens:     u.CacheRead,
		TotalCostUSD:          cost,
		TotalSteps:            len(s),
		Extra:                 map[string]any{"total_cache_creation_input_tokens": u.CacheWrite, "total_reasoning_output_tokens": u.Reasoning},
	}}
}

// steps are the steps of one conversation, numbered from 1. A call whose
// id the step already has (Harbor rejects a tool_call_id twice in a step)
// is written as <id>#<n>, its native id in extra.
func steps(c *export.Conv, refs map[string][]Ref) []Step {
	out := make([]Step, 0, len(c.Messages))
	for i := range c.Messages {
		m := &c.Messages[i]
		s := Step{
			StepID:    len(out) + 1,
			Timestamp: timestamp(m.TS),
			Source:    sources[m.Role],
			Message:   export.Text(m.Text),
		}
		if s.Source == "" {
			s.Source = "system"
		}
		switch m.Kind {
		case transcript.KindCompaction:
			s.Extra = map[string]any{"context_management": map[string]string{"type": "compaction", "boundary": "replace"}}
		case "":
		default:
			s.Extra = map[string]any{"kind": m.Kind}
		}
		if r := export.Text(m.Reasoning); r != "" {
			if s.Source == "agent" {
				s.ReasoningContent = r
			} else { // agent steps only, in Harbor's models
				if s.Extra == nil {
					s.Extra = map[string]any{}
				}
				s.Extra["reasoning_content"] = r
			}
		}
		if s.Source == "agent" {
			s.ModelName = m.Model
		}
		var seen map[string]int // calls of the step by id, when it has several
		if len(m.ToolCalls) > 1 {
			seen = make(map[string]int, len(m.ToolCalls))
		}
		for j := range m.ToolCalls {
			tc := &m.ToolCalls[j]
			id := tc.ID
			extra := map[string]any{"native_name": tc.NativeName}
			n := 1
			if seen != nil {
				seen[tc.ID]++
				n = seen[tc.ID]
			}
			if n > 1 {
				id = tc.ID + "#" + strconv.Itoa(n)
				extra["native_id"] = tc.ID
			}
			s.ToolCalls = append(s.ToolCalls, ToolCall{ToolCallID: id, FunctionName: tc.Name, Arguments: arguments(tc.Input), Extra: extra})
			r := Result{SourceCallID: id}
			if n == 1 {
				r.Subagents = refs[tc.ID]
			}
			if tc.Status != transcript.StatusUnknown {
				content := export.ResultText(tc.Output)
				r.Content = &content
				r.Extra = map[string]any{"status": tc.Status}
				if tc.ExitCode != nil {
					r.Extra["exit_code"] = *tc.ExitCode
				}
			} else if r.Subagents == nil {
				continue // no result, no subagent: no observation entry
			}
			if s.Observation == nil {
				s.Observation = &Observation{}
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
