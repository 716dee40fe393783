package amp

import (
	"strconv"

	"github.com/agt-project/agt"
)

// The stream's messages and the thread's hold the same content blocks
// (Anthropic's), told into events by the same rules; only a tool result
// is written differently (block, threadBlock), and each format builds its
// agt.Result itself.

// part is the members of a content block both formats share.
type part struct {
	Type     string  `json:"type"`
	Text     agt.Raw `json:"text"`
	Thinking agt.Raw `json:"thinking"`
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Input    agt.Raw `json:"input"`
}

// calls links tool results to their calls: session + tool_use id → event
// id of the call.
type calls map[string]string

// add keeps event, the event id of the call whose tool_use id is id.
func (c calls) add(em *agt.Emitter, id, event string) { c[em.Current()+"\x00"+id] = event }

// take returns the event id of the call whose tool_use id is id, and
// forgets it: a call has one result.
func (c calls) take(em *agt.Emitter, id string) string {
	k := em.Current() + "\x00" + id
	event := c[k]
	delete(c, k)
	return event
}

// userBlock emits the event of block b, the i-th of a user message, from ev
// (what the message gives each of its events): a user event for a text, a
// tool result for a tool_result, whose result (res, each format's own)
// is linked to its call, and a meta event for any other block or a text
// block without text.
func userBlock(em *agt.Emitter, c calls, ev agt.Event, b *part, res func() *agt.Result, i int) {
	suffix := "b" + strconv.Itoa(i)
	switch b.Type {
	case "text":
		if ev.Text = text(b.Text); ev.Text != nil {
			ev.Kind = agt.KindUser
			break
		}
		ev.Kind, ev.Meta = agt.KindMeta, &agt.Meta{Type: "content", Subtype: b.Type} // empty, or not a string
	case "tool_result":
		r := res()
		if r.ID != "" {
			r.Call = c.take(em, r.ID)
			suffix = "result:" + r.ID
		}
		ev.Kind, ev.Result = agt.KindToolResult, r
	default:
		ev.Kind, ev.Meta = agt.KindMeta, &agt.Meta{Type: "content", Subtype: b.Type}
	}
	em.Emit(ev, "", suffix)
}

// assistantBlock emits the event of block b, the i-th of an assistant
// message, from ev: an assistant event for a text (a meta event when it
// has none), reasoning for thinking and redacted_thinking, a tool call for
// a tool_use, kept in c for its result, and a meta event for any other
// block.
func assistantBlock(em *agt.Emitter, c calls, ev agt.Event, b *part, i int) {
	suffix := "b" + strconv.Itoa(i)
	switch b.Type {
	case "text":
		ev.Kind, ev.Text = agt.KindAssistant, text(b.Text)
		if ev.Text == nil { // empty, or not a string
			ev.Kind, ev.Meta = agt.KindMeta, &agt.Meta{Type: "content", Subtype: b.Type}
		}
	case "thinking":
		ev.Kind, ev.Text = agt.KindReasoning, text(b.Thinking)
	case "redacted_thinking":
		ev.Kind, ev.Meta = agt.KindReasoning, &agt.Meta{Type: "redacted_thinking"}
	case "tool_use":
		ev.Kind = agt.KindToolCall
		ev.Tool = &agt.Tool{ID: b.ID, Name: b.Name, NativeName: b.Name, Input: b.Input, NativeInput: b.Input}
		if b.ID == "" {
			ev.Tool.ID = em.Key() + "#" + strconv.Itoa(i) // a block without an id: its record and place
		} else {
			suffix = "tool:" + b.ID
		}
		if id := em.Emit(ev, "", suffix); b.ID != "" {
			c.add(em, b.ID, id)
		}
		return
	default:
		ev.Kind, ev.Meta = agt.KindMeta, &agt.Meta{Type: "content", Subtype: b.Type}
	}
	em.Emit(ev, "", suffix)
}

// toolResult is a tool's result: an exit code other than 0 (Amp's shell
// tools) makes it an error whatever isError says, as Amp's is_error stays
// false for a command that ran and failed.
func toolResult(id string, output agt.Raw, isError bool, exit *int) *agt.Result {
	return &agt.Result{ID: id, Output: output, IsError: isError || exit != nil && *exit != 0, ExitCode: exit}
}

// text keeps a text member when it is a non-empty JSON string.
func text(r agt.Raw) agt.Raw {
	if len(r) > 2 && r[0] == '"' {
		return r
	}
	return nil
}
