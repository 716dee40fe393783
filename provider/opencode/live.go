package opencode

import (
	"bytes"

	"github.com/agt-project/agt"
)

// liveParser reads `opencode run --format json`: one event per line, each
// {type, timestamp, sessionID, part | error}. The parts are the parts of the
// export; each step is one model call and its step_finish the call's usage.
type liveParser struct {
	state
}

// liveType is an event type of the live output and the part type it carries
// ("" for error, which carries an error).
type liveType struct{ part string }

var liveTypes = map[string]liveType{
	"step_start":  {part: "step-start"},
	"text":        {part: "text"},
	"reasoning":   {part: "reasoning"},
	"tool_use":    {part: "tool"},
	"step_finish": {part: "step-finish"},
	"error":       {},
}

type liveLine struct {
	Type      string  `json:"type"`
	Timestamp int64   `json:"timestamp"`
	SessionID string  `json:"sessionID"`
	Part      *part   `json:"part"`
	Error     agt.Raw `json:"error"`
}

// notice is a line `opencode run` prints as text among the JSON events, such
// as "! permission requested: … auto-rejecting".
type notice struct{ text string }

// Decode reads one line.
func (*liveParser) Decode(b []byte) (any, error) {
	t := bytes.TrimSpace(b)
	if bytes.HasPrefix(t, []byte("! ")) {
		return notice{text: agt.ValidText(string(t[2:]))}, nil
	}
	var l liveLine
	err := agt.Decode(b, &l)
	if err != nil {
		if !agt.IsFieldError(err) {
			return nil, err
		}
	}
	return &l, err
}

// Apply emits the events of one line.
func (p *liveParser) Apply(em *agt.Emitter, v any) {
	switch l := v.(type) {
	case notice:
		em.Emit(agt.Event{Kind: agt.KindSystem, Text: agt.String(l.text), Meta: &agt.Meta{Type: "notice"}}, "", "notice")
	case *liveLine:
		em.Session(l.SessionID)
		t, known := liveTypes[l.Type]
		switch {
		case !known:
			em.Unknown(l.SessionID, "", l.Type)
		case t.part == "":
			em.Emit(errorEvent(em, l.Error, ts(l.Timestamp), ""), "", "error")
		case l.Part == nil:
			em.Errorf("%s event without its part", l.Type)
		default:
			c := &partCtx{em: em, st: &p.state, msg: msgCtx{role: "assistant", ts: l.Timestamp}, key: p.key(em, l.Part.ID, ""), live: true}
			emitPart(c, l.Part)
		}
	}
}

// Finish has nothing held back.
func (*liveParser) Finish(*agt.Emitter) {}
