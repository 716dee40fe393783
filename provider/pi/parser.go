package pi

import (
	"strconv"
	"time"

	"github.com/agt-project/agt"
)

// handler emits the events of one record type.
type handler func(p *parser, em *agt.Emitter, r *record)

// parser reads one input of any pi format; handlers is the table of its
// format's record types.
type parser struct {
	handlers map[string]handler
	calls    map[string]string // native tool call id → event id, current session
	hold     []held            // records read while no session id is known
	tree     bool              // entries form a tree (session files)
	live     bool              // pi-json, pi-rpc: a provisional session until one is named
	last     string            // id of the last entry, for branch points
}

// held is a record kept until its session is known, so that the events of
// its tool calls have ids that results can link to.
type held struct {
	src agt.Src
	raw agt.Raw
	r   *record
}

// maxHold bounds the records held while no session id is known (in a
// session file, whose header names it first); past it they go to the
// session named after the file. Live output does not hold: an RPC stream
// names its session only in a response, often its last line, so its
// records go to a provisional session until then.
const maxHold = 4096

// Apply emits the events of one record.
func (p *parser) Apply(em *agt.Emitter, v any) {
	r, ok := v.(*record)
	if !ok {
		return
	}
	if sid := r.sessionID(em); sid != "" {
		p.enter(em, sid)
	}
	if em.Current() == "" && p.live {
		em.Provisional()
	}
	if em.Current() == "" {
		p.hold = append(p.hold, held{em.Src(), em.Line(), r})
		if len(p.hold) >= maxHold {
			p.enter(em, agt.FallbackSession(em.Src().Path))
		}
		return
	}
	p.apply(em, r)
}

// Finish puts records still held into the session named after the file.
func (p *parser) Finish(em *agt.Emitter) {
	if len(p.hold) > 0 {
		p.enter(em, agt.FallbackSession(p.hold[0].src.Path))
	}
}

func (p *parser) apply(em *agt.Emitter, r *record) {
	if p.tree {
		p.branch(em, r)
	}
	h := p.handlers[r.Type]
	if h == nil {
		em.Unknown("", "", r.Type)
		return
	}
	h(p, em, r)
}

// enter makes sid the current session and emits the records held so far.
// A session that continues the provisional one keeps its open calls.
func (p *parser) enter(em *agt.Emitter, sid string) {
	if em.Current() != sid && !em.Session(sid) {
		p.calls = map[string]string{}
		p.last = ""
	}
	if len(p.hold) == 0 {
		return
	}
	src, raw := em.Src(), em.Line()
	hold := p.hold
	p.hold = nil
	for _, h := range hold {
		em.At(h.src, h.raw)
		p.apply(em, h.r)
	}
	em.At(src, raw)
}

// sessionID is the session a record names: a header's id, or the sessionId
// of an RPC response (get_state, get_session_stats).
func (r *record) sessionID(em *agt.Emitter) string {
	switch r.Type {
	case "session":
		return r.ID.Str()
	case "response":
		if r.Data.IsNull() || r.Data[0] != '{' {
			return ""
		}
		var d struct {
			SessionID string `json:"sessionId"`
		}
		em.Field("data", r.Data, &d)
		return d.SessionID
	}
	return ""
}

const tsLayout = "2006-01-02T15:04:05.000Z"

// timeOf reads a timestamp: an ISO string (entries) or epoch milliseconds
// (messages). It returns "" for anything else.
func timeOf(raw agt.Raw) string {
	if raw.IsNull() {
		return ""
	}
	if raw[0] == '"' {
		t, err := time.Parse(time.RFC3339Nano, raw.Str())
		if err != nil {
			return ""
		}
		return t.UTC().Format(tsLayout)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f <= 0 {
		return ""
	}
	return time.UnixMilli(int64(f)).UTC().Format(tsLayout)
}

// obj builds a small JSON object from key/value pairs, leaving out empty
// values; nil when nothing is left.
func obj(kv ...any) agt.Raw {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		if !empty(kv[i+1]) {
			m[kv[i].(string)] = kv[i+1]
		}
	}
	if len(m) == 0 {
		return nil
	}
	return agt.Marshal(m)
}

func empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case agt.Raw:
		return v.IsNull()
	case *int64:
		return v == nil
	case *int:
		return v == nil
	case *bool:
		return v == nil
	case bool:
		return !v
	}
	return false
}

// emptyText reports whether a JSON string literal is missing or "".
func emptyText(r agt.Raw) bool { return r.IsNull() || string(r) == `""` }
