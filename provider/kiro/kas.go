package kiro

import (
	"path/filepath"

	"github.com/agt-project/agt"
)

// The KAS engine's session log (kiro-cli chat --agent-engine kas):
// ~/.kiro/sessions/<workspace hash>/<session id>/messages.jsonl beside
// session.json. Each line is {"id","timestamp","payload":{"type":…}}:
//
//   - user and assistant payloads carry their text in content;
//   - tool_call (toolCallId, toolName, args) is a tool call, tool_result
//     (toolCallId, content, success) its result, a run_command's content
//     {"output","exitCode"} giving the exit code;
//   - a session_metadata displayError is a system event (the error the
//     user saw), sub_agent_complete with status error a system event with
//     its errorMessage;
//   - every other payload (turn_start, turn_end, session_metadata
//     contextUsage, pending_interaction, interaction_resolved,
//     sub_agent_start, usage_summary in credits, session_event) is a meta
//     event of its type, the payload kept as data.
//
// The log names no session: its session is the folder's name (the
// session id) when the file is messages.jsonl, else the file's name.

// kasLine is one line of a KAS log.
type kasLine struct {
	ID        string      `json:"id"`
	Timestamp string      `json:"timestamp"`
	Payload   *kasPayload `json:"payload"`
	raw       agt.Raw     // the payload, for meta events
}

// kasPayload is a line's payload, all types' members together.
type kasPayload struct {
	Type       string  `json:"type"`
	Content    agt.Raw `json:"content"`
	ToolCallID string  `json:"toolCallId"`
	ToolName   string  `json:"toolName"`
	Args       agt.Raw `json:"args"`
	Success    *bool   `json:"success"`
	Key        string  `json:"key"`
	Value      *struct {
		Message string `json:"message"`
	} `json:"value"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
	SubAgentName string `json:"subAgentName"`
}

// kasTypes are the payload types of a KAS log.
var kasTypes = map[string]bool{
	"user": true, "assistant": true, "tool_call": true, "tool_result": true,
	"turn_start": true, "turn_end": true, "session_metadata": true, "session_event": true,
	"pending_interaction": true, "interaction_resolved": true,
	"sub_agent_start": true, "sub_agent_complete": true, "usage_summary": true,
}

// sniffKAS recognises a KAS log line: an id, a time and a payload of a
// known type, and no type of its own.
func sniffKAS(line []byte) bool {
	var l struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		Timestamp string `json:"timestamp"`
		Payload   *struct {
			Type string `json:"type"`
		} `json:"payload"`
	}
	return agt.API.Unmarshal(line, &l) == nil && l.Type == "" && l.ID != "" && l.Timestamp != "" &&
		l.Payload != nil && kasTypes[l.Payload.Type]
}

// kasParser reads one KAS log.
type kasParser struct {
	calls map[string]string // toolCallId → event id of the call
}

// Decode reads one line; it touches no state.
func (*kasParser) Decode(line []byte) (any, error) {
	l := &kasLine{}
	err := agt.Decode(line, l)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	var p struct {
		Payload agt.Raw `json:"payload"`
	}
	if agt.API.Unmarshal(line, &p) == nil {
		l.raw = p.Payload
	}
	return l, err
}

// Apply emits the events of one line.
func (p *kasParser) Apply(em *agt.Emitter, v any) {
	l := v.(*kasLine)
	if em.Current() == "" {
		em.Session(kasSession(em))
	}
	if l.Payload == nil {
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: agt.Timestamp(l.Timestamp), Meta: &agt.Meta{Type: "line"}}, l.ID, "meta")
		return
	}
	pl := l.Payload
	if !kasTypes[pl.Type] {
		em.Unknown("", "", pl.Type)
		return
	}
	ts := agt.Timestamp(l.Timestamp)
	key := l.ID
	switch pl.Type {
	case "user", "assistant":
		kind := agt.KindUser
		if pl.Type == "assistant" {
			kind = agt.KindAssistant
		}
		if t := text(block{Data: pl.Content}); t != nil {
			em.Emit(agt.Event{Kind: kind, TS: ts, Text: t}, key, "text")
			return
		}
	case "tool_call":
		t := &agt.Tool{ID: pl.ToolCallID, Name: pl.ToolName, NativeName: pl.ToolName, Input: pl.Args, NativeInput: pl.Args}
		if t.ID == "" {
			t.ID = em.Key()
		}
		id := em.Emit(agt.Event{Kind: agt.KindToolCall, TS: ts, Tool: t}, key, "tool")
		if pl.ToolCallID != "" {
			p.calls[pl.ToolCallID] = id
		}
		return
	case "tool_result":
		res := &agt.Result{ID: pl.ToolCallID, Output: pl.Content, IsError: pl.Success != nil && !*pl.Success}
		if s := agt.Raw(pl.Content).Str(); len(s) > 0 && s[0] == '{' {
			var o struct {
				ExitCode *int `json:"exitCode"`
			}
			if agt.API.Unmarshal([]byte(s), &o) == nil && o.ExitCode != nil {
				res.ExitCode = o.ExitCode
				res.IsError = res.IsError || *o.ExitCode != 0
			}
		}
		if pl.ToolCallID != "" {
			res.Call = p.calls[pl.ToolCallID]
			delete(p.calls, pl.ToolCallID)
		}
		em.Emit(agt.Event{Kind: agt.KindToolResult, TS: ts, Result: res}, key, "result")
		return
	case "session_metadata":
		if pl.Key == "displayError" && pl.Value != nil && pl.Value.Message != "" {
			em.Emit(agt.Event{Kind: agt.KindSystem, TS: ts, Text: agt.String(pl.Value.Message),
				Meta: &agt.Meta{Type: pl.Type, Subtype: pl.Key, Data: l.raw}}, key, "system")
			return
		}
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: ts, Meta: &agt.Meta{Type: pl.Type, Subtype: pl.Key, Data: l.raw}}, key, "meta")
		return
	case "sub_agent_complete":
		if pl.Status == "error" && pl.ErrorMessage != "" {
			em.Emit(agt.Event{Kind: agt.KindSystem, TS: ts, Text: agt.String(pl.ErrorMessage),
				Meta: &agt.Meta{Type: pl.Type, Subtype: pl.Status, Data: l.raw}}, key, "system")
			return
		}
	}
	m := &agt.Meta{Type: pl.Type, Data: l.raw}
	if pl.Type == "sub_agent_start" {
		m.Agent = pl.SubAgentName
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: ts, Meta: m}, key, "meta")
}

// Finish emits nothing: no line is held back.
func (*kasParser) Finish(*agt.Emitter) {}

// kasSession names the session of a KAS log: the folder of a
// messages.jsonl, else the file's name.
func kasSession(em *agt.Emitter) string {
	path := em.Src().Path
	if filepath.Base(path) == "messages.jsonl" {
		if d := filepath.Base(filepath.Dir(path)); d != "." && d != string(filepath.Separator) {
			return d
		}
	}
	return em.Fallback()
}
