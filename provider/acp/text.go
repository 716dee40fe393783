package acp

import (
	"bytes"

	"github.com/agt-project/agt"
)

// textKind is what a message update becomes.
type textKind struct {
	kind  string // event kind
	whole bool   // a whole message (schema v2), not a chunk
}

// textKinds are the message updates, by sessionUpdate.
var textKinds = map[string]textKind{
	"user_message_chunk":       {kind: agt.KindUser},
	"agent_message_chunk":      {kind: agt.KindAssistant},
	"agent_thought_chunk":      {kind: agt.KindReasoning},
	"compaction_summary_chunk": {kind: agt.KindSummary},
	"user_message":             {kind: agt.KindUser, whole: true},
	"agent_message":            {kind: agt.KindAssistant, whole: true},
	"agent_thought":            {kind: agt.KindReasoning, whole: true},
}

// run is a run of consecutive chunks of one kind (and one messageId, when
// the agent gives one) in one session: one message. Its text event is
// emitted when the run ends, with the src of its last chunk line; each
// earlier chunk line yields a meta event of subtype <the chunk kind>.
type run struct {
	session   string
	native    string // sessionUpdate of its chunks
	kind      string
	messageID string
	parts     []agt.Raw // the chunks' texts, JSON string literals
	src       agt.Src   // its last line
	raw       agt.Raw
}

// text handles a message update. It reports whether the line's event is
// held back in the run.
func (p *parser) text(em *agt.Emitter, sid string, u *update, tk textKind) bool {
	p.flushCalls(em)
	var chunk agt.Raw
	single := !tk.whole && len(u.blocks) == 1 && u.blocks[0].Type == "text"
	if single {
		chunk = u.blocks[0].Text
		if len(chunk) == 0 || chunk[0] != '"' {
			chunk = agt.String(chunk.Str())
		}
	}
	if p.run != nil && (!single || p.run.session != sid || p.run.native != u.Kind || p.run.messageID != u.MessageID) {
		p.endRun(em)
	}
	if single && p.run == nil && tk.kind == agt.KindAssistant {
		if q := p.agent.quirk(chunk.Str()); q != nil {
			em.Session(sid)
			p.quirk(em, sid, u, q, chunk)
			return false
		}
	}
	if single {
		if p.run == nil {
			p.run = &run{session: sid, native: u.Kind, kind: tk.kind, messageID: u.MessageID}
		} else {
			p.emitAt(em, p.run.src, p.run.raw, agt.Event{Kind: agt.KindMeta, NativeSession: sid,
				Meta: &agt.Meta{Type: "session/update", Subtype: u.Kind}}, "", "chunk")
		}
		em.Session(sid)
		p.run.parts = append(p.run.parts, chunk)
		p.run.src, p.run.raw = p.src, p.raw
		return true
	}
	// a whole message, or a chunk that is not text
	em.Session(sid)
	text, others := splitBlocks(u.blocks, "")
	if len(text) > 0 {
		p.emit(em, agt.Event{Kind: tk.kind, NativeSession: sid, Text: text}, p.messageKey(sid, u.MessageID), tk.kind)
	}
	if len(others) > 0 || len(text) == 0 {
		m := &agt.Meta{Type: "session/update", Subtype: u.Kind}
		if len(others) > 0 {
			m.Data = agt.Marshal(others)
		}
		p.meta(em, sid, m)
	}
	return false
}

// endRun emits the text event of the current run.
func (p *parser) endRun(em *agt.Emitter) {
	r := p.run
	if r == nil {
		return
	}
	p.run = nil
	text := joinStrings(r.parts, "")
	if len(text) == 0 {
		p.emitAt(em, r.src, r.raw, agt.Event{Kind: agt.KindMeta, NativeSession: r.session,
			Meta: &agt.Meta{Type: "session/update", Subtype: r.native}}, "", "chunk")
		return
	}
	p.emitAt(em, r.src, r.raw, agt.Event{Kind: r.kind, NativeSession: r.session, Text: text},
		p.messageKey(r.session, r.messageID), r.kind)
}

// messageKey is the event key of a message: its messageId (made unique when
// a message is cut in several runs), or "" for the line.
func (p *parser) messageKey(sid, id string) string {
	if id == "" {
		return ""
	}
	return p.unique("message", sid, id)
}

// quirk emits a chunk the agent sends as text but is not the model's.
func (p *parser) quirk(em *agt.Emitter, sid string, u *update, q *quirk, chunk agt.Raw) {
	switch q.kind {
	case "mode":
		mode := chunk.Str()[len(q.prefix):]
		p.meta(em, sid, &agt.Meta{Type: "session/update", Subtype: "current_mode_update", Data: agt.Marshal(struct {
			CurrentModeID string `json:"currentModeId"`
			From          string `json:"from"`
		}{mode, u.Kind})})
	default:
		p.emit(em, agt.Event{Kind: q.kind, NativeSession: sid, Text: chunk,
			Meta: &agt.Meta{Type: "session/update", Subtype: u.Kind}}, "", "system")
	}
}

// attachment is a content block that is not text, as kept in meta data.
type attachment struct {
	Type     string `json:"type"`
	MimeType string `json:"mimeType,omitempty"`
	URI      string `json:"uri,omitempty"`
	Name     string `json:"name,omitempty"`
}

// splitBlocks joins the text blocks with sep and lists the other blocks.
func splitBlocks(bs []block, sep string) (agt.Raw, []attachment) {
	var texts []agt.Raw
	var others []attachment
	for _, b := range bs {
		if b.Type == "text" {
			texts = append(texts, b.Text)
			continue
		}
		a := attachment{Type: b.Type, MimeType: b.MimeType, URI: b.URI, Name: b.Name}
		if b.Resource != nil {
			a.URI, a.MimeType = b.Resource.URI, b.Resource.MimeType
		}
		others = append(others, a)
	}
	return joinStrings(texts, sep), others
}

// joinStrings concatenates JSON string literals without unescaping them
// (the escapes of a JSON string are self-contained), skipping empty ones;
// nil when the result is empty.
func joinStrings(parts []agt.Raw, sep string) agt.Raw {
	var esc []byte
	if sep != "" {
		s := agt.String(sep)
		esc = s[1 : len(s)-1]
	}
	b := []byte{'"'}
	n := 0
	for _, s := range parts {
		if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
			s = agt.String(s.Str())
		}
		if len(s) <= 2 {
			continue
		}
		if n > 0 {
			b = append(b, esc...)
		}
		b = append(b, s[1:len(s)-1]...)
		n++
	}
	if n == 0 {
		return nil
	}
	return append(b, '"')
}

// isEmptyObject reports an object with no members: Claude's placeholder
// rawInput.
func isEmptyObject(r agt.Raw) bool {
	t := bytes.TrimSpace(r)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' {
		return false
	}
	return len(bytes.TrimSpace(t[1:len(t)-1])) == 0
}
