package openhands

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
)

// V1 (the software-agent-sdk and the CLI on it) keeps a conversation as
// <conversations>/<id>/base_state.json and events/event-<nnnnn>-<uuid>.json,
// each event named by its kind:
//
//	SystemPromptEvent   system_prompt {text}, tools        → system
//	MessageEvent        llm_message {role, content[], reasoning_content?}, llm_response_id? → user / assistant (reasoning)
//	ActionEvent         thought[], reasoning_content?, tool_name, tool_call_id, tool_call {arguments}, action {kind, …}, llm_response_id
//	                                                      → assistant (the thought, once per response), reasoning, tool_call
//	ObservationEvent    tool_call_id, observation {content[], is_error, exit_code?, kind}, action_id → tool_result
//	UserRejectObservation, AgentErrorEvent                 → a failed tool_result of their call
//	CondensationSummaryEvent                               → summary
//	Condensation, CondensationRequest, ConversationStateUpdateEvent,
//	PauseEvent, InterruptEvent, TokenEvent, … (other known kinds) → meta
//	ConversationErrorEvent                                  → system
//
// The events hold no token counts: base_state.json's stats hold one
// TokenUsage per model call (usage_to_metrics.<usage id>.token_usages,
// with its response_id, the llm_response_id of the events it gave), read
// after the events as usage events of scope call (LiteLLM's counts, as for
// V0: prompt_tokens includes the cache reads and writes), each with the
// cost of the same call where the costs list matches it one to one.

// v1Event is one V1 event; only the members agt reads.
type v1Event struct {
	ID           string       `json:"id"`
	Timestamp    string       `json:"timestamp"`
	Source       string       `json:"source"`
	Kind         string       `json:"kind"`
	SystemPrompt *textContent `json:"system_prompt"`
	LLMMessage   *struct {
		Role             string        `json:"role"`
		Content          []textContent `json:"content"`
		ReasoningContent *string       `json:"reasoning_content"`
	} `json:"llm_message"`
	LLMResponseID    string        `json:"llm_response_id"`
	Thought          []textContent `json:"thought"`
	ReasoningContent *string       `json:"reasoning_content"`
	ToolName         string        `json:"tool_name"`
	ToolCallID       string        `json:"tool_call_id"`
	ToolCall         *struct {
		Arguments string `json:"arguments"`
	} `json:"tool_call"`
	Action      agt.Raw `json:"action"`
	Observation *struct {
		Content  []textContent `json:"content"`
		IsError  bool          `json:"is_error"`
		ExitCode *int          `json:"exit_code"`
		Kind     string        `json:"kind"`
	} `json:"observation"`
	RejectionReason string  `json:"rejection_reason"`
	Error           string  `json:"error"`
	Summary         *string `json:"summary"`
	Code            string  `json:"code"`
	Detail          string  `json:"detail"`
	Key             string  `json:"key"`
}

// textContent is a TextContent (or an image content, without text).
type textContent struct {
	Type string  `json:"type"`
	Text *string `json:"text"`
}

// text joins the text of contents.
func text(cs []textContent) (string, bool) {
	var b strings.Builder
	ok := false
	for _, c := range cs {
		if c.Text != nil {
			b.WriteString(*c.Text)
			ok = true
		}
	}
	return b.String(), ok
}

// systemTypes are the meta types of the system prompt's events.
var systemTypes = map[string]string{"SystemPromptEvent": "system_prompt", "SystemPromptUpdateEvent": "system_prompt_update"}

// v1Meta are the kinds with nothing to show but their kind.
var v1Meta = map[string]bool{
	"Condensation": true, "CondensationRequest": true, "ConversationStateUpdateEvent": true,
	"PauseEvent": true, "InterruptEvent": true, "TokenEvent": true, "LLMCompletionLogEvent": true,
	"HookExecutionEvent": true, "StreamingDeltaEvent": true, "ACPToolCallEvent": true,
}

// isV1 tells a V1 event: a string id, a timestamp, a source and a kind.
func isV1(b []byte) bool {
	var p struct {
		ID        string `json:"id"`
		Timestamp string `json:"timestamp"`
		Source    string `json:"source"`
		Kind      string `json:"kind"`
	}
	return len(b) > 0 && b[0] == '{' && agt.API.Unmarshal(b, &p) == nil &&
		p.ID != "" && p.Timestamp != "" && sources[p.Source] && p.Kind != ""
}

// v1 emits the events of one V1 event.
func (p *parser) v1(em *agt.Emitter, e *v1Event) {
	ts := localTime(e.Timestamp)
	k := e.ID
	n := em.Count()
	switch e.Kind {
	case "SystemPromptEvent", "SystemPromptUpdateEvent": // an update: the agent's configuration changed on a restore
		if e.SystemPrompt != nil && e.SystemPrompt.Text != nil {
			em.Emit(agt.Event{TS: ts, Kind: agt.KindSystem, Text: agt.String(*e.SystemPrompt.Text), Meta: &agt.Meta{Type: systemTypes[e.Kind]}}, k, "system")
		}
	case "MessageEvent":
		if m := e.LLMMessage; m != nil {
			kind := agt.KindUser
			if m.Role == "assistant" {
				kind = agt.KindAssistant
			}
			if m.ReasoningContent != nil && *m.ReasoningContent != "" {
				em.Emit(agt.Event{TS: ts, Kind: agt.KindReasoning, MessageID: e.LLMResponseID, Text: agt.String(*m.ReasoningContent)}, k, "reasoning")
			}
			if t, ok := text(m.Content); ok {
				ev := agt.Event{TS: ts, Kind: kind, Text: agt.String(t)}
				if kind == agt.KindAssistant {
					ev.MessageID = e.LLMResponseID
				}
				em.Emit(ev, k, "message")
			}
		}
	case "ActionEvent":
		if !p.responses[e.LLMResponseID] || e.LLMResponseID == "" {
			if e.ReasoningContent != nil && *e.ReasoningContent != "" {
				em.Emit(agt.Event{TS: ts, Kind: agt.KindReasoning, MessageID: e.LLMResponseID, Text: agt.String(*e.ReasoningContent)}, k, "reasoning")
			}
			if t, ok := text(e.Thought); ok && t != "" {
				em.Emit(agt.Event{TS: ts, Kind: agt.KindAssistant, MessageID: e.LLMResponseID, Text: agt.String(t)}, k, "thought")
			}
		}
		p.responses[e.LLMResponseID] = true
		in := agt.Raw(`{}`)
		if e.ToolCall != nil && agt.Valid([]byte(e.ToolCall.Arguments)) && strings.HasPrefix(strings.TrimSpace(e.ToolCall.Arguments), "{") {
			in = agt.Compact([]byte(e.ToolCall.Arguments))
		} else if len(e.Action) > 0 && e.Action[0] == '{' {
			in = e.Action
		}
		p.v1calls[e.ToolCallID] = em.Emit(agt.Event{TS: ts, Kind: agt.KindToolCall, MessageID: e.LLMResponseID,
			Tool: &agt.Tool{ID: e.ToolCallID, Name: e.ToolName, NativeName: e.ToolName, Input: in, NativeInput: in}}, k, "call")
	case "ObservationEvent":
		out, isErr, code := agt.String(""), false, (*int)(nil)
		if o := e.Observation; o != nil {
			if t, ok := text(o.Content); ok {
				out = agt.String(t)
			}
			isErr, code = o.IsError, o.ExitCode
		}
		em.Emit(agt.Event{TS: ts, Kind: agt.KindToolResult, Result: &agt.Result{ID: e.ToolCallID, Call: p.v1calls[e.ToolCallID], Output: out, IsError: isErr, ExitCode: code}}, k, "result")
	case "UserRejectObservation", "AgentErrorEvent":
		msg := e.RejectionReason
		if e.Kind == "AgentErrorEvent" {
			msg = e.Error
		}
		em.Emit(agt.Event{TS: ts, Kind: agt.KindToolResult, Result: &agt.Result{ID: e.ToolCallID, Call: p.v1calls[e.ToolCallID], Output: agt.String(msg), IsError: true}}, k, "result")
	case "CondensationSummaryEvent":
		if e.Summary != nil {
			em.Emit(agt.Event{TS: ts, Kind: agt.KindSummary, Text: agt.String(*e.Summary)}, k, "summary")
		}
	case "ConversationErrorEvent":
		em.Emit(agt.Event{TS: ts, Kind: agt.KindSystem, Text: agt.String(strings.TrimPrefix(e.Code+": "+e.Detail, ": ")), Meta: &agt.Meta{Type: "error", Subtype: e.Code}}, k, "system")
	default:
		if v1Meta[e.Kind] {
			m := &agt.Meta{Type: e.Kind}
			if e.Key != "" {
				m.Subtype = e.Key
			}
			em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: m}, k, "meta")
			return
		}
		em.Unknown("", "", e.Kind)
		return
	}
	if em.Count() == n {
		em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: &agt.Meta{Type: e.Kind}}, k, "meta")
	}
}

// localTime reads OpenHands' zone-less local times as UTC.
func localTime(s string) string {
	if ts := agt.Timestamp(s); ts != "" || s == "" {
		return ts
	}
	return agt.Timestamp(s + "Z")
}

// baseState is what agt reads of base_state.json.
type baseState struct {
	Workspace *struct {
		WorkingDir string `json:"working_dir"`
	} `json:"workspace"`
	Stats *struct {
		UsageToMetrics map[string]struct {
			ModelName   string `json:"model_name"`
			TokenUsages []struct {
				Model      string    `json:"model"`
				Prompt     agt.Count `json:"prompt_tokens"`
				Completion agt.Count `json:"completion_tokens"`
				CacheRead  agt.Count `json:"cache_read_tokens"`
				CacheWrite agt.Count `json:"cache_write_tokens"`
				Reasoning  agt.Count `json:"reasoning_tokens"`
				ResponseID string    `json:"response_id"`
			} `json:"token_usages"`
			Costs []struct {
				Cost      float64 `json:"cost"`
				Timestamp float64 `json:"timestamp"`
			} `json:"costs"`
		} `json:"usage_to_metrics"`
	} `json:"stats"`
}

// state emits what base_state.json adds: the working folder, and the usage
// of every model call.
func (p *parser) state(em *agt.Emitter, raw agt.Raw) {
	var s baseState
	if err := agt.Decode(raw, &s); err != nil {
		em.Errorf("%v", err)
		return
	}
	m := &agt.Meta{Type: "base_state"}
	if s.Workspace != nil {
		m.Cwd = s.Workspace.WorkingDir
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, Meta: m}, "base_state", "meta")
	if s.Stats == nil {
		return
	}
	ids := make([]string, 0, len(s.Stats.UsageToMetrics))
	for id := range s.Stats.UsageToMetrics {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		mt := s.Stats.UsageToMetrics[id]
		for i, tu := range mt.TokenUsages {
			lu := llmUsage{Prompt: tu.Prompt, Completion: tu.Completion, CacheWrite: tu.CacheWrite, CacheRead: &tu.CacheRead}
			u := lu.usage()
			u.Reasoning, u.MessageID = int64(tu.Reasoning), tu.ResponseID
			ev := agt.Event{Kind: agt.KindUsage, Model: tu.Model, Usage: u}
			if len(mt.Costs) == len(mt.TokenUsages) {
				c := mt.Costs[i]
				u.NativeCostUSD = &c.Cost
				if c.Timestamp > 0 {
					ev.TS = agt.FormatTime(time.UnixMilli(int64(c.Timestamp * 1000)))
				}
			}
			em.Emit(ev, "base_state", id+"#"+strconv.Itoa(i))
		}
	}
}
