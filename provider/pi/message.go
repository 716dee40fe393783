package pi

import (
	"strconv"
	"strings"

	"github.com/agt-project/agt"
)

// at is where a message's events come from: the native key of its record
// (the entry id, "" for the line) and its time.
type at struct {
	key string
	ts  string
}

// roleHandler emits the events of one message by role and returns how many
// it emitted.
type roleHandler func(p *parser, em *agt.Emitter, m *message, a at) int

var roles = map[string]roleHandler{
	"user":              userMessage,
	"assistant":         assistantMessage,
	"toolResult":        toolResultMessage,
	"bashExecution":     bashMessage,
	"custom":            customMessage,
	"hookMessage":       customMessage, // v2 name of custom
	"branchSummary":     branchSummaryMessage,
	"compactionSummary": compactionSummaryMessage,
}

// message emits the events of m; a message that yields none becomes a meta
// event, so that its line is accounted for.
func (p *parser) message(em *agt.Emitter, m *message, a at) {
	h := roles[m.Role]
	if h == nil {
		em.Emit(agt.Event{Kind: agt.KindUnknown, TS: a.ts, Meta: &agt.Meta{Type: "message", Subtype: m.Role}}, a.key, "unknown")
		return
	}
	if h(p, em, m, a) == 0 {
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: a.ts, Meta: &agt.Meta{Type: "message", Subtype: m.Role}}, a.key, "meta")
	}
}

// texts emits the content of a user or custom message: one event of kind
// per text block (or for string content), a meta event per image.
func (p *parser) texts(em *agt.Emitter, m *message, a at, kind string, meta *agt.Meta) int {
	n := 0
	if !emptyText(m.text) {
		em.Emit(agt.Event{Kind: kind, TS: a.ts, Text: m.text, Meta: meta}, a.key, "text")
		n++
	}
	for i, b := range m.blocks {
		idx := strconv.Itoa(i)
		switch b.Type {
		case "text":
			if emptyText(b.Text) {
				continue
			}
			em.Emit(agt.Event{Kind: kind, TS: a.ts, Text: b.Text, Meta: meta}, a.key, "text:"+idx)
		case "image":
			em.Emit(agt.Event{Kind: agt.KindMeta, TS: a.ts, Meta: &agt.Meta{Type: "image", Data: obj("mimeType", b.MimeType)}}, a.key, "image:"+idx)
		default:
			unknownBlock(em, a, b, i)
		}
		n++
	}
	return n
}

func unknownBlock(em *agt.Emitter, a at, b block, i int) {
	em.Emit(agt.Event{Kind: agt.KindUnknown, TS: a.ts, Meta: &agt.Meta{Type: "content", Subtype: b.Type}}, a.key, "unknown:"+strconv.Itoa(i))
}

func userMessage(p *parser, em *agt.Emitter, m *message, a at) int {
	return p.texts(em, m, a, agt.KindUser, nil)
}

// blockHandler emits the event of one assistant content block; it returns
// false when the block is empty and yields nothing.
type blockHandler func(p *parser, em *agt.Emitter, m *message, b block, i int, a at) bool

var assistantBlocks = map[string]blockHandler{
	"text": func(p *parser, em *agt.Emitter, m *message, b block, i int, a at) bool {
		if emptyText(b.Text) {
			return false
		}
		em.Emit(agt.Event{Kind: agt.KindAssistant, TS: a.ts, Text: b.Text, Model: m.Model}, a.key, "text:"+strconv.Itoa(i))
		return true
	},
	"thinking": func(p *parser, em *agt.Emitter, m *message, b block, i int, a at) bool {
		if emptyText(b.Thinking) {
			return false
		}
		em.Emit(agt.Event{Kind: agt.KindReasoning, TS: a.ts, Text: b.Thinking, Model: m.Model}, a.key, "thinking:"+strconv.Itoa(i))
		return true
	},
	"toolCall": func(p *parser, em *agt.Emitter, m *message, b block, i int, a at) bool {
		in := agt.ToolArgs(b.Arguments)
		suffix := "tool:" + b.ID
		if b.ID == "" {
			suffix = "tool:#" + strconv.Itoa(i)
		}
		id := em.Emit(agt.Event{Kind: agt.KindToolCall, TS: a.ts, Model: m.Model,
			Tool: &agt.Tool{ID: b.ID, Name: b.Name, NativeName: b.Name, Input: in, NativeInput: in}}, a.key, suffix)
		if b.ID != "" {
			p.calls[strings.Clone(b.ID)] = id // kept beyond the record
		}
		return true
	},
}

// assistantMessage emits the blocks of one model call in order, the error
// that ended it, and its usage.
func assistantMessage(p *parser, em *agt.Emitter, m *message, a at) int {
	n := 0
	if !emptyText(m.text) {
		em.Emit(agt.Event{Kind: agt.KindAssistant, TS: a.ts, Text: m.text, Model: m.Model}, a.key, "text")
		n++
	}
	for i, b := range m.blocks {
		h := assistantBlocks[b.Type]
		if h == nil {
			unknownBlock(em, a, b, i)
			n++
			continue
		}
		if h(p, em, m, b, i, a) {
			n++
		}
	}
	// how the call ended, said by its error event, else by its usage
	o := stopOutcome(m)
	if m.ErrorMessage != "" {
		em.Emit(agt.Event{Kind: agt.KindSystem, TS: a.ts, Text: agt.String(m.ErrorMessage), Model: m.Model,
			Meta: &agt.Meta{Type: "error", Subtype: m.StopReason, Outcome: o}}, a.key, "error")
		n++
		o = nil
	}
	if u := m.Usage.event(); u != nil {
		u.MessageID = m.ResponseID
		ev := agt.Event{Kind: agt.KindUsage, TS: a.ts, Model: m.Model, Usage: u}
		if o != nil {
			ev.Meta = &agt.Meta{Type: "stop", Subtype: m.StopReason, Outcome: o}
		}
		em.Emit(ev, a.key, "usage")
		n++
	}
	return n
}

func toolResultMessage(p *parser, em *agt.Emitter, m *message, a at) int {
	em.Emit(agt.Event{Kind: agt.KindToolResult, TS: a.ts,
		Result: &agt.Result{ID: m.ToolCallID, Call: p.calls[m.ToolCallID], Output: m.Content, IsError: m.IsError}}, a.key, "result")
	return 1
}

// bashMessage emits a user's shell command (`!cmd`) as a call of a tool
// named bashExecution and its result. The call id is made up from the entry
// id, or the line for entries without one.
func bashMessage(p *parser, em *agt.Emitter, m *message, a at) int {
	callID := "bash:" + a.key
	if a.key == "" {
		callID = "bash:line:" + strconv.FormatInt(em.Src().Line, 10)
	}
	in := obj("command", m.Command, "excludeFromContext", m.ExcludeFromContext)
	if in == nil {
		in = agt.Raw("{}")
	}
	id := em.Emit(agt.Event{Kind: agt.KindToolCall, TS: a.ts,
		Tool: &agt.Tool{ID: callID, Name: "bashExecution", NativeName: "bashExecution", Input: in, NativeInput: in}}, a.key, "call")
	failed := m.Cancelled || (m.ExitCode != nil && *m.ExitCode != 0)
	em.Emit(agt.Event{Kind: agt.KindToolResult, TS: a.ts,
		Result: &agt.Result{ID: callID, Call: id, Output: m.Output, IsError: failed, ExitCode: m.ExitCode}}, a.key, "result")
	return 2
}

// customMessage emits a message an extension put into the model's context
// (custom_message entries, custom / hookMessage roles) as system events.
func customMessage(p *parser, em *agt.Emitter, m *message, a at) int {
	meta := &agt.Meta{Type: "custom_message", Subtype: m.CustomType, Agent: detailsAgent(m.Details),
		Data: obj("display", m.Display, "details", m.Details)}
	n := p.texts(em, m, a, agt.KindSystem, meta)
	if n == 0 {
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: a.ts, Meta: meta}, a.key, "meta")
		n++
	}
	return n
}

// detailsAgent is the agent an extension's details name (subagent
// extensions write {"agent": "worker", …}).
func detailsAgent(d agt.Raw) string {
	if d.IsNull() || d[0] != '{' {
		return ""
	}
	var v struct {
		Agent any `json:"agent"`
	}
	_ = agt.API.Unmarshal(d, &v) // an object into any: never fails
	s, _ := v.Agent.(string)
	return s
}

func branchSummaryMessage(p *parser, em *agt.Emitter, m *message, a at) int {
	em.Emit(agt.Event{Kind: agt.KindSummary, TS: a.ts, Text: m.Summary,
		Meta: &agt.Meta{Type: "branch_summary", Data: obj("fromId", m.FromID)}}, a.key, "summary")
	return 1
}

func compactionSummaryMessage(p *parser, em *agt.Emitter, m *message, a at) int {
	em.Emit(agt.Event{Kind: agt.KindSummary, TS: a.ts, Text: m.Summary,
		Meta: &agt.Meta{Type: "compaction", Data: obj("tokensBefore", m.TokensBefore)}}, a.key, "summary")
	return 1
}
