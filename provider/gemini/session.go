package gemini

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/docscan"
)

// sessionParser reads gemini-session: a session document (≤ 0.38) or the
// lines of a JSONL session log (≥ 0.39).
type sessionParser struct {
	opts   agt.Options
	native string // the session id, once known
	stream string // "" or subagent:<sessionId>
	msgs   map[string]*msgState
	calls  map[string]string // native session NUL call id → event id of the call
	usage  []*pendingUsage   // in order of first appearance
	byID   map[string]*pendingUsage
}

func newSessionParser(opts agt.Options) *sessionParser {
	return &sessionParser{
		opts:  opts,
		msgs:  map[string]*msgState{},
		calls: map[string]string{},
		byID:  map[string]*pendingUsage{},
	}
}

// msgState is what was emitted for a message id so far.
type msgState struct {
	versions int
	text     uint64 // hash of the text emitted last
	texts    int    // text events emitted
	command  bool   // slash_command emitted
	// context: a user message first met in a $set checkpoint, a turn the
	// CLI put into the model's history itself: a system event
	context  bool
	thoughts int // thoughts emitted
	calls    map[string]uint8
}

const (
	callEmitted uint8 = 1 << iota
	resultEmitted
)

// pendingUsage is the last known token count of a message id.
type pendingUsage struct {
	key, id, native string // key: the message id, or its record's line or pointer
	stream          string
	model, ts       string
	tok             tokens
	src             agt.Src
	raw             agt.Raw
	done            bool
}

// sessionValue is a decoded record: a JSONL line, or a whole document (rec
// holds its members other than messages).
type sessionValue struct {
	rec  *record
	doc  bool
	msgs []subRecord // the document's messages, or a $set checkpoint's
}

// subRecord is a message inside a record, addressed by JSON pointer.
type subRecord struct {
	ptr string
	raw []byte
	m   *record
	err error
}

// Decode reads a line of a session log, or a whole session document. A
// document that is not valid JSON (cut short) is read member by member.
func (p *sessionParser) Decode(rec []byte) (any, error) {
	t := bytes.TrimLeft(rec, " \t\r\n\ufeff")
	var r record
	err := agt.Decode(t, &r)
	if err != nil && !agt.IsFieldError(err) {
		if bytes.IndexByte(t, '\n') >= 0 { // a document: lines never hold one
			return decodeDocument(t)
		}
		return nil, err
	}
	v := &sessionValue{rec: &r}
	switch {
	case isArray(r.Messages):
		v.doc = true
		els, _ := elements(r.Messages)
		v.msgs = subRecords(els, "/messages")
	case r.Set != nil && isArray(r.Set.Messages):
		els, _ := elements(r.Set.Messages)
		v.msgs = subRecords(els, "/$set/messages")
	}
	return v, err
}

// decodeDocument reads a session document member by member, so that a
// document cut short still gives up its complete messages.
func decodeDocument(doc []byte) (any, error) {
	ms, ok := members(doc)
	if len(ms) == 0 {
		var r record
		if err := agt.Decode(doc, &r); err != nil {
			return nil, err
		}
		return nil, errors.New("not a JSON object")
	}
	head, msgs := object(ms, ok, "messages")
	var r record
	headErr := agt.Decode(head, &r)
	if headErr != nil && !agt.IsFieldError(headErr) {
		r = record{}
	}
	els, complete := elements(msgs)
	v := &sessionValue{rec: &r, doc: true, msgs: subRecords(els, "/messages")}
	switch {
	case !ok:
		return v, fmt.Errorf("document cut short: read %d complete messages", len(els))
	case msgs != nil && !complete:
		return v, fmt.Errorf("malformed messages array: read %d complete messages", len(els))
	}
	return v, headErr
}

func isArray(r agt.Raw) bool {
	r = bytes.TrimSpace(r)
	return len(r) > 0 && r[0] == '['
}

func subRecords(els [][]byte, base string) []subRecord {
	out := make([]subRecord, len(els))
	for i, el := range els {
		s := subRecord{ptr: docscan.Index(base, i), raw: el}
		var m record
		err := agt.Decode(el, &m)
		if err == nil || agt.IsFieldError(err) {
			s.m = &m
		}
		s.err = err
		out[i] = s
	}
	return out
}

// Apply emits the events of a record.
func (p *sessionParser) Apply(em *agt.Emitter, v any) {
	sv := v.(*sessionValue)
	r := sv.rec
	if sv.doc {
		p.document(em, sv)
		return
	}
	switch {
	case r.RewindTo != nil:
		// a rewind is visible in the conversation
		em.Emit(agt.Event{Kind: agt.KindSystem, Stream: p.stream, Text: agt.String("conversation rewound to message " + *r.RewindTo), Meta: &agt.Meta{
			Type: "$rewindTo", Data: agt.Marshal(map[string]string{"$rewindTo": *r.RewindTo}),
		}}, "", "rewind")
	case r.ID != "":
		p.message(em, r, false, false)
	case r.Set != nil:
		p.set(em, r.Set, sv.msgs)
	case r.SessionID != "" || r.ProjectHash != "":
		p.header(em, r)
	default:
		em.Unknown("", p.stream, "record")
	}
}

// Finish emits the usage of the messages of a session log, now final.
func (p *sessionParser) Finish(em *agt.Emitter) {
	for _, u := range p.usage {
		if !u.done {
			p.emitUsage(em, u)
		}
	}
}

// document emits a session document: its header, then each message, each
// message's usage after its last occurrence.
func (p *sessionParser) document(em *agt.Emitter, sv *sessionValue) {
	base := em.Src()
	p.header(em, sv.rec)
	last := map[string]int{}
	for i, s := range sv.msgs {
		if s.m != nil {
			last[s.m.ID] = i
		}
	}
	for i, s := range sv.msgs {
		var raw agt.Raw
		if p.opts.Raw || s.m == nil || s.err != nil || messageKinds[s.m.Type] == "" {
			raw = agt.Compact(s.raw)
		}
		em.SetSrc(agt.Src{Path: base.Path, Line: base.Line, Ptr: s.ptr}, raw)
		if s.err != nil {
			em.Errorf("%v", s.err)
		}
		if s.m != nil {
			p.message(em, s.m, last[s.m.ID] == i, false)
		}
	}
}

// header emits the session's metadata (a header line or a document's
// top-level members) and makes its session current.
func (p *sessionParser) header(em *agt.Emitter, r *record) {
	p.setSession(em, r.SessionID, r.Kind)
	data := agt.Marshal(struct {
		ProjectHash      string  `json:"projectHash,omitempty"`
		StartTime        string  `json:"startTime,omitempty"`
		LastUpdated      string  `json:"lastUpdated,omitempty"`
		Directories      agt.Raw `json:"directories,omitempty"`
		MemoryScratchpad agt.Raw `json:"memoryScratchpad,omitempty"`
	}{r.ProjectHash, r.StartTime, r.LastUpdated, compact(r.Directories), compact(r.MemoryScratchpad)})
	em.Emit(agt.Event{Kind: agt.KindMeta, Stream: p.stream, TS: ts(r.StartTime), Meta: &agt.Meta{
		Type: "session", Subtype: r.Kind, Title: r.Summary, Data: data,
	}}, "", "session")
}

func (p *sessionParser) setSession(em *agt.Emitter, id, kind string) {
	if id != "" {
		p.native = id
		em.Session(id)
	}
	if kind == "subagent" && p.native != "" {
		p.stream = "subagent:" + p.native
	} else if kind != "" {
		p.stream = ""
	}
}

// set emits a $set patch; the messages of a checkpoint yield what they add.
func (p *sessionParser) set(em *agt.Emitter, s *patch, msgs []subRecord) {
	p.setSession(em, s.SessionID, s.Kind)
	var ids *[]string
	subtype := ""
	if isArray(s.Messages) {
		subtype = "checkpoint"
		l := make([]string, 0, len(msgs))
		for _, m := range msgs {
			if m.m != nil {
				l = append(l, m.m.ID)
			}
		}
		ids = &l
	}
	data := agt.Marshal(struct {
		SessionID        string    `json:"sessionId,omitempty"`
		LastUpdated      string    `json:"lastUpdated,omitempty"`
		Kind             string    `json:"kind,omitempty"`
		Summary          string    `json:"summary,omitempty"`
		Directories      agt.Raw   `json:"directories,omitempty"`
		MemoryScratchpad agt.Raw   `json:"memoryScratchpad,omitempty"`
		Messages         *[]string `json:"messages,omitempty"`
	}{s.SessionID, s.LastUpdated, s.Kind, s.Summary, compact(s.Directories), compact(s.MemoryScratchpad), ids})
	em.Emit(agt.Event{Kind: agt.KindMeta, Stream: p.stream, TS: ts(s.LastUpdated), Meta: &agt.Meta{
		Type: "$set", Subtype: subtype, Title: s.Summary, Data: data,
	}}, "", "set")
	base := em.Src()
	line := em.Line()
	for _, m := range msgs {
		raw := agt.Raw(nil)
		if p.opts.Raw || m.m == nil || m.err != nil || messageKinds[m.m.Type] == "" {
			raw = agt.Raw(m.raw)
		}
		em.SetSrc(agt.Src{Path: base.Path, Line: base.Line, Ptr: m.ptr}, raw)
		if m.err != nil {
			em.Errorf("%v", m.err)
		}
		if m.m != nil {
			p.message(em, m.m, false, true)
		}
	}
	em.SetSrc(base, line)
}

func compact(r agt.Raw) agt.Raw {
	if r.IsNull() {
		return nil
	}
	return agt.Compact(r)
}

// message emits what a version of a message adds to the earlier ones.
// final: no later version exists (its usage is emitted now). quiet: a
// version that adds nothing yields no event (the checkpoint's meta event
// accounts for its line).
func (p *sessionParser) message(em *agt.Emitter, m *record, final, quiet bool) {
	kind := messageKinds[m.Type]
	key := m.ID
	if key == "" { // no id: the record's line or pointer
		key = em.Key()
	}
	st := p.msgs[key]
	if st == nil {
		st = &msgState{calls: map[string]uint8{}, context: quiet && kind == agt.KindUser}
		p.msgs[key] = st
	}
	st.versions++
	if kind == "" {
		em.Emit(agt.Event{Kind: agt.KindUnknown, Stream: p.stream, TS: ts(m.Timestamp), Meta: &agt.Meta{Type: m.Type}},
			key, "unknown:"+strconv.Itoa(st.versions))
		return
	}
	n := 0
	emit := func(ev agt.Event, suffix string) string {
		n++
		ev.Stream = p.stream
		if ev.TS == "" {
			ev.TS = ts(m.Timestamp)
		}
		if kind == agt.KindAssistant && ev.Kind != agt.KindToolResult {
			ev.MessageID = m.ID // the message_id of its usage
		}
		return em.Emit(ev, key, suffix)
	}
	model := ""
	if kind == agt.KindAssistant {
		model = m.Model
	}
	var meta *agt.Meta
	switch {
	case kind == agt.KindUser:
		if cmd := slashCommand(m.DisplayContent); cmd != nil && !st.command {
			emit(agt.Event{Kind: agt.KindSlashCommand, Text: cmd}, "command")
			st.command = true
		}
		if st.context || !typed(m.DisplayContent) {
			kind, meta = agt.KindSystem, &agt.Meta{Type: m.Type, Subtype: "context"}
		}
	case kind == agt.KindSystem:
		meta = &agt.Meta{Type: m.Type}
	}
	text, fnResp := contentText(m.Content)
	if meta != nil {
		meta.Outcome = outcome(messageOutcomes, m.Type, text)
	}
	for i := st.thoughts; i < len(m.Thoughts); i++ {
		th := m.Thoughts[i]
		if t := thoughtText(th); t != nil {
			emit(agt.Event{Kind: agt.KindReasoning, TS: ts(th.Timestamp), Text: t, Model: model}, "thought:"+strconv.Itoa(i))
		}
	}
	if len(m.Thoughts) > st.thoughts {
		st.thoughts = len(m.Thoughts)
	}
	if text != nil && hash(text) != st.text {
		suffix := "text"
		if st.texts > 0 {
			suffix = "text:" + strconv.Itoa(st.texts)
		}
		emit(agt.Event{Kind: kind, Text: text, Model: model, Meta: meta}, suffix)
		st.text = hash(text)
		st.texts++
	}
	for i := range m.ToolCalls {
		tc := &m.ToolCalls[i]
		id := tc.ID
		if id == "" {
			id = key + "#" + strconv.Itoa(i)
		}
		state := st.calls[id]
		if state&callEmitted == 0 {
			in := agt.ToolArgs(tc.Args)
			ev := agt.Event{Kind: agt.KindToolCall, Model: model, Tool: &agt.Tool{
				ID: id, Name: tc.Name, NativeName: tc.Name, Input: in, NativeInput: in,
			}}
			evID := emit(ev, "tool:"+id)
			if evID == "" { // no session known yet: bind the fallback one
				em.Done()
				evID = em.EventID("", key, "tool:"+id)
			}
			p.calls[p.native+"\x00"+id] = evID
			state |= callEmitted
		}
		status := callStatus[tc.Status]
		if state&resultEmitted == 0 && (status.done || !tc.Result.IsNull()) {
			out := toolOutput(tc)
			res := &agt.Result{ID: id, Call: p.calls[p.native+"\x00"+id], Output: out, IsError: status.failed, ExitCode: exitCode(tc.Name, out)}
			emit(agt.Event{Kind: agt.KindToolResult, TS: ts(tc.Timestamp), Result: res}, "result:"+id)
			state |= resultEmitted
		}
		st.calls[id] = state
	}
	if m.Tokens != nil {
		u := p.byID[key]
		if u == nil {
			u = &pendingUsage{key: key, id: m.ID}
			p.byID[key] = u
			p.usage = append(p.usage, u)
		}
		u.native, u.stream, u.model, u.ts, u.tok = p.native, p.stream, m.Model, ts(m.Timestamp), *m.Tokens
		u.src = em.Src()
		if p.opts.Raw {
			u.raw = em.Line()
		}
		if final {
			p.emitUsage(em, u)
			n++
		}
	}
	if n == 0 && !quiet {
		sub, suffix := "", "meta"
		if st.versions > 1 {
			sub, suffix = "update", "update:"+strconv.Itoa(st.versions)
		} else if fnResp {
			sub = "function_response"
		}
		em.Emit(agt.Event{Kind: agt.KindMeta, Stream: p.stream, TS: ts(m.Timestamp), Model: model,
			Meta: &agt.Meta{Type: m.Type, Subtype: sub}}, key, suffix)
	}
}

func (p *sessionParser) emitUsage(em *agt.Emitter, u *pendingUsage) {
	u.done = true
	us := u.tok.usage()
	us.MessageID = u.id
	em.SetSrc(u.src, u.raw)
	em.Emit(agt.Event{Kind: agt.KindUsage, NativeSession: u.native, Stream: u.stream, TS: u.ts, Model: u.model, Usage: us}, u.key, "usage")
}

func hash(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}
