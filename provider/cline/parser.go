package cline

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/docscan"
)

// parser reads the session files of cline-session, one document per input.
type parser struct {
	calls map[string]string // tool_use id → event id of the call
}

// value is a decoded session document.
type value struct {
	doc     document
	hasMsgs bool
	msgs    []element
}

// element is one message of the messages array, addressed by JSON pointer.
type element struct {
	ptr string
	raw []byte
	m   *message
	err error
}

// Decode reads a whole session document (or one written on a line). A
// document cut short still gives up the messages that end before the cut.
func (*parser) Decode(rec []byte) (any, error) {
	t := bytes.TrimLeft(rec, " \t\r\n\ufeff")
	head, els, hasMsgs, scanErr := split(t)
	v := &value{hasMsgs: hasMsgs, msgs: make([]element, len(els))}
	if scanErr != nil && !hasMsgs {
		return nil, fmt.Errorf("not a whole JSON document: %v", scanErr)
	}
	herr := agt.Decode(head, &v.doc)
	if herr != nil && !agt.IsFieldError(herr) {
		if !hasMsgs {
			return nil, herr
		}
		v.doc = document{}
	}
	for i, el := range els {
		e := element{ptr: docscan.Index("/messages", i), raw: el}
		var m message
		e.err = agt.Decode(el, &m)
		if e.err == nil || agt.IsFieldError(e.err) {
			e.m = &m
		}
		v.msgs[i] = e
	}
	if scanErr != nil {
		return v, fmt.Errorf("document cut short or malformed: read %d complete messages (%v)", len(els), scanErr)
	}
	return v, herr
}

// Apply emits the events of a session document.
func (p *parser) Apply(em *agt.Emitter, v any) {
	sv := v.(*value)
	d := &sv.doc
	switch {
	case sv.hasMsgs || d.SessionID != "":
		p.messages(em, sv)
	case d.ManifestID != "":
		p.manifest(em, d)
	default:
		em.Unknown("", "", "document")
	}
}

// Finish emits nothing: a document is read whole.
func (*parser) Finish(*agt.Emitter) {}

// messages emits a messages document: its header, its system prompt, then
// each message.
func (p *parser) messages(em *agt.Emitter, sv *value) {
	d := &sv.doc
	em.Session(d.SessionID)
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: agt.Timestamp(d.UpdatedAt), Meta: &agt.Meta{
		Type: "session", Agent: d.Agent,
		Data: agt.Marshal(struct {
			UpdatedAt string `json:"updated_at,omitempty"`
		}{d.UpdatedAt}),
	}}, "", "session")
	if d.SystemPrompt != nil {
		em.Emit(agt.Event{Kind: agt.KindSystem, Text: agt.String(*d.SystemPrompt), Meta: &agt.Meta{Type: "system_prompt"}}, "", "system")
	}
	base := em.Src()
	for _, e := range sv.msgs {
		em.SetSrc(agt.Src{Path: base.Path, Line: base.Line, Ptr: e.ptr}, e.raw)
		if e.err != nil {
			em.Errorf("%v", e.err)
		}
		if e.m == nil {
			continue
		}
		if h := roles[e.m.Role]; h != nil {
			h(p, em, e.m)
		} else {
			em.Unknown("", "", "role "+e.m.Role)
		}
	}
}

// manifest emits a session manifest: the session's working folder, title,
// origin and outcome.
func (p *parser) manifest(em *agt.Emitter, d *document) {
	em.Session(d.ManifestID)
	parent := d.ParentSession
	if parent == "" && d.Metadata.Fork != nil {
		parent = d.Metadata.Fork.From
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: agt.Timestamp(d.StartedAt), Model: d.Model, Meta: &agt.Meta{
		Type: "session", Subtype: d.Source, Cwd: d.Cwd, Title: d.Metadata.Title, ParentSession: parent,
		Data: agt.Marshal(struct {
			Status        string `json:"status,omitempty"`
			Provider      string `json:"provider,omitempty"`
			StartedAt     string `json:"started_at,omitempty"`
			EndedAt       string `json:"ended_at,omitempty"`
			ExitCode      *int   `json:"exit_code,omitempty"`
			WorkspaceRoot string `json:"workspace_root,omitempty"`
		}{d.Status, d.Provider, d.StartedAt, d.EndedAt, d.ExitCode, d.WorkspaceRoot}),
	}}, "", "session")
}

// roleHandler emits the events of one message.
type roleHandler func(p *parser, em *agt.Emitter, m *message)

// roles are the message roles, by the value of "role".
var roles = map[string]roleHandler{
	"user":      (*parser).user,
	"assistant": (*parser).assistant,
}

// user emits a user message's blocks; a compaction summary is a summary.
func (p *parser) user(em *agt.Emitter, m *message) {
	ts := millis(m.TS)
	if m.Metadata != nil && m.Metadata.Kind == "compaction_summary" {
		em.Emit(agt.Event{Kind: agt.KindSummary, TS: ts, Text: agt.String(joinText(m.Content))}, "", "summary")
		return
	}
	p.blocks(em, m, ts, agt.KindUser)
}

// assistant emits an assistant message's blocks, then the usage of the
// model call that wrote it.
func (p *parser) assistant(em *agt.Emitter, m *message) {
	ts := millis(m.TS)
	p.blocks(em, m, ts, agt.KindAssistant)
	if u := m.Metrics.event(); u != nil {
		u.MessageID = m.ID
		em.Emit(agt.Event{Kind: agt.KindUsage, TS: ts, Model: model(m), MessageID: m.ID, Usage: u}, "", "usage")
	}
}

// blockCtx is what a block handler needs of its message.
type blockCtx struct {
	p    *parser
	em   *agt.Emitter
	m    *message
	ts   string
	text string // the kind of a text block: user or assistant
	n    int    // the block's index
}

// blockHandler emits the event of one content block.
type blockHandler func(c *blockCtx, b *block)

// blocks are the content block types, by the value of "type".
var blocks = map[string]blockHandler{
	"text": func(c *blockCtx, b *block) {
		c.emit(agt.Event{Kind: c.text, Text: agt.String(str(b.Text))})
	},
	"thinking": func(c *blockCtx, b *block) {
		c.emit(agt.Event{Kind: agt.KindReasoning, Text: agt.String(str(b.Thinking))})
	},
	"redacted_thinking": func(c *blockCtx, b *block) {
		c.emit(agt.Event{Kind: agt.KindReasoning, Meta: &agt.Meta{Type: "redacted_thinking"}})
	},
	"tool_use": func(c *blockCtx, b *block) {
		id := c.emit(agt.Event{Kind: agt.KindToolCall, Tool: &agt.Tool{
			ID: b.ID, Name: b.Name, NativeName: b.Name, Input: b.Input, NativeInput: b.Input,
		}})
		if b.ID != "" {
			c.p.calls[b.ID] = id
		}
	},
	"tool_result": func(c *blockCtx, b *block) {
		c.emit(agt.Event{Kind: agt.KindToolResult, Result: &agt.Result{
			ID: b.ToolUseID, Call: c.p.calls[b.ToolUseID], Output: output(b.Content), IsError: b.IsError,
		}})
	},
	"file": func(c *blockCtx, b *block) {
		c.emit(agt.Event{Kind: agt.KindSystem, Text: contentText(b.Content), Meta: &agt.Meta{
			Type: "file", Data: agt.Marshal(struct {
				Path string `json:"path"`
			}{b.Path}),
		}})
	},
	"image": func(c *blockCtx, b *block) {
		c.emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "image", Data: agt.Marshal(struct {
			MediaType string `json:"mediaType,omitempty"`
		}{b.MediaType})}})
	},
}

// emit emits ev as the event of the current block.
func (c *blockCtx) emit(ev agt.Event) string {
	ev.TS = c.ts
	if c.m.Role == "assistant" && ev.Kind != agt.KindToolResult {
		ev.Model, ev.MessageID = model(c.m), c.m.ID
	}
	return c.em.Emit(ev, "", "b"+strconv.Itoa(c.n))
}

// blocks emits the blocks of m's content: a string is one text block.
func (p *parser) blocks(em *agt.Emitter, m *message, ts, text string) {
	c := &blockCtx{p: p, em: em, m: m, ts: ts, text: text}
	if s, ok := textOf(m.Content); ok {
		c.emit(agt.Event{Kind: text, Text: agt.String(s)})
		return
	}
	var bs []agt.Raw
	if agt.API.Unmarshal(m.Content, &bs) != nil {
		em.Unknown("", "", "content")
		return
	}
	for i, raw := range bs {
		c.n = i
		var b block
		if err := agt.Decode(raw, &b); err != nil {
			em.Errorf("content block %d: %v", i, err)
			continue
		}
		if h := blocks[b.Type]; h != nil {
			h(c, &b)
			continue
		}
		ev := agt.Event{Kind: agt.KindUnknown, TS: ts, Meta: &agt.Meta{Type: "block " + b.Type}}
		em.Emit(ev, "", "b"+strconv.Itoa(i))
	}
}

// output is a tool result's content: a string as it is, text blocks
// joined, anything else as it is.
func output(r agt.Raw) agt.Raw {
	if s, ok := textOf(r); ok {
		return agt.String(s)
	}
	if s, ok := blockText(r); ok {
		return agt.String(s)
	}
	return r
}

// contentText is r as text when it is a string, else r.
func contentText(r agt.Raw) agt.Raw {
	if s, ok := textOf(r); ok {
		return agt.String(s)
	}
	return r
}

// joinText is the text of content that is a string or text blocks.
func joinText(r agt.Raw) string {
	if s, ok := textOf(r); ok {
		return s
	}
	s, _ := blockText(r)
	return s
}

// blockText joins the text of an array of text blocks; ok is false when r
// is not one.
func blockText(r agt.Raw) (string, bool) {
	var bs []block
	if agt.API.Unmarshal(r, &bs) != nil || len(bs) == 0 {
		return "", false
	}
	parts := make([]string, len(bs))
	for i, b := range bs {
		if b.Type != "text" || b.Text == nil {
			return "", false
		}
		parts[i] = *b.Text
	}
	return strings.Join(parts, "\n"), true
}

func textOf(r agt.Raw) (string, bool) {
	r = bytes.TrimSpace(r)
	if len(r) == 0 || r[0] != '"' {
		return "", false
	}
	var s string
	return s, agt.API.Unmarshal(r, &s) == nil
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// model is the model of an assistant message.
func model(m *message) string {
	if m.ModelInfo == nil {
		return ""
	}
	if m.ModelInfo.ID == "" {
		return m.ModelInfo.ModelID
	}
	return m.ModelInfo.ID
}

// millis is an epoch-milliseconds time as agt's timestamp, "" when absent
// or out of range.
func millis(ms *float64) string {
	if ms == nil || *ms <= 0 || *ms > 1e15 {
		return ""
	}
	return time.UnixMilli(int64(*ms)).UTC().Format("2006-01-02T15:04:05.000Z")
}
