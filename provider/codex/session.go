package codex

import (
	"bytes"
	"sort"
	"strings"
	"sync"

	"github.com/agt-project/agt"
)

// rolloutParser reads current rollouts (codex-rollout).
type rolloutParser struct {
	*conv
	usage   bool        // for a usage report (agt.Options.Usage): see skim
	secs    sections    // the file's thread (its first session_meta's id), then copied ones
	keys    contentKeys // record keys
	metaSub string      // the subtype of the current session_meta line
	// heads are the events of the session_meta lines that open the file,
	// each of another thread (a fork's own, then the heads of its copies),
	// emitted innermost first when the next line comes (see heads)
	heads    []heldHead
	inHeads  bool // only such lines read so far
	headSeen bool
	scratch  rolloutLine // a skimmed line, as Apply reads it (see line)
}

// heldHead is the meta event of a session_meta line, not emitted yet.
type heldHead struct {
	mark
	m   *agt.Meta
	src agt.Src
	raw agt.Raw
	ts  string
}

func (p *rolloutParser) Decode(rec []byte) (any, error) {
	if p.usage {
		if r, ok, err := skim(rec); ok {
			if r == nil {
				return nil, err // not a nil *skimLine: no value
			}
			return r, err
		}
	}
	r := lines.Get().(*rolloutLine)
	*r = rolloutLine{}
	err := agt.DecodeExact(rec, r)
	if err != nil {
		if !agt.IsFieldError(err) {
			lines.Put(r)
			return nil, err
		}
	}
	if r.Type == "response_item" && r.Payload.Type == "" && r.Payload.Role != "" {
		r.Payload.Type = "message" // a message item written without its tag
	}
	if r.Type == "response_item" || r.Type == "event_msg" {
		if e := r.Payload.prepare(rec, "payload"); err == nil {
			err = e
		}
	}
	r.sum, r.summed, r.spawn = contentSum(rec), true, spawned(r, rec)
	return r, err
}

// lines are decoded rollout lines Apply is done with, for Decode to fill
// again: a line is 1.2 KB, as many bytes allocated as the log has, and
// Apply keeps nothing of it (see line).
var lines = sync.Pool{New: func() any { return new(rolloutLine) }}

// recycle hands a line Apply is done with back to lines (a test scribbles
// over it first).
var recycle = func(r *rolloutLine) { lines.Put(r) }

// lineHandler emits the events of one rollout line.
type lineHandler func(p *rolloutParser, em *agt.Emitter, r *rolloutLine)

// rolloutTypes maps the envelope types of a rollout to their handlers.
var rolloutTypes = map[string]lineHandler{
	"session_meta":                       (*rolloutParser).sessionMeta,
	"turn_context":                       (*rolloutParser).turnContext,
	"response_item":                      dispatch("response_item", responseItems),
	"event_msg":                          dispatch("event_msg", eventMsgs),
	"compacted":                          (*rolloutParser).compacted,
	"world_state":                        lineMeta,
	"inter_agent_communication_metadata": lineMeta,
}

func (p *rolloutParser) Apply(em *agt.Emitter, v any) {
	r, ok := v.(*rolloutLine)
	if ok {
		defer recycle(r)
	} else {
		r = p.line(v.(*skimLine))
	}
	if len(p.held) > 0 {
		p.releaseHeld(em, r)
	}
	if !r.skim {
		p.noteTwin(em, r)
	}
	if p.inHeads && !p.opens(r) {
		p.releaseHeads(em)
	}
	p.ts = normTS(r.Timestamp)
	p.place(em, r)
	h := rolloutTypes[r.Type]
	if h == nil {
		em.Unknown(p.sess, p.stream, r.Type)
		return
	}
	if r.skim {
		p.skimmed(em, r)
		return
	}
	h(p, em, r)
}

func (p *rolloutParser) Finish(em *agt.Emitter) {
	p.releaseHeads(em)
	p.releaseHeldMessage(em)
	p.finish(em)
}

// releaseHeld emits the held MCP calls that line r decides: the one whose
// mcp_tool_call_begin or _end it is, with the invocation's server and
// tool; all of them when it is anything else but another MCP function
// call (then no begin follows).
func (p *rolloutParser) releaseHeld(em *agt.Emitter, r *rolloutLine) {
	it := &r.Payload
	switch {
	case r.Type == "event_msg" && (it.Type == "mcp_tool_call_begin" || it.Type == "mcp_tool_call_end") && p.heldAt(it.CallID) >= 0:
		p.release(em, p.heldAt(it.CallID), it.mcp)
	case r.Type == "response_item" && it.Type == "function_call" && strings.HasPrefix(it.Namespace+it.Name, "mcp__"):
	default:
		p.releaseAll(em)
	}
}

// dispatch handles a line by its payload type.
func dispatch(what string, table map[string]itemHandler) lineHandler {
	return func(p *rolloutParser, em *agt.Emitter, r *rolloutLine) {
		h := table[r.Payload.Type]
		if h == nil {
			em.Unknown(p.sess, p.stream, what+"/"+r.Payload.Type)
			return
		}
		h(p.conv, em, &r.Payload)
	}
}

func lineMeta(p *rolloutParser, em *agt.Emitter, r *rolloutLine) {
	p.meta(em, &agt.Meta{Type: r.Type})
}

func (p *rolloutParser) turnContext(em *agt.Emitter, r *rolloutLine) {
	model := r.Payload.Model
	if model == "" && len(r.Payload.Metadata) > 0 && r.Payload.Metadata[0] == '{' {
		var m struct {
			Model string `json:"model"`
		}
		em.Field("metadata", agt.Raw(r.Payload.Metadata), &m)
		model = m.Model
	}
	if model != "" {
		p.model = model
	}
	p.emit(em, agt.Event{Kind: agt.KindMeta, Model: model, Meta: &agt.Meta{Type: r.Type, Cwd: r.Payload.Cwd}}, "", "meta")
}

func (p *rolloutParser) compacted(em *agt.Emitter, r *rolloutLine) {
	if t := text(agt.Raw(r.Payload.Message)); t != nil {
		p.say(em, agt.KindSummary, t, &agt.Meta{Type: r.Type}, "summary")
		return
	}
	// no summary text: the compaction is still visible in the conversation
	p.say(em, agt.KindSystem, agt.String("conversation compacted"), &agt.Meta{Type: r.Type}, "system")
}

// place finds the thread line r belongs to (see fork.go) and makes it
// the session, stream and token counter of its events, keyed by the
// line's content.
func (p *rolloutParser) place(em *agt.Emitter, r *rolloutLine) {
	ms := unixMS(p.ts)
	if r.Type == "session_meta" {
		p.metaSub = p.secs.meta(em, &r.Payload, ms)
	} else {
		turn := r.Payload.TurnID
		if r.skim && p.secs.copying() {
			turn = turnOf(em.Line())
		}
		p.secs.line(ms, v7ms(turn))
		if p.secs.copying() && (r.spawn || r.skim && spawned(r, em.Line())) {
			p.secs.stack = p.secs.stack[:len(p.secs.stack)-1]
		}
	}
	if len(p.secs.stack) > 0 {
		top := p.secs.top()
		p.sess, p.stream, p.thread = top.thread, top.stream, top.thread
	}
	p.key = ""
	if r.summed {
		p.key = p.keys.key(p.sess, r.sum, em.Src().Line)
	}
}

// meta places a session_meta line: the first that names a thread starts
// the file's; one of a thread in effect is a resume of it (the copies
// inside it end); another thread's heads a history copied from it. It
// returns the line's subtype: "", "resumed" or "copied".
func (s *sections) meta(em *agt.Emitter, it *item, ms int64) string {
	id := firstOf(it.ID, it.SessionID)
	if ms > 0 {
		s.lastMS = ms
	}
	if id == "" {
		return ""
	}
	if i := s.index(id); i >= 0 {
		s.stack = s.stack[:i+1]
		return "resumed"
	}
	created := v7ms(id)
	if created == 0 {
		created = unixMS(normTS(it.Timestamp))
	}
	if len(s.stack) > maxCopies {
		s.stack = s.stack[:maxCopies]
	}
	s.stack = append(s.stack, section{thread: strings.Clone(id), stream: readSource(nil, agt.Raw(it.Source)).stream, created: created})
	if len(s.stack) == 1 {
		em.Session(id)
		return ""
	}
	return "copied"
}

// sessionMeta emits a session_meta line: the thread's start, a resume, or
// the head of a copied history (placed by meta).
func (p *rolloutParser) sessionMeta(em *agt.Emitter, r *rolloutLine) {
	it := &r.Payload
	src := readSource(em, agt.Raw(it.Source))
	m := &agt.Meta{Type: r.Type, Subtype: p.metaSub, Cwd: it.Cwd, Version: it.CLIVersion, Agent: firstOf(it.AgentNickname, it.AgentRole, src.agent), ParentSession: firstOf(it.ParentThreadID, it.ForkedFromID, src.parent)}
	if it.Git != nil {
		m.GitBranch = it.Git.Branch
	}
	m.Data = object("id", firstOf(it.ID, it.SessionID), "originator", it.Originator, "source", it.Source, "forked_from_id", it.ForkedFromID, "model_provider", it.ModelProvider)
	if !p.headSeen && p.metaSub == "" && len(p.secs.stack) == 1 {
		p.headSeen, p.inHeads = true, true
	}
	if p.inHeads && len(p.heads) >= maxCopies {
		p.releaseHeads(em)
	}
	if p.inHeads {
		// kept beyond the line, whose memory its strings share
		c := *m
		c.Cwd, c.Version, c.Agent, c.ParentSession, c.GitBranch = strings.Clone(c.Cwd), strings.Clone(c.Version), strings.Clone(c.Agent), strings.Clone(c.ParentSession), strings.Clone(c.GitBranch)
		c.Data = bytes.Clone(c.Data)
		p.heads = append(p.heads, heldHead{mark: p.mark(), m: &c, src: em.Src(), raw: bytes.Clone(em.Line()), ts: strings.Clone(p.ts)})
		return
	}
	p.meta(em, m)
}

// opens reports a session_meta line that heads another thread's history,
// as the lines that open a fork do.
func (p *rolloutParser) opens(r *rolloutLine) bool {
	id := firstOf(r.Payload.ID, r.Payload.SessionID)
	return r.Type == "session_meta" && id != "" && p.secs.index(id) < 0
}

// releaseHeads emits the meta events of the session_meta lines that open
// the file, innermost first: a fork's first event is then its parent's
// (the root thread's when the fork was copied from a fork), so that a
// transcript of the parent read before it is still open when it comes,
// as Identify tells the grouping. A file of one thread is not changed.
func (p *rolloutParser) releaseHeads(em *agt.Emitter) {
	p.inHeads = false
	for i := len(p.heads) - 1; i >= 0; i-- {
		h := p.heads[i]
		p.atLine(em, h.src, h.raw, h.ts, h.mark, func() { p.meta(em, h.m) })
	}
	p.heads = nil
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// source is what session_meta.payload.source says of a thread.
type source struct {
	stream string // main or subagent:<name>
	agent  string
	parent string
}

// readSource reads "cli" | "vscode" | "exec" | … (main) or {"subagent":
// "review" | "compact" | {"thread_spawn": {…}} | {"other": "…"}}. A
// member of the wrong type is reported on em (nil: already reported, the
// line's source read again).
func readSource(em *agt.Emitter, raw agt.Raw) source {
	if len(raw) == 0 || raw[0] != '{' {
		return source{stream: agt.StreamMain}
	}
	var v struct {
		Subagent agt.Raw `json:"subagent"`
	}
	if agt.API.Unmarshal(raw, &v) != nil || v.Subagent.IsNull() {
		return source{stream: agt.StreamMain}
	}
	if name := str(v.Subagent); name != "" || v.Subagent[0] != '{' {
		return source{stream: "subagent:" + firstOf(name, "subagent")}
	}
	var kinds map[string]agt.Raw
	_ = agt.API.Unmarshal(v.Subagent, &kinds) // an object: never fails
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return source{stream: "subagent:subagent"}
	}
	kind, body := names[0], kinds[names[0]]
	if name := str(body); name != "" {
		return source{stream: "subagent:" + name}
	}
	var spawn struct {
		ParentThreadID string `json:"parent_thread_id"`
		AgentNickname  string `json:"agent_nickname"`
		AgentRole      string `json:"agent_role"`
		AgentPath      string `json:"agent_path"`
	}
	if em != nil {
		em.Field(kind, body, &spawn)
	} else {
		_ = agt.DecodeValue(kind, body, &spawn)
	}
	agent := firstOf(spawn.AgentNickname, spawn.AgentRole, spawn.AgentPath)
	return source{stream: "subagent:" + firstOf(agent, kind), agent: agent, parent: spawn.ParentThreadID}
}
