package amp

import "github.com/agt-project/agt"

// handler emits the events of one record type.
type handler func(p *parser, em *agt.Emitter, r *record, stream string)

// records are the line types, by the value of "type".
var records = map[string]handler{
	"system":    (*parser).system,
	"user":      (*parser).user,
	"assistant": (*parser).assistant,
	"result":    (*parser).result,
}

// parser reads one stream of Amp's stream JSON.
type parser struct {
	calls calls
}

// Decode reads one line; it touches no state.
func (*parser) Decode(line []byte) (any, error) {
	r, err := decode(line)
	if r == nil {
		return nil, err
	}
	return r, err
}

// Apply emits the events of one line: a type Amp does not document is an
// unknown event, and a line that yields nothing else a meta event, so that
// every line is accounted for.
func (p *parser) Apply(em *agt.Emitter, v any) {
	r := v.(*record)
	if r.SessionID != "" {
		em.Session(r.SessionID)
	}
	h := records[r.Type]
	if h == nil {
		em.Unknown("", "", r.Type)
		return
	}
	stream := agt.StreamMain
	if r.ParentToolUseID != "" {
		stream = "sidechain:" + r.ParentToolUseID
	}
	n := em.Count()
	h(p, em, r, stream)
	if em.Count() == n {
		em.Emit(agt.Event{Kind: agt.KindMeta, Stream: stream, Meta: &agt.Meta{Type: r.Type, Subtype: r.Subtype}}, "", "meta")
	}
}

// Finish emits nothing: no line is held back.
func (*parser) Finish(*agt.Emitter) {}

func (p *parser) system(em *agt.Emitter, r *record, stream string) {
	m := &agt.Meta{Type: "system", Subtype: r.Subtype, Cwd: r.Cwd}
	if r.Subtype == "init" {
		m.Data = agt.Marshal(struct {
			Tools           agt.Raw `json:"tools,omitempty"`
			MCPServers      agt.Raw `json:"mcp_servers,omitempty"`
			AgentMode       string  `json:"agent_mode,omitempty"`
			ReasoningEffort string  `json:"reasoning_effort,omitempty"`
		}{r.Tools, r.MCPServers, r.AgentMode, r.ReasoningEffort})
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, Stream: stream, Meta: m}, "", "meta")
}

func (p *parser) user(em *agt.Emitter, r *record, stream string) {
	if r.Message == nil {
		return
	}
	for i := range r.Message.Content {
		b := &r.Message.Content[i]
		userBlock(em, p.calls, agt.Event{Stream: stream}, &b.part, b.result, i)
	}
}

func (p *parser) assistant(em *agt.Emitter, r *record, stream string) {
	m := r.Message
	if m == nil {
		return
	}
	for i := range m.Content {
		assistantBlock(em, p.calls, agt.Event{Stream: stream}, &m.Content[i].part, i)
	}
	if m.Usage != nil {
		em.Emit(agt.Event{Kind: agt.KindUsage, Stream: stream, Usage: m.Usage.call()}, "", "usage")
	}
}

func (p *parser) result(em *agt.Emitter, r *record, stream string) {
	data := agt.Marshal(struct {
		IsError    bool    `json:"is_error"`
		DurationMS *int64  `json:"duration_ms,omitempty"`
		NumTurns   *int64  `json:"num_turns,omitempty"`
		Usage      agt.Raw `json:"usage,omitempty"`
		Denials    agt.Raw `json:"permission_denials,omitempty"`
	}{r.IsError, r.DurationMS, r.NumTurns, r.Usage, r.Denials})
	ev := agt.Event{Kind: agt.KindMeta, Stream: stream, Meta: &agt.Meta{Type: "result", Subtype: r.Subtype, Data: data}}
	if r.IsError {
		ev.Kind = agt.KindSystem
		if ev.Text = text(r.Error); ev.Text == nil {
			ev.Text = text(r.Result)
		}
		if ev.Text == nil {
			ev.Text = agt.String(r.Subtype)
		}
	}
	ev.Meta.Outcome = resultOutcome(r.Subtype, r.IsError, ev.Text)
	em.Emit(ev, "", "result")
}
