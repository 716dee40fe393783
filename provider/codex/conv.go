package codex

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/agt-project/agt"
)

// conv is the state the parsers share: the stream, model and token counter
// in effect, and the tool calls seen.
type conv struct {
	legacy bool // response items carry the text (no event_msg stream)
	live   bool // end events are the results (≤0.41 exec output has no outputs)
	stream string
	model  string
	ts     string
	thread string // the thread whose token counter is in effect
	totals totals
	ids    ids // native call ids seen, per session
	calls  map[string]*callState
	ends   []*callState            // calls whose end event waits for an output
	web    map[string][]*callState // web searches by query, waiting for their other half
	// held are MCP function calls (rollouts) waiting for the
	// mcp_tool_call_begin or _end that names their server and tool (the
	// function name is sanitised: mcp__<server>__<tool> with every other
	// character made "_")
	held    []heldCall
	holdMCP bool // hold MCP function calls (rollouts, which log the invocation)
	// twins counts, by role, the event_msg messages whose response_item
	// twin has not come yet; heldMsg is a response_item message waiting
	// for its twin; typed are the texts of the turn's user_messages whose
	// response_item twin has not come yet, heldUser the user items waiting
	// for theirs, prompts whether the rollout has written a user_message
	// (see twins.go)
	twins    map[string]int
	heldMsg  *heldMessage
	typed    []string
	heldUser []*heldMessage
	prompts  bool
	// sess is the native session of the current line's events and key
	// the record key of its events that have no tool id (rollouts: the
	// thread the line belongs to, a key made of its content; "": the
	// emitter's session and the line)
	sess, key string
}

// mark is where events go: the session, stream and record key of a line,
// kept with what is emitted later at that line.
type mark struct{ sess, stream, key string }

func (c *conv) mark() mark { return mark{c.sess, c.stream, c.key} }

// at makes m the place of the events that follow and returns the one it
// replaces.
func (c *conv) at(m mark) mark {
	prev := c.mark()
	c.sess, c.stream, c.key = m.sess, m.stream, m.key
	return prev
}

// session is the native session of the current line's events.
func (c *conv) session(em *agt.Emitter) string {
	if c.sess != "" {
		return c.sess
	}
	return em.Current()
}

// heldCall is a function call not emitted yet, with its line.
type heldCall struct {
	mark
	src      agt.Src
	raw      agt.Raw
	ts       string
	id, name string
	in       agt.Raw
}

func newConv(legacy bool) *conv {
	return &conv{legacy: legacy, totals: totals{seed: true}, ids: ids{}, calls: map[string]*callState{}, web: map[string][]*callState{}, twins: map[string]int{}}
}

// callState is a tool call seen in the input.
type callState struct {
	id    string   // the tool id of its events
	event ref      // event id of the call
	done  bool     // its result was emitted
	sig   [16]byte // its name and input (see signature)
	end   *endInfo
}

// endInfo is what an end event (exec_command_end, patch_apply_end, …) tells
// about a call, kept to enrich its output or to stand in for it.
type endInfo struct {
	mark
	res agt.Result
	src agt.Src
	raw agt.Raw
	ts  string
}

// ids makes tool ids unique per session: a native call id seen again (a
// call id repeated by a copied history, an exec item id restarting at
// item_0 on resume) gets a "#n" suffix.
type ids map[string]map[string]int // by session

func (k ids) unique(session, id string) string {
	if id == "" {
		return ""
	}
	m := k[session]
	if m == nil { // strings read from a line share its memory: copies kept
		m = map[string]int{}
		k[strings.Clone(session)] = m
	}
	n := m[id]
	if n == 0 {
		id = strings.Clone(id)
	}
	m[id] = n + 1
	if n == 0 {
		return id
	}
	return id + "#" + strconv.Itoa(n+1)
}

// emit emits ev with the record's timestamp and the stream in effect. key
// is a tool id (unique in the session, see ids) or "" for the record's line.
func (c *conv) emit(em *agt.Emitter, ev agt.Event, key, suffix string) string {
	if ev.TS == "" {
		ev.TS = c.ts
	}
	if ev.Stream == "" {
		ev.Stream = c.stream
	}
	if ev.NativeSession == "" {
		ev.NativeSession = c.sess
	}
	if key == "" {
		key = c.key
	}
	return em.Emit(ev, key, suffix)
}

// meta emits a meta event.
func (c *conv) meta(em *agt.Emitter, m *agt.Meta) {
	c.emit(em, agt.Event{Kind: agt.KindMeta, Meta: m}, "", "meta")
}

// say emits a text event; an empty text is still an event of its kind.
func (c *conv) say(em *agt.Emitter, kind string, text agt.Raw, m *agt.Meta, suffix string) {
	ev := agt.Event{Kind: kind, Text: text, Meta: m}
	if kind == agt.KindAssistant || kind == agt.KindReasoning {
		ev.Model = c.model
	}
	c.emit(em, ev, "", suffix)
}

// call emits a tool call and remembers it under its native id. A native id
// seen before in the session (on a call, or on a result with no call) gets
// a "#n" suffix in the tool id, so that each call of a session has its own.
func (c *conv) call(em *agt.Emitter, id, name string, input agt.Raw) *callState {
	return c.callMCP(em, id, name, input, nil)
}

// callMCP is call for an MCP server's tool named by the log (nil: none).
func (c *conv) callMCP(em *agt.Emitter, id, name string, input agt.Raw, mcp *agt.MCP) *callState {
	if input == nil {
		input = emptyObject
	}
	tid := c.ids.unique(c.session(em), id)
	t := &agt.Tool{ID: tid, Name: name, NativeName: name, MCP: mcp, Input: input, NativeInput: input}
	st := &callState{id: tid, sig: signature(name, input)} // tid is unique's copy, kept beyond the line
	st.event = eventRef(c.emit(em, agt.Event{Kind: agt.KindToolCall, Model: c.model, Tool: t}, tid, "call"))
	if id != "" {
		key := tid // the same bytes as id the first time: one copy for both
		if tid != id {
			key = strings.Clone(id)
		}
		c.calls[key] = st
	}
	return st
}

// result emits the result of call id, linked to the latest call of that id.
func (c *conv) result(em *agt.Emitter, id string, r agt.Result) {
	c.resultOf(em, c.calls[id], id, r)
}

// resultOf emits the result of call st, or of native id when no call is
// known.
func (c *conv) resultOf(em *agt.Emitter, st *callState, id string, r agt.Result) {
	key := ""
	if st != nil {
		r.ID, r.Call = st.id, st.event.String()
		if !st.done {
			key = st.id // a call's second result is keyed by its line
		}
		if e := st.end; e != nil && !st.done {
			if r.ExitCode == nil {
				r.ExitCode = e.res.ExitCode
			}
			r.IsError = r.IsError || e.res.IsError
			if r.DurationMS == nil {
				r.DurationMS = e.res.DurationMS
			}
		}
		// done, the call needs its end no more: the end's line would pin
		// its read block for the rest of the session
		st.done, st.end = true, nil
	} else {
		r.ID = c.ids.unique(c.session(em), id)
		key = r.ID
	}
	if r.ExitCode != nil && *r.ExitCode != 0 {
		r.IsError = true
	}
	c.emit(em, agt.Event{Kind: agt.KindToolResult, Result: &r}, key, "result")
}

// end handles an event that closes call id: a meta event when the call has
// or will have its own output, otherwise the call and its result.
func (c *conv) end(em *agt.Emitter, m *agt.Meta, id, name string, input agt.Raw, r agt.Result) *callState {
	return c.endMCP(em, m, id, name, input, r, nil)
}

// endMCP is end for an MCP server's tool named by the log.
func (c *conv) endMCP(em *agt.Emitter, m *agt.Meta, id, name string, input agt.Raw, r agt.Result, mcp *agt.MCP) *callState {
	st := c.calls[id]
	if id != "" && st != nil && c.live && !st.done {
		c.resultOf(em, st, id, r)
		return st
	}
	if id != "" && st != nil {
		if !st.done && st.end == nil {
			c.endOf(em, st, r)
		}
		c.meta(em, m)
		return st
	}
	if id == "" { // an end that names no call: a call of its own, its id from its line
		id = lineID("end_", content(em.Line()))
	}
	st = c.callMCP(em, id, name, input, mcp)
	c.result(em, id, r)
	return st
}

// heldAt is the index of the held call with native id, or -1.
func (c *conv) heldAt(id string) int {
	for i := range c.held {
		if id != "" && c.held[i].id == id {
			return i
		}
	}
	return -1
}

// release emits held call i, at its own line, with the MCP tool mcp.
func (c *conv) release(em *agt.Emitter, i int, mcp *agt.MCP) {
	h := c.held[i]
	c.held = append(c.held[:i], c.held[i+1:]...)
	src, line, ts, m := em.Src(), em.Line(), c.ts, c.at(h.mark)
	em.SetSrc(h.src, h.raw)
	c.ts = h.ts
	c.callMCP(em, h.id, h.name, h.in, mcp)
	em.SetSrc(src, line)
	c.ts = ts
	c.at(m)
}

// releaseAll emits the held calls, in order, without an MCP tool.
func (c *conv) releaseAll(em *agt.Emitter) {
	for len(c.held) > 0 {
		c.release(em, 0, nil)
	}
}

// endOf keeps what an end event tells of call st, which has no result
// yet: its result may come later, or never (finish).
func (c *conv) endOf(em *agt.Emitter, st *callState, r agt.Result) {
	// copies: an end may wait for the session's end (a web search's), and
	// the line's bytes would pin its whole read block until then
	r.ID, r.Call, r.Output = strings.Clone(r.ID), strings.Clone(r.Call), bytes.Clone(r.Output)
	st.end = &endInfo{mark: c.mark(), res: r, src: em.Src(), raw: bytes.Clone(em.Line()), ts: strings.Clone(c.ts)}
	if len(c.ends) == cap(c.ends) { // calls given their result since need no end
		c.ends = slices.DeleteFunc(c.ends, func(st *callState) bool { return st.done })
	}
	c.ends = append(c.ends, st)
}

// finish emits the results that only an end event reported, at the end
// event's line.
func (c *conv) finish(em *agt.Emitter) {
	c.releaseAll(em)
	for _, st := range c.ends {
		if st.done {
			continue
		}
		e := st.end
		em.SetSrc(e.src, e.raw)
		c.ts = e.ts
		c.at(e.mark)
		c.resultOf(em, st, st.id, e.res)
	}
	c.ends = nil
}

// ref is an event id kept for later events (a call's, for its result): a
// UUID in 16 bytes rather than its 36-character text, which a session of
// hundreds of thousands of calls would hold as many strings.
type ref struct {
	u    uuid.UUID
	text string // an id that is no UUID, kept as it is
}

func eventRef(id string) ref {
	if u, err := uuid.Parse(id); err == nil && len(id) == 36 && u.String() == id {
		return ref{u: u}
	}
	return ref{text: id}
}

// String is the event id.
func (r ref) String() string {
	if r.text != "" || r.u == uuid.Nil {
		return r.text
	}
	return r.u.String()
}
