package claude

import (
	"strings"

	"github.com/agt-project/agt"
)

// Prompts typed while the agent works. Claude Code queues them and writes
// queue-operation records: enqueue (content = the prompt), then dequeue when
// the prompt starts a turn of its own (a user record with the prompt
// follows: that record is the message) or remove when the agent took it
// into the turn under way (the log keeps no other copy of it before the
// versions that write attachments; later versions also write a
// queued_command attachment with the prompt where the agent took it).
//
// A prompt taken into the turn is a user event at the record that shows it
// taken: the queued_command attachment, or the remove when no attachment
// holds it. Whichever of the two comes first is the user event; the other
// one, matched by its text, stays a meta event. A queued prompt that starts
// a turn may be written twice, as the attachment and then a user record with
// the same text: that user record is a meta event (subtype "queued"), the
// attachment being the message already. Queues are per session and file, so
// that a copy of the file (a backup) pairs its own records.

// queues are the queue states, by session NUL file.
type queues map[string]*queue

type queue struct {
	waiting  []string       // enqueued texts, oldest first (JSON string literals)
	removed  map[string]int // texts (decoded) made user events by a remove
	attached map[string]int // texts (decoded) made user events by an attachment
	// the text of the queued_command attachment made a user event by the
	// latest record, until a user or assistant record comes
	fresh string
}

// repeats reports whether the user text lit (a JSON string literal) is the
// prompt of the queued_command attachment just before, and forgets it.
func (q queues) repeats(c *ctx, lit agt.Raw) bool {
	s := q[c.session+"\x00"+c.em.Src().Path]
	if s == nil || s.fresh == "" || lit.Str() != s.fresh {
		return false
	}
	s.fresh = ""
	return true
}

// settle forgets the attachment just before once a user or assistant record
// has come.
func (q queues) settle(c *ctx) {
	if s := q[c.session+"\x00"+c.em.Src().Path]; s != nil {
		s.fresh = ""
	}
}

func (q queues) of(c *ctx) *queue {
	k := c.session + "\x00" + c.em.Src().Path
	s := q[k]
	if s == nil {
		s = &queue{removed: map[string]int{}, attached: map[string]int{}}
		q[k] = s
	}
	return s
}

// queueOperation handles a queue-operation record.
func (c *ctx) queueOperation() {
	r := &c.d.rec
	q := c.p.queue.of(c)
	switch r.Operation {
	case "enqueue":
		if t := promptText(r.Content); t != nil {
			q.waiting = append(q.waiting, string(t))
		}
	case "dequeue", "remove":
		if len(q.waiting) == 0 {
			break
		}
		t := q.waiting[0]
		q.waiting = q.waiting[1:]
		if r.Operation == "dequeue" { // the user record that follows is the message
			break
		}
		s := agt.Raw(t).Str()
		if q.attached[s] > 0 {
			q.attached[s]--
			break
		}
		q.removed[s]++
		c.emit(agt.Event{Kind: queuedKind(false, agt.Raw(t)), Text: agt.Raw(t), Meta: &agt.Meta{Type: "queue-operation", Subtype: r.Operation}}, "text")
		return
	}
	c.meta("queue-operation", r.Operation, nil)
}

// attachment handles an attachment record: context the agent attached to
// its next request, a meta event, but for a queued prompt (queued_command),
// a user event (or a system event when the prompt is context, see
// queuedKind).
func (c *ctx) attachment() {
	a := c.d.rec.Attachment
	if a == nil {
		c.meta("attachment", "", nil)
		return
	}
	if a.Type == "queued_command" {
		if t := promptText(a.Prompt); t != nil {
			q := c.p.queue.of(c)
			s := t.Str()
			if q.removed[s] > 0 { // already a user event at its remove
				q.removed[s]--
			} else {
				q.attached[s]++
				q.fresh = s
				m := c.userMeta()
				if m == nil {
					m = &agt.Meta{}
				}
				m.Type, m.Subtype = "attachment", a.Type
				c.emit(agt.Event{Kind: queuedKind(a.IsMeta, t), Text: t, Meta: m}, "text")
				return
			}
		}
	}
	c.meta("attachment", a.Type, nil)
}

// queuedKind is the kind of a queued prompt (a JSON string literal), as
// for a user record's text: an isMeta one, or one made of Claude Code's
// tagged blocks (a background task's <task-notification>), is context, a
// system event; a queued command is a command; the rest is the user's.
func queuedKind(isMeta bool, lit agt.Raw) string {
	if isMeta {
		return agt.KindSystem
	}
	if k := markupKind(string(lit)); k != "" {
		return k
	}
	return agt.KindUser
}

// promptText is the text of a prompt (a JSON string literal): the string,
// or the text blocks of a content array joined by blank lines; nil when it
// has no text.
func promptText(r raw) agt.Raw {
	if len(r) == 0 {
		return nil
	}
	switch r[0] {
	case '"':
		if len(r) > 2 {
			return agt.Raw(r)
		}
	case '[':
		var blocks []block
		if agt.API.Unmarshal(r, &blocks) != nil {
			return nil
		}
		var parts []string
		for _, b := range blocks {
			if b.Type == "text" && len(b.Text) > 2 {
				parts = append(parts, agt.Raw(b.Text).Str())
			}
		}
		if len(parts) > 0 {
			return agt.String(strings.Join(parts, "\n\n"))
		}
	}
	return nil
}
