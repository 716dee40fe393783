package cursor

import (
	"strconv"

	"github.com/agt-project/agt"
)

// record is one agent transcript line.
type record struct {
	Type    string   `json:"type"`
	Role    string   `json:"role"`
	Message *message `json:"message"`
	Status  string   `json:"status"`
	Error   agt.Raw  `json:"error"`
}

// transcriptParser reads an agent transcript. It names no session: the
// session is the file's name (Cursor names it after the conversation id).
type transcriptParser struct {
	calls map[string]string
}

// Decode reads one line.
func (p *transcriptParser) Decode(rec []byte) (any, error) {
	r := &record{}
	if err := agt.Decode(rec, r); err != nil {
		return nil, err
	}
	return r, nil
}

// roleKinds maps a message role to the kind of its text blocks.
var roleKinds = map[string]string{"user": agt.KindUser, "assistant": agt.KindAssistant}

// Apply emits the events of one line.
func (p *transcriptParser) Apply(em *agt.Emitter, v any) {
	r, ok := v.(*record)
	if !ok {
		return
	}
	if em.Current() == "" {
		em.Session(em.Fallback())
	}
	if p.calls == nil {
		p.calls = map[string]string{}
	}
	if r.Type == "turn_ended" {
		var lp liveParser
		lp.turnEnded(em, &line{Status: r.Status, Error: r.Error}, "")
		return
	}
	kind := roleKinds[r.Role]
	if r.Type != "" || kind == "" || r.Message == nil {
		em.Unknown("", "", r.Type)
		return
	}
	n := em.Count()
	for i, b := range r.Message.Content {
		suffix := "b" + strconv.Itoa(i)
		switch b.Type {
		case "text":
			if b.Text != nil {
				em.Emit(agt.Event{Kind: kind, Text: agt.String(*b.Text)}, "", suffix)
			}
		case "thinking", "reasoning":
			if b.Text != nil {
				em.Emit(agt.Event{Kind: agt.KindReasoning, Text: agt.String(*b.Text)}, "", suffix)
			}
		case "tool_use":
			in := agt.ToolArgs(b.Input)
			id := b.ID
			if id == "" { // transcripts give tool calls no id
				id = em.Key() + "#" + strconv.Itoa(i)
			}
			p.calls[id] = em.Emit(agt.Event{Kind: agt.KindToolCall, Tool: &agt.Tool{ID: id, Name: b.Name, NativeName: b.Name, Input: in, NativeInput: in}}, "", suffix)
		default:
			em.Emit(agt.Event{Kind: agt.KindUnknown, Meta: &agt.Meta{Type: "block", Subtype: b.Type}}, "", suffix)
		}
	}
	if em.Count() == n {
		em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "message", Subtype: r.Role}}, "", "meta")
	}
}

// Finish has nothing held back.
func (p *transcriptParser) Finish(*agt.Emitter) {}
