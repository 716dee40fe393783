package codex

import (
	"bytes"
	"strings"

	"github.com/agt-project/agt"
)

// A rollout records a user or assistant message twice: as a response_item
// message and as an event_msg (user_message, agent_message), adjacent or
// close, in either order depending on the version. The event_msg is the
// message; its response_item twin is a meta event.
//
// Assistant messages: a response_item message with no twin (a rollout
// written without those events) is the message itself: it is held for one
// line, and emitted as the message at its own line unless that next line is
// its twin.
//
// User messages: Codex writes a user_message for each prompt the person
// typed, and only for those; the context it sends the model as user
// messages (AGENTS.md, the environment, a skill's instructions, an aborted
// turn's note, plugins, app context, …) has no user_message. So structure
// decides, not the block's opening: a user response_item is the twin of the
// user_message of the same text (either order, within the turn); any other
// is injected context, a system event that keeps its text. A user item
// waits for its user_message through the lines Codex writes with a turn's
// input (turnInput) and is decided at the first other line, or when the
// input ends. A rollout that has written no user_message so far gives no
// structure to go by (writers before the event stream, other tools'
// fixtures): its user items are the messages, and only the known openings
// of context blocks (injected, the fallback) make system events.

// heldMessage is a response_item message waiting for its twin.
type heldMessage struct {
	mark
	role  string
	text  agt.Raw
	plain string // text, decoded (user messages, matched by text)
	src   agt.Src
	raw   agt.Raw
	ts    string
}

// twinRoles maps the event_msg types that twin a message to its role (user
// messages are matched by text, see noteUser).
var twinRoles = map[string]string{"agent_message": "assistant"}

// twinRole is the role of the message an event_msg line twins, or "".
func twinRole(r *rolloutLine) string {
	if r.Type != "event_msg" {
		return ""
	}
	return twinRoles[r.Payload.Type]
}

// twinEnds are the event_msg types that end a turn: a twin seen before them
// matches no response_item after them.
var twinEnds = map[string]bool{"task_complete": true, "turn_complete": true}

// turnInput are the lines Codex writes with a turn's input, around the
// user_message of the prompt: a user item waits through them for its
// user_message. Keys are the envelope type, then "/" and the payload type
// (and ":" and the role of a message).
var turnInput = map[string]bool{
	"session_meta":                    true,
	"turn_context":                    true,
	"world_state":                     true,
	"event_msg/task_started":          true,
	"event_msg/turn_started":          true,
	"response_item/message:user":      true,
	"response_item/message:developer": true,
	"response_item/message:system":    true,
}

// inputKey is the key of line r in turnInput.
func inputKey(r *rolloutLine) string {
	switch r.Type {
	case "response_item":
		if r.Payload.Type == "message" {
			return r.Type + "/message:" + r.Payload.Role
		}
		return r.Type + "/" + r.Payload.Type
	case "event_msg":
		return r.Type + "/" + r.Payload.Type
	}
	return r.Type
}

// noteTwin settles line r against the held messages and counts a twin that
// came first. It runs before r is handled.
func (c *conv) noteTwin(em *agt.Emitter, r *rolloutLine) {
	c.noteUser(em, r)
	role := twinRole(r)
	if h := c.heldMsg; h != nil {
		c.heldMsg = nil
		if role == h.role {
			c.atLine(em, h.src, h.raw, h.ts, h.mark, func() {
				c.meta(em, &agt.Meta{Type: "response_item", Subtype: "message:" + h.role})
			})
			return
		}
		c.releaseMessage(em, h)
	}
	switch {
	case role != "":
		c.twins[role]++
	case r.Type == "event_msg" && twinEnds[r.Payload.Type]:
		clear(c.twins)
	}
}

// noteUser settles line r against the held user items: a user_message
// takes the one of its text as its twin and makes the others context; a
// line that is not turn input decides them all.
func (c *conv) noteUser(em *agt.Emitter, r *rolloutLine) {
	um := r.Type == "event_msg" && r.Payload.Type == "user_message"
	switch {
	case um:
		c.prompts = true
		msg := str(agt.Raw(r.Payload.Message))
		twin := -1
		for i, h := range c.heldUser {
			if h.plain == msg {
				twin = i
				break
			}
		}
		c.decideUser(em, twin)
		if twin < 0 { // kept beyond the line
			c.typed = append(c.typed, strings.Clone(msg))
		}
	case len(c.heldUser) > 0 && !turnInput[inputKey(r)]:
		c.decideUser(em, -1)
	}
	if r.Type == "event_msg" && twinEnds[r.Payload.Type] {
		c.typed = c.typed[:0]
	}
}

// userItem handles a response_item user message of a rollout: a meta event
// when its user_message came first, held otherwise.
func (c *conv) userItem(em *agt.Emitter, it *item) {
	plain := str(it.joined)
	for i, t := range c.typed {
		if t == plain {
			c.typed = append(c.typed[:i], c.typed[i+1:]...)
			c.meta(em, &agt.Meta{Type: "response_item", Subtype: "message:user"})
			return
		}
	}
	c.heldUser = append(c.heldUser, &heldMessage{mark: c.mark(), role: it.Role, text: bytes.Clone(it.joined), plain: strings.Clone(plain), src: em.Src(), raw: bytes.Clone(em.Line()), ts: strings.Clone(c.ts)})
}

// decideUser emits the held user items at their own lines: item twin (-1:
// none) is a user_message's twin, a meta event; the others are context
// (system events) once the rollout has written a user_message, else
// messages (see isInjected).
func (c *conv) decideUser(em *agt.Emitter, twin int) {
	for i, h := range c.heldUser {
		c.atLine(em, h.src, h.raw, h.ts, h.mark, func() {
			m := &agt.Meta{Type: "response_item", Subtype: "message:user"}
			switch {
			case i == twin:
				c.meta(em, m)
			case c.prompts || isInjected(h.text):
				c.say(em, agt.KindSystem, h.text, m, "text")
			default:
				c.say(em, agt.KindUser, h.text, nil, "text")
			}
		})
	}
	clear(c.heldUser)
	c.heldUser = c.heldUser[:0]
}

// twinMessage handles a response_item user or assistant message of a
// rollout: a meta event when its twin came first, held otherwise.
func (c *conv) twinMessage(em *agt.Emitter, it *item) {
	if it.Role == "user" {
		c.userItem(em, it)
		return
	}
	if c.twins[it.Role] > 0 {
		c.twins[it.Role]--
		c.meta(em, &agt.Meta{Type: "response_item", Subtype: "message:" + it.Role})
		return
	}
	t := joinText(agt.Raw(it.Content))
	c.heldMsg = &heldMessage{mark: c.mark(), role: it.Role, text: bytes.Clone(t), src: em.Src(), raw: bytes.Clone(em.Line()), ts: c.ts}
}

// releaseMessage emits a held message that has no twin, at its own line.
func (c *conv) releaseMessage(em *agt.Emitter, h *heldMessage) {
	c.atLine(em, h.src, h.raw, h.ts, h.mark, func() {
		c.say(em, roleKinds[h.role], h.text, nil, "text")
	})
}

// releaseHeldMessage emits the held messages, if any (the input ended).
func (c *conv) releaseHeldMessage(em *agt.Emitter) {
	c.decideUser(em, -1)
	if h := c.heldMsg; h != nil {
		c.heldMsg = nil
		c.releaseMessage(em, h)
	}
}

// atLine runs f with the emitter at an earlier line.
func (c *conv) atLine(em *agt.Emitter, src agt.Src, raw agt.Raw, ts string, m mark, f func()) {
	cur, line, now, was := em.Src(), em.Line(), c.ts, c.at(m)
	em.SetSrc(src, raw)
	c.ts = ts
	f()
	em.SetSrc(cur, line)
	c.ts = now
	c.at(was)
}
