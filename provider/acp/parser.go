package acp

import (
	"strconv"

	"github.com/agt-project/agt"
)

// parser reads one ACP capture.
type parser struct {
	opts  agt.Options
	agent *agent

	pending  map[string]*request // requests waiting for their response, by direction and id
	requests int                 // requests seen, to prefer the latest on an ambiguous id

	calls    map[string]*call // tool calls by session and toolCallId
	deferred []*call          // calls whose tool_call event waits for its input
	reused   map[string]int   // toolCallIds and messageIds seen, to keep event ids unique

	run *run // the message chunks being joined

	costs     map[string]*costs // by session
	costOrder []string

	// the current line
	src agt.Src
	raw agt.Raw
	hit bool // an event of the current line was emitted
}

// request is a request waiting for its response.
type request struct {
	method  string
	session string
	seq     int
}

func newParser(opts agt.Options) *parser {
	return &parser{
		opts:    opts,
		agent:   unknownAgent,
		pending: map[string]*request{},
		calls:   map[string]*call{},
		reused:  map[string]int{},
		costs:   map[string]*costs{},
	}
}

// emit emits ev and notes whether the current line now has an event.
func (p *parser) emit(em *agt.Emitter, ev agt.Event, key, suffix string) string {
	if em.Src() == p.src {
		p.hit = true
	}
	return em.Emit(ev, key, suffix)
}

// emitAt emits ev as an event of an earlier line.
func (p *parser) emitAt(em *agt.Emitter, src agt.Src, raw agt.Raw, ev agt.Event, key, suffix string) string {
	em.SetSrc(src, raw)
	id := p.emit(em, ev, key, suffix)
	em.SetSrc(p.src, p.raw)
	return id
}

// meta emits a meta event for the current line.
func (p *parser) meta(em *agt.Emitter, session string, m *agt.Meta) {
	p.emit(em, agt.Event{Kind: agt.KindMeta, NativeSession: session, Meta: m}, "", "meta")
}

// unique returns id the first time, then id#2, id#3…, so that a reused
// native id does not make two events with one id.
func (p *parser) unique(space, session, id string) string {
	k := space + "\x00" + session + "\x00" + id
	n := p.reused[k] + 1
	p.reused[k] = n
	if n == 1 {
		return id
	}
	return id + "#" + strconv.Itoa(n)
}

// Apply emits the events of one line.
func (p *parser) Apply(em *agt.Emitter, v any) {
	r, _ := v.(*record)
	if r == nil {
		return
	}
	p.src, p.raw, p.hit = em.Src(), em.Line(), false
	held := false
	switch r.kind {
	case msgRequest, msgNotification:
		held = p.request(em, r)
	case msgResponse:
		p.response(em, r)
	default:
		p.endRun(em)
		p.flushCalls(em)
		em.Unknown("", "", "not a JSON-RPC message")
		p.hit = true
	}
	if !held && !p.hit {
		p.meta(em, "", &agt.Meta{Type: r.method})
	}
}

// Finish emits what the end of the capture completes: the last message,
// calls still waiting for their input, costs no prompt response took.
func (p *parser) Finish(em *agt.Emitter) {
	p.src, p.raw = em.Src(), em.Line()
	p.endRun(em)
	p.flushCalls(em)
	for _, sid := range p.costOrder {
		c := p.costs[sid]
		if d := c.take(); d != nil {
			u := &agt.Usage{Scope: agt.ScopeRun, NativeCostUSD: d, ContextWindow: c.size}
			p.emitAt(em, c.src, c.raw, agt.Event{Kind: agt.KindUsage, NativeSession: sid, Usage: u}, "", "cost")
		}
	}
}

// cost returns the cost tracker of a session.
func (p *parser) cost(sid string) *costs {
	c := p.costs[sid]
	if c == nil {
		c = &costs{}
		p.costs[sid] = c
		p.costOrder = append(p.costOrder, sid)
	}
	return c
}

// requestDir is the direction of a request: the capture's, or the one its
// method implies.
func requestDir(r *record) int {
	if r.dir != dirUnknown {
		return r.dir
	}
	return methods[r.method].dir
}

func pendingKey(dir int, id string) string { return strconv.Itoa(dir) + ":" + id }

// request handles a request or notification.
func (p *parser) request(em *agt.Emitter, r *record) bool {
	pr := r.params
	if pr == nil {
		pr = &params{}
	}
	if r.method == "session/update" && pr.Update != nil {
		return p.update(em, pr.SessionID, pr.Update)
	}
	p.endRun(em)
	if r.method != "session/request_permission" {
		p.flushCalls(em)
	}
	sid := pr.SessionID
	em.Session(sid)
	if r.kind == msgRequest {
		p.requests++
		p.pending[pendingKey(requestDir(r), r.id)] = &request{method: r.method, session: sid, seq: p.requests}
	}
	m, known := methods[r.method]
	if !known && !isExtension(r.method) {
		em.Unknown(sid, "", r.method)
		p.hit = true
		return false
	}
	if m.request != nil {
		m.request(p, em, r, pr)
	}
	sub := "request"
	if r.kind == msgNotification {
		sub = "notification"
	}
	if !p.hit || m.alwaysMeta {
		p.meta(em, sid, &agt.Meta{Type: r.method, Subtype: sub, Cwd: pr.Cwd, Data: requestData(pr)})
	}
	return false
}

// response handles a response: the meta event of its request's method, and
// what the result carries (the agent's name, the session, usage).
func (p *parser) response(em *agt.Emitter, r *record) {
	p.endRun(em)
	p.flushCalls(em)
	q := p.match(r)
	method, sid := "", ""
	if q != nil {
		method, sid = q.method, q.session
	} else if r.result != nil {
		method = inferMethod(r.result)
	}
	if r.result != nil && r.result.SessionID != "" {
		sid = r.result.SessionID
	}
	em.Session(sid)
	if sid == "" {
		sid = em.Current()
	}
	m := &agt.Meta{Type: method, Subtype: "result"}
	if method == "" {
		m.Type = "response"
	}
	switch {
	case r.err != nil:
		m.Subtype = "error"
		m.Data = agt.Marshal(r.err)
	case r.result != nil:
		if h := methods[method].result; h != nil {
			h(p, em, r.result, sid, m)
		}
		if m.Data == nil {
			m.Data = resultData(r.result)
		}
	}
	m.Outcome = promptOutcome(method, r)
	p.meta(em, sid, m)
}

// match finds the request a response answers: by id, in the direction
// opposite to the response's when the capture says it, else the latest
// request with that id.
func (p *parser) match(r *record) *request {
	dirs := []int{dirToAgent, dirToClient, dirUnknown}
	switch r.dir {
	case dirToClient:
		dirs = []int{dirToAgent, dirUnknown}
	case dirToAgent:
		dirs = []int{dirToClient, dirUnknown}
	}
	var best *request
	var bestKey string
	for _, d := range dirs {
		k := pendingKey(d, r.id)
		if q := p.pending[k]; q != nil && (best == nil || q.seq > best.seq) {
			best, bestKey = q, k
		}
	}
	if best != nil {
		delete(p.pending, bestKey)
	}
	return best
}

// inferences name the method of a response whose request is not in the
// capture (an agent-side capture holds no client requests), from the shape
// of its result; first match wins.
var inferences = []struct {
	method string
	test   func(*result) bool
}{
	{"initialize", func(r *result) bool { return r.AgentInfo != nil || len(r.AgentCapabilities) > 0 }},
	{"session/prompt", func(r *result) bool { return r.StopReason != "" }},
	{"session/new", func(r *result) bool { return r.SessionID != "" }},
	{"session/request_permission", func(r *result) bool { return r.Outcome != nil }},
}

func inferMethod(r *result) string {
	for _, in := range inferences {
		if in.test(r) {
			return in.method
		}
	}
	return ""
}
