package qwen

import (
	"strconv"
	"strings"

	"github.com/agt-project/agt"
)

// parser reads one chat record file.
type parser struct {
	calls   map[string]string // functionCall id → event id, current session
	pending []telemetry       // api_response events no assistant record has claimed yet
}

// telemetry is an api_response event held until it is known whether an
// assistant record gives the same response (then it is a meta event) or
// none does (then it is the call's only record: a meta and a usage event).
// Qwen writes the event just before the assistant record of its response;
// one not claimed by the next assistant record that claims a later one, by
// the next user record, or by the end of the session, has none.
type telemetry struct {
	src  agt.Src
	raw  agt.Raw
	base agt.Event
	r    *record
	ev   *apiResponse
}

func (t *telemetry) figures() figures {
	e := &t.ev.Event
	return figures{e.Input, e.Cached, e.Output, e.Thoughts, e.Total}
}

func (m *usageMetadata) figures() figures {
	return figures{m.Prompt, m.Cached, m.Candidates, m.Thoughts, m.Total}
}

// Decode reads one record.
func (p *parser) Decode(rec []byte) (any, error) {
	r := &record{}
	if err := agt.Decode(rec, r); err != nil {
		return nil, err
	}
	return r, nil
}

// handlers emit the events of each record type.
var handlers = map[string]func(p *parser, em *agt.Emitter, r *record, base agt.Event){
	"user":        (*parser).user,
	"assistant":   (*parser).assistant,
	"tool_result": (*parser).toolResult,
	"system":      (*parser).system,
}

// Apply emits the events of one record.
func (p *parser) Apply(em *agt.Emitter, v any) {
	r, ok := v.(*record)
	if !ok {
		return
	}
	if r.SessionID != "" && r.SessionID != em.Current() {
		p.release(em, len(p.pending))
		em.Session(r.SessionID)
		p.calls = map[string]string{}
		// where the session ran, from its first record
		em.Emit(agt.Event{TS: agt.Timestamp(r.Timestamp), Kind: agt.KindMeta,
			Meta: &agt.Meta{Type: "session", Cwd: r.Cwd, GitBranch: r.GitBranch, Version: r.Version}}, r.UUID, "session")
	}
	base := agt.Event{TS: agt.Timestamp(r.Timestamp)}
	if r.AgentID != "" {
		base.Stream = "subagent:" + r.AgentID
	}
	if ev := r.apiResponse(); ev != nil {
		p.pending = append(p.pending, telemetry{em.Src(), em.Line(), base, r, ev})
		return
	}
	if r.Type == "user" {
		p.release(em, len(p.pending))
	}
	n := em.Count()
	if h := handlers[r.Type]; h != nil {
		h(p, em, r, base)
	}
	if em.Count() == n {
		if handlers[r.Type] == nil {
			ev := base
			ev.Kind = agt.KindUnknown
			ev.Meta = &agt.Meta{Type: r.Type}
			em.Emit(ev, r.UUID, "unknown")
			return
		}
		// a record with nothing to show (a message without parts)
		ev := base
		ev.Kind = agt.KindMeta
		ev.Meta = &agt.Meta{Type: r.Type, Subtype: r.Subtype}
		em.Emit(ev, r.UUID, "meta")
	}
}

// Finish emits the telemetry still held: responses no assistant record gave.
func (p *parser) Finish(em *agt.Emitter) { p.release(em, len(p.pending)) }

// apiResponse is the record's api_response telemetry event, nil for any
// other record.
func (r *record) apiResponse() *apiResponse {
	if r.Type != "system" || r.Subtype != "ui_telemetry" || len(r.SystemPayload) == 0 || r.SystemPayload[0] != '{' {
		return nil
	}
	ev := &apiResponse{}
	if agt.API.Unmarshal(r.SystemPayload, ev) != nil || ev.Event.Name != "qwen-code.api_response" {
		return nil
	}
	return ev
}

// claim finds the newest held telemetry of the same response as an
// assistant record's usage (the same figures); the ones before it had no
// assistant record, and are released with it.
func (p *parser) claim(em *agt.Emitter, m *usageMetadata) {
	f := m.figures()
	for i := len(p.pending) - 1; i >= 0; i-- {
		if p.pending[i].figures() == f {
			p.pending[i].ev = nil // the assistant record counts the call
			p.release(em, i+1)
			return
		}
	}
}

// release emits the first n held telemetry events at their own lines: a
// meta event each, and a usage event for a response no assistant record
// gave.
func (p *parser) release(em *agt.Emitter, n int) {
	if n == 0 {
		return
	}
	src, raw := em.Src(), em.Line()
	for _, t := range p.pending[:n] {
		em.SetSrc(t.src, t.raw)
		ev := t.base
		ev.Kind = agt.KindMeta
		ev.Meta = &agt.Meta{Type: "system", Subtype: t.r.Subtype, Data: t.r.SystemPayload}
		em.Emit(ev, t.r.UUID, "meta")
		if t.ev != nil {
			e := &t.ev.Event
			u := callUsage(e.Input, e.Cached, e.Tool, e.Output, e.Thoughts, e.Total)
			u.MessageID = e.ResponseID
			ev := t.base
			ev.Kind, ev.Model, ev.Usage, ev.Meta = agt.KindUsage, e.Model, u, nil
			em.Emit(ev, t.r.UUID, "usage")
		}
	}
	em.SetSrc(src, raw)
	p.pending = append(p.pending[:0], p.pending[n:]...)
}

func (p *parser) user(em *agt.Emitter, r *record, base agt.Event) {
	if r.Message == nil {
		return
	}
	for i, pt := range r.Message.Parts {
		suffix := "p" + strconv.Itoa(i)
		switch {
		case pt.Text != nil:
			ev := base
			ev.Kind = agt.KindUser
			ev.Text = agt.String(*pt.Text)
			em.Emit(ev, r.UUID, suffix)
		case pt.FunctionResponse != nil:
			p.response(em, r, base, pt.FunctionResponse, suffix)
		default:
			p.other(em, r, base, pt, suffix)
		}
	}
}

func (p *parser) assistant(em *agt.Emitter, r *record, base agt.Event) {
	if r.UsageMetadata != nil {
		p.claim(em, r.UsageMetadata) // its telemetry keeps its place before it
	}
	base.Model = r.Model
	base.MessageID = r.UUID
	if r.Message != nil {
		for i, pt := range r.Message.Parts {
			suffix := "p" + strconv.Itoa(i)
			switch {
			case pt.FunctionCall != nil:
				fc := pt.FunctionCall
				ev := base
				ev.Kind = agt.KindToolCall
				in := agt.ToolArgs(fc.Args)
				ev.Tool = &agt.Tool{ID: fc.ID, Name: fc.Name, NativeName: fc.Name, Input: in, NativeInput: in}
				id := em.Emit(ev, r.UUID, suffix)
				if fc.ID != "" {
					p.calls[fc.ID] = id
				}
			case pt.Text != nil && pt.Thought:
				ev := base
				ev.Kind = agt.KindReasoning
				ev.Text = agt.String(*pt.Text)
				em.Emit(ev, r.UUID, suffix)
			case pt.Text != nil:
				ev := base
				ev.Kind = agt.KindAssistant
				ev.Text = agt.String(*pt.Text)
				em.Emit(ev, r.UUID, suffix)
			default:
				p.other(em, r, base, pt, suffix)
			}
		}
	}
	if m := r.UsageMetadata; m != nil {
		ev := base
		ev.Kind = agt.KindUsage
		ev.Usage = m.usage()
		ev.Usage.MessageID = r.UUID
		em.Emit(ev, r.UUID, "usage")
	}
}

// other is a part agt has no event for: inline data or a file reference (a
// meta event naming it), else a part of a kind not known (unknown).
func (p *parser) other(em *agt.Emitter, r *record, base agt.Event, pt part, suffix string) {
	what, kind := "part", agt.KindUnknown
	switch {
	case len(pt.InlineData) > 0:
		what, kind = "inline_data", agt.KindMeta
	case len(pt.FileData) > 0:
		what, kind = "file_data", agt.KindMeta
	}
	ev := base
	ev.Kind = kind
	ev.Meta = &agt.Meta{Type: what}
	em.Emit(ev, r.UUID, suffix)
}

func (p *parser) toolResult(em *agt.Emitter, r *record, base agt.Event) {
	if r.Message == nil {
		return
	}
	for i, pt := range r.Message.Parts {
		suffix := "p" + strconv.Itoa(i)
		if pt.FunctionResponse != nil {
			p.response(em, r, base, pt.FunctionResponse, suffix)
			continue
		}
		if pt.Text != nil { // text a tool returned beside its response
			ev := base
			ev.Kind = agt.KindToolResult
			ev.Result = &agt.Result{ID: r.callID(), Call: p.calls[r.callID()], Output: agt.String(*pt.Text), IsError: r.failed()}
			em.Emit(ev, r.UUID, suffix)
			continue
		}
		p.other(em, r, base, pt, suffix)
	}
}

func (r *record) callID() string {
	if r.ToolCallResult != nil {
		return r.ToolCallResult.CallID
	}
	return ""
}

func (r *record) failed() bool {
	return r.ToolCallResult != nil && (r.ToolCallResult.Status == "error" || r.ToolCallResult.ErrorType != "")
}

// response is a functionResponse part: the tool's output is the response's
// output (or error) member when it has one, else the whole response.
func (p *parser) response(em *agt.Emitter, r *record, base agt.Event, fr *functionResp, suffix string) {
	ev := base
	ev.Kind = agt.KindToolResult
	out := fr.Response
	var resp struct {
		Output agt.Raw `json:"output"`
		Error  agt.Raw `json:"error"`
	}
	isErr := r.failed()
	if len(out) > 0 && out[0] == '{' && agt.API.Unmarshal(out, &resp) == nil {
		switch {
		case !resp.Output.IsNull():
			out = resp.Output
		case !resp.Error.IsNull():
			out, isErr = resp.Error, true
		}
	}
	ev.Result = &agt.Result{ID: fr.ID, Call: p.calls[fr.ID], Output: out, IsError: isErr}
	em.Emit(ev, r.UUID, suffix)
}

// system records are meta events named by their subtype; a slash command's
// invocation is a slash_command event.
func (p *parser) system(em *agt.Emitter, r *record, base agt.Event) {
	if r.Subtype == "slash_command" {
		var sc struct {
			Phase      string `json:"phase"`
			RawCommand string `json:"rawCommand"`
		}
		if len(r.SystemPayload) > 0 && r.SystemPayload[0] == '{' {
			em.Field("systemPayload", r.SystemPayload, &sc)
		}
		if sc.Phase == "invocation" && sc.RawCommand != "" {
			ev := base
			ev.Kind = agt.KindSlashCommand
			ev.Text = agt.String(strings.TrimSpace(sc.RawCommand))
			em.Emit(ev, r.UUID, "slash")
			return
		}
	}
	if !metaSubtypes[r.Subtype] {
		ev := base
		ev.Kind = agt.KindUnknown
		ev.Meta = &agt.Meta{Type: "system", Subtype: r.Subtype}
		em.Emit(ev, r.UUID, "unknown")
		return
	}
	ev := base
	ev.Kind = agt.KindMeta
	ev.Meta = &agt.Meta{Type: "system", Subtype: r.Subtype, Data: r.SystemPayload}
	if r.Subtype == "custom_title" {
		var t struct {
			Title string `json:"customTitle"`
		}
		em.Field("systemPayload", r.SystemPayload, &t)
		ev.Meta.Title = t.Title
	}
	em.Emit(ev, r.UUID, "meta")
}
