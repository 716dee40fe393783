package opencode

import (
	"bytes"

	"github.com/agt-project/agt"
)

// exportParser reads `opencode export` documents, and the documents
// WalkStorage and WalkDB make of stored sessions.
type exportParser struct {
	state
}

// rec is one record of a document.
type rec struct {
	ptr string
	raw []byte
	err error
}

type sessionRec struct {
	rec
	v *sessionInfo
}

type messageRec struct {
	rec
	v *message
}

type partRec struct {
	rec
	v *part
}

type docMessage struct {
	info  *messageRec
	parts []partRec
}

// doc is a decoded export document.
type doc struct {
	info     *sessionRec
	messages []docMessage
	srcs     map[string]srcEntry
	srcErr   error
	broken   *breakAt
}

// decodeRec decodes the record at sp into v; ok is false when nothing could
// be read.
func decodeRec(sp span, v any) (r rec, ok bool) {
	r = rec{ptr: sp.ptr, raw: sp.b, err: agt.Decode(sp.b, v)}
	return r, r.err == nil || agt.IsFieldError(r.err)
}

// Decode cuts the document into records and decodes each.
func (*exportParser) Decode(b []byte) (any, error) {
	f := scanDoc(b)
	d := &doc{broken: f.broken}
	if f.src != nil {
		if err := agt.API.Unmarshal(f.src, &d.srcs); err != nil {
			d.srcErr = err
		}
	}
	if f.info != nil {
		var v sessionInfo
		r, ok := decodeRec(*f.info, &v)
		d.info = &sessionRec{rec: r}
		if ok {
			d.info.v = &v
		}
	}
	for _, fm := range f.messages {
		var m docMessage
		if fm.info != nil {
			var v message
			r, ok := decodeRec(*fm.info, &v)
			m.info = &messageRec{rec: r}
			if ok {
				m.info.v = &v
			}
		}
		for _, sp := range fm.parts {
			var v part
			r, ok := decodeRec(sp, &v)
			pr := partRec{rec: r}
			if ok {
				pr.v = &v
			}
			m.parts = append(m.parts, pr)
		}
		d.messages = append(d.messages, m)
	}
	return d, nil
}

// Apply emits the events of the document's records in order: the session,
// then each message; an assistant message's usage comes after its parts.
func (p *exportParser) Apply(em *agt.Emitter, v any) {
	d := v.(*doc)
	base, baseRaw := em.Src(), em.Line()
	if d.srcErr != nil {
		em.Errorf("%s member: %v", srcKey, d.srcErr)
	}
	// srcOf is where r was read: its pointer in the input, or the file or
	// row a stored session's record came from.
	srcOf := func(r *rec) (agt.Src, srcEntry) {
		if e, ok := d.srcs[r.ptr]; ok {
			return agt.Src{Path: e.Path, Ptr: e.Ptr}, e
		}
		return agt.Src{Path: base.Path, Line: base.Line, Ptr: r.ptr}, srcEntry{}
	}
	// at makes r the current record; false when the record could not be read
	// (an error event then stands for it).
	at := func(r *rec) bool {
		src, e := srcOf(r)
		if e.Err != "" {
			em.SetSrc(src, agt.Raw(agt.Raw(r.raw).Str()))
			em.Errorf("%s", e.Err)
			return false
		}
		em.SetSrc(src, oneLine(r.raw))
		if r.err != nil {
			em.Errorf("%v", r.err)
		}
		return true
	}
	if s := d.session(); s != "" {
		em.Session(s)
	}
	records := 0
	if r := d.info; r != nil {
		records++
		if at(&r.rec) && r.v != nil {
			p.sessionEvents(em, r.v, p.key(em, r.v.ID, r.ptr))
		}
	}
	for i := range d.messages {
		m := &d.messages[i]
		var ctx msgCtx
		var info *message
		if m.info != nil {
			records++
			info = m.info.v
			if at(&m.info.rec) && info != nil {
				ctx = msgCtx{role: info.Role, model: info.ModelID, summary: bool(info.Summary) || info.Mode == "compaction", ts: info.Time.Created, end: info.Time.Completed}
			} else {
				info = nil
			}
		}
		ctx.stepUsage = m.info == nil || (info != nil && info.Role == "assistant" && info.Tokens == nil && info.Cost == nil)
		var infoKey string
		if info != nil {
			infoKey = p.key(em, info.ID, m.info.ptr)
			if info.Role != "assistant" {
				p.messageEvents(em, info, infoKey)
			}
		}
		for j := range m.parts {
			r := &m.parts[j]
			records++
			if at(&r.rec) && r.v != nil {
				emitPart(&partCtx{em: em, st: &p.state, msg: ctx, key: p.key(em, r.v.ID, r.ptr)}, r.v)
			}
		}
		if info != nil && info.Role == "assistant" {
			src, _ := srcOf(&m.info.rec)
			em.SetSrc(src, oneLine(m.info.raw))
			p.messageEvents(em, info, infoKey)
		}
	}
	switch b := d.broken; {
	case b != nil:
		em.SetSrc(agt.Src{Path: base.Path, Line: base.Line, Ptr: b.ptr}, agt.Raw(b.tail))
		em.Errorf("%s", b.why)
	case records == 0:
		em.SetSrc(base, baseRaw)
		em.Errorf("no OpenCode session in this document")
	}
}

// oneLine returns a record fit for an event's raw field: a record cut out of
// a pretty-printed document is compacted; one on a single line (the pipeline
// compacts the documents it reads) is kept as it is.
func oneLine(b []byte) agt.Raw {
	if bytes.ContainsAny(b, "\n\r") {
		return agt.Compact(b)
	}
	return b
}

// Finish has nothing held back.
func (*exportParser) Finish(*agt.Emitter) {}

// session is the document's session id: its info's, else its messages'.
func (d *doc) session() string {
	if d.info != nil && d.info.v != nil && d.info.v.ID != "" {
		return d.info.v.ID
	}
	for _, m := range d.messages {
		if m.info != nil && m.info.v != nil && m.info.v.SessionID != "" {
			return m.info.v.SessionID
		}
	}
	for _, m := range d.messages {
		for _, pt := range m.parts {
			if pt.v != nil && pt.v.SessionID != "" {
				return pt.v.SessionID
			}
		}
	}
	return ""
}

// sessionData is the payload of the session meta event.
type sessionData struct {
	Slug        string `json:"slug,omitempty"`
	ProjectID   string `json:"project_id,omitempty"`
	WorkspaceID string `json:"workspace_id,omitempty"`
	Provider    string `json:"provider,omitempty"`
}

func (*exportParser) sessionEvents(em *agt.Emitter, s *sessionInfo, key string) {
	m := &agt.Meta{
		Type: "session", Cwd: s.Directory, Version: s.Version, Title: s.Title,
		Agent: s.Agent, ParentSession: s.ParentID,
		Data: agt.Marshal(sessionData{Slug: s.Slug, ProjectID: s.ProjectID, WorkspaceID: s.WorkspaceID, Provider: s.Model.ProviderID}),
	}
	if s.ParentID != "" {
		m.Subtype = "subagent"
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: ts(s.Time.Created), Model: s.Model.ID, Meta: m}, key, "session")
}

// messageEvents emits what a message info says besides its parts: the usage
// and error of an assistant message, else a meta event.
func (*exportParser) messageEvents(em *agt.Emitter, m *message, key string) {
	model := m.ModelID
	if m.Role == "user" {
		model = m.Model.ModelID
	}
	when := ts(first(m.Time.Completed, m.Time.Created))
	emitted := false
	if m.Role == "assistant" && spent(m.Tokens, m.Cost) {
		t := m.Tokens
		if t == nil {
			t = &tokens{}
		}
		u := usage(t, m.Cost)
		u.MessageID = m.ID
		em.Emit(agt.Event{Kind: agt.KindUsage, TS: when, Model: model, Usage: u}, key, "usage")
		emitted = true
	}
	if !m.Error.IsNull() {
		em.Emit(errorEvent(em, m.Error, when, model), key, "error")
		emitted = true
	}
	if !emitted {
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: ts(m.Time.Created), Model: model, Meta: &agt.Meta{Type: "message", Subtype: m.Role, Agent: m.Agent, Cwd: m.Path.Cwd}}, key, "message")
	}
}

// errorEvent is a system event for an error OpenCode reports (an API error,
// an aborted message): the agent's error, not a fault of the input.
func errorEvent(em *agt.Emitter, raw agt.Raw, when, model string) agt.Event {
	var e apiError
	if len(raw) > 0 && raw[0] == '{' { // else a text
		em.Field("error", raw, &e)
	}
	text := e.Name
	if e.Data.Message != "" {
		if text != "" {
			text += ": "
		}
		text += e.Data.Message
	}
	if text == "" {
		text = raw.Str()
	}
	return agt.Event{Kind: agt.KindSystem, TS: when, Model: model, Text: agt.String(text), Meta: &agt.Meta{Type: "error", Subtype: e.Name, Data: compactValue(raw), Outcome: errorOutcome(e.Name, text)}}
}
