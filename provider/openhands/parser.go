package openhands

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/docscan"
)

// event is one V0 event; only the members agt reads.
type event struct {
	ID          *int64        `json:"id"`
	Timestamp   string        `json:"timestamp"`
	Source      string        `json:"source"`
	Message     *string       `json:"message"`
	Action      *string       `json:"action"`
	Args        agt.Raw       `json:"args"`
	Observation *string       `json:"observation"`
	Content     agt.Raw       `json:"content"`
	Extras      agt.Raw       `json:"extras"`
	Cause       *int64        `json:"cause"`
	Meta        *toolCallMeta `json:"tool_call_metadata"`
}

type toolCallMeta struct {
	FunctionName string         `json:"function_name"`
	ToolCallID   string         `json:"tool_call_id"`
	Response     *modelResponse `json:"model_response"`
}

// modelResponse is LiteLLM's ModelResponse.
type modelResponse struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"`
			ToolCalls        []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage *llmUsage `json:"usage"`
}

type llmUsage struct {
	Prompt        agt.Count  `json:"prompt_tokens"`
	Completion    agt.Count  `json:"completion_tokens"`
	Total         agt.Count  `json:"total_tokens"`
	CacheWrite    agt.Count  `json:"cache_creation_input_tokens"`
	CacheRead     *agt.Count `json:"cache_read_input_tokens"`
	PromptDetails *struct {
		Cached agt.Count `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionDetails *struct {
		Reasoning agt.Count `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// usage turns LiteLLM's counts into agt's: the prompt count includes cache
// reads and writes.
func (u *llmUsage) usage() *agt.Usage {
	read := agt.Count(0)
	switch {
	case u.CacheRead != nil:
		read = *u.CacheRead
	case u.PromptDetails != nil:
		read = u.PromptDetails.Cached
	}
	out := &agt.Usage{Scope: agt.ScopeCall, Input: int64(u.Prompt - read - u.CacheWrite), CacheRead: int64(read), CacheWrite: int64(u.CacheWrite), Output: int64(u.Completion)}
	if out.Input < 0 { // a provider whose prompt count leaves the cache out
		out.Input = int64(u.Prompt)
	}
	if u.CompletionDetails != nil {
		out.Reasoning = int64(u.CompletionDetails.Reasoning)
	}
	out.Sum()
	return out
}

// item is one event to apply: its text and where it was read.
type item struct {
	raw   agt.Raw
	src   agt.Src
	sid   string
	ev    *event   // a V0 event
	v1    *v1Event // a V1 event
	state bool     // raw is a V1 conversation's base_state.json
	err   error
}

// parser reads a trajectory or the lines of an event folder.
type parser struct {
	lines     bool              // event folder lines
	calls     map[int64]string  // action id → its tool_call event id
	v1calls   map[string]string // V1 tool_call_id → its tool_call event id
	responses map[string]bool   // model responses whose text and usage were emitted
}

// Decode reads a trajectory (every element) or one folder line.
func (p *parser) Decode(rec []byte) (any, error) {
	t := bytes.TrimSpace(rec)
	if p.lines {
		var l folderLine
		if err := agt.Decode(t, &l); err != nil {
			return nil, err
		}
		it := item{raw: l.Event, src: agt.Src{Path: l.File}, sid: l.Session}
		switch {
		case len(l.State) > 0:
			it.raw, it.state = l.State, true
		case isV1(l.Event):
			it.v1 = &v1Event{}
			if it.err = agt.Decode(l.Event, it.v1); it.err != nil {
				it.v1 = nil
			}
		default:
			it.ev, it.err = decodeEvent(l.Event)
		}
		return []item{it}, nil
	}
	if len(t) == 0 || t[0] != '[' {
		return nil, errors.New("not a JSON array of events")
	}
	var items []item
	s := docscan.New(t)
	err := s.Elements(func(n int) error {
		v, err := s.Value()
		if err != nil {
			return err
		}
		it := item{raw: agt.Compact(v), src: agt.Src{Ptr: "/" + strconv.Itoa(n)}}
		it.ev, it.err = decodeEvent(v)
		items = append(items, it)
		return nil
	})
	if err != nil {
		return items, errors.New("trajectory cut short: read " + strconv.Itoa(len(items)) + " events")
	}
	return items, nil
}

func decodeEvent(b []byte) (*event, error) {
	e := &event{}
	if err := agt.Decode(b, e); err != nil {
		return nil, err
	}
	return e, nil
}

// Apply emits the events of a decoded record.
func (p *parser) Apply(em *agt.Emitter, v any) {
	items, _ := v.([]item)
	path, raw := em.Src().Path, em.Line()
	for _, it := range items {
		src := it.src
		if src.Path == "" {
			src.Path = path
		}
		em.SetSrc(src, it.raw)
		sid := it.sid
		if sid == "" {
			sid = em.Fallback()
		}
		if sid != em.Current() {
			em.Session(sid)
			p.calls, p.v1calls = map[int64]string{}, map[string]string{}
			p.responses = map[string]bool{}
		}
		switch {
		case it.state:
			p.state(em, it.raw)
		case it.v1 != nil:
			p.v1(em, it.v1)
		case it.ev != nil:
			p.event(em, it.ev)
		default:
			em.Errorf("%v", it.err)
		}
	}
	if len(items) == 0 {
		em.SetSrc(agt.Src{Path: path}, raw)
		if _, ok := v.([]item); ok { // an empty trajectory: the input still gets its event
			if em.Current() == "" {
				em.Session(em.Fallback())
			}
			em.Errorf("a trajectory of no events")
		}
	}
}

// Finish has nothing held back.
func (p *parser) Finish(*agt.Emitter) {}

// key is the record key of an event: its id.
func key(e *event) string {
	if e.ID == nil {
		return ""
	}
	return "ev" + strconv.FormatInt(*e.ID, 10)
}

// runs are the actions that run something, tool calls even when no model
// call asked for them (a user's command in the UI).
var runs = map[string]bool{
	"run": true, "run_ipython": true, "read": true, "edit": true, "write": true,
	"browse": true, "browse_interactive": true, "call_tool_mcp": true, "delegate": true,
}

// metaActions are actions with nothing to show but their type.
var metaActions = map[string]bool{
	"change_agent_state": true, "recall": true, "condensation": true, "condensation_request": true,
	"null": true, "reject": true, "think": true, "finish": true, "task_tracking": true,
}

func (p *parser) event(em *agt.Emitter, e *event) {
	ts := agt.Timestamp(e.Timestamp)
	if ts == "" && e.Timestamp != "" { // OpenHands writes local times without a zone: read as UTC
		ts = agt.Timestamp(e.Timestamp + "Z")
	}
	k := key(e)
	switch {
	case e.Action != nil:
		p.action(em, e, ts, k)
	case e.Observation != nil:
		p.observation(em, e, ts, k)
	default:
		em.Unknown("", "", "event")
	}
}

func (p *parser) action(em *agt.Emitter, e *event, ts, k string) {
	act := *e.Action
	var args struct {
		Content *string `json:"content"`
		Thought string  `json:"thought"`
	}
	if len(e.Args) > 0 && e.Args[0] == '{' {
		em.Field("args", e.Args, &args)
	}
	n := em.Count()
	model := ""
	said := false // the response's text was given
	if m := e.Meta; m != nil && m.Response != nil {
		r := m.Response
		model = r.Model
		if !p.responses[r.ID] || r.ID == "" {
			for i, c := range r.Choices {
				if c.Message.ReasoningContent != nil && *c.Message.ReasoningContent != "" {
					em.Emit(agt.Event{TS: ts, Kind: agt.KindReasoning, Model: model, MessageID: r.ID, Text: agt.String(*c.Message.ReasoningContent)}, k, "reasoning"+strconv.Itoa(i))
				}
				if c.Message.Content != nil && *c.Message.Content != "" {
					em.Emit(agt.Event{TS: ts, Kind: agt.KindAssistant, Model: model, MessageID: r.ID, Text: agt.String(*c.Message.Content)}, k, "text"+strconv.Itoa(i))
					said = true
				}
			}
		}
	}
	if !said && act == "finish" && e.Message != nil && *e.Message != "" && e.Meta != nil && (e.Meta.Response == nil || !p.responses[e.Meta.Response.ID]) {
		// the final words, when the response gave them in the call's arguments
		em.Emit(agt.Event{TS: ts, Kind: agt.KindAssistant, Model: model, Text: agt.String(*e.Message)}, k, "message")
	}
	switch {
	case e.Meta != nil && e.Meta.FunctionName != "":
		m := e.Meta
		in := e.Args
		if r := m.Response; r != nil {
			for _, c := range r.Choices {
				for _, tc := range c.Message.ToolCalls {
					if tc.ID == m.ToolCallID && agt.Valid([]byte(tc.Function.Arguments)) {
						in = agt.Compact([]byte(tc.Function.Arguments))
					}
				}
			}
		}
		if in.IsNull() || in[0] != '{' {
			in = agt.Raw(`{}`)
		}
		ev := agt.Event{TS: ts, Kind: agt.KindToolCall, Model: model,
			Tool: &agt.Tool{ID: m.ToolCallID, Name: m.FunctionName, NativeName: m.FunctionName, Input: in, NativeInput: in}}
		if m.Response != nil {
			ev.MessageID = m.Response.ID
		}
		id := em.Emit(ev, k, "call")
		if e.ID != nil {
			p.calls[*e.ID] = id
		}
	case act == "message" && args.Content != nil:
		kind := agt.KindUser
		if e.Source == "agent" {
			kind = agt.KindAssistant
		}
		if em.Count() == n || kind == agt.KindUser {
			em.Emit(agt.Event{TS: ts, Kind: kind, Model: model, Text: agt.String(*args.Content)}, k, "message")
		}
	case act == "system" && args.Content != nil:
		em.Emit(agt.Event{TS: ts, Kind: agt.KindSystem, Text: agt.String(*args.Content), Meta: &agt.Meta{Type: "system_prompt"}}, k, "system")
	case runs[act]:
		in := e.Args
		if in.IsNull() || in[0] != '{' {
			in = agt.Raw(`{}`)
		}
		id := em.Emit(agt.Event{TS: ts, Kind: agt.KindToolCall, Tool: &agt.Tool{ID: "action:" + k, Name: act, NativeName: act, Input: in, NativeInput: in}}, k, "call")
		if e.ID != nil {
			p.calls[*e.ID] = id
		}
	case metaActions[act]:
		if act == "finish" && e.Message != nil && *e.Message != "" && em.Count() == n {
			em.Emit(agt.Event{TS: ts, Kind: agt.KindAssistant, Model: model, Text: agt.String(*e.Message)}, k, "message")
		}
		if em.Count() == n {
			em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: &agt.Meta{Type: "action", Subtype: act, Data: e.Args}}, k, "meta")
		}
	default:
		if em.Count() == n {
			em.Unknown("", "", "action:"+act)
		}
	}
	if m := e.Meta; m != nil && m.Response != nil && m.Response.Usage != nil && (!p.responses[m.Response.ID] || m.Response.ID == "") {
		u := m.Response.Usage.usage()
		u.MessageID = m.Response.ID
		em.Emit(agt.Event{TS: ts, Kind: agt.KindUsage, Model: model, Usage: u}, k, "usage")
	}
	if m := e.Meta; m != nil && m.Response != nil && m.Response.ID != "" {
		p.responses[m.Response.ID] = true
	}
}

// observations are the observation types agt knows; the ones answering a
// call become tool results.
var observations = map[string]bool{
	"run": true, "run_ipython": true, "read": true, "edit": true, "write": true, "browse": true,
	"error": true, "success": true, "agent_state_changed": true, "recall": true, "null": true,
	"delegate": true, "user_rejected": true, "think": true, "mcp": true, "condense": true,
	"agent_condensation": true, "task_tracking": true, "download": true, "file_download": true,
}

func (p *parser) observation(em *agt.Emitter, e *event, ts, k string) {
	obs := *e.Observation
	call := ""
	if e.Cause != nil {
		call = p.calls[*e.Cause]
	}
	var ex struct {
		ExitCode *int `json:"exit_code"`
		Metadata *struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
		AgentState string `json:"agent_state"`
	}
	if len(e.Extras) > 0 && e.Extras[0] == '{' {
		em.Field("extras", e.Extras, &ex)
	}
	switch {
	case call != "" || (e.Meta != nil && e.Meta.ToolCallID != ""):
		id := ""
		if e.Meta != nil {
			id = e.Meta.ToolCallID
		}
		if id == "" && e.Cause != nil {
			id = "action:ev" + strconv.FormatInt(*e.Cause, 10)
		}
		code := ex.ExitCode
		if code == nil && ex.Metadata != nil {
			code = ex.Metadata.ExitCode
		}
		out := e.Content
		if out.IsNull() {
			out = agt.String("")
		}
		isErr := obs == "error" || obs == "user_rejected" || (code != nil && *code != 0 && *code != -1)
		em.Emit(agt.Event{TS: ts, Kind: agt.KindToolResult, Result: &agt.Result{ID: id, Call: call, Output: out, IsError: isErr, ExitCode: code}}, k, "result")
	case obs == "error":
		text := e.Content
		if len(text) == 0 || text[0] != '"' {
			text = agt.String(string(text))
		}
		em.Emit(agt.Event{TS: ts, Kind: agt.KindSystem, Text: text, Meta: &agt.Meta{Type: "observation", Subtype: obs}}, k, "system")
	case observations[obs]:
		m := &agt.Meta{Type: "observation", Subtype: obs, Data: e.Extras}
		if ex.AgentState != "" {
			m.Subtype, m.Data = obs+":"+ex.AgentState, nil
		}
		em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: m}, k, "meta")
	default:
		em.Unknown("", "", "observation:"+obs)
	}
}
