package opencode

import (
	"strconv"
	"strings"

	"github.com/agt-project/agt"
)

// state is what a parser remembers across records: the keys and tool call
// ids used so far in each session.
type state struct {
	keys  map[string]bool
	calls map[string]int
}

func newState() state {
	return state{keys: map[string]bool{}, calls: map[string]int{}}
}

// key returns id as the record key of the current session's events, or
// fallback when id is missing or was already used (redacted logs repeat
// placeholder ids).
func (s *state) key(em *agt.Emitter, id, fallback string) string {
	if id == "" {
		return fallback
	}
	k := em.Current() + "\x00" + id
	if s.keys[k] {
		return fallback
	}
	s.keys[k] = true
	return id
}

// toolID returns the call id of a tool part, made unique in the session.
func (s *state) toolID(em *agt.Emitter, callID string) string {
	k := em.Current() + "\x00" + callID
	s.calls[k]++
	if n := s.calls[k]; n > 1 {
		return callID + "#" + strconv.Itoa(n)
	}
	return callID
}

// msgCtx is what the parts of a message need of it.
type msgCtx struct {
	role    string
	model   string
	summary bool  // a compaction summary
	ts      int64 // fallback time of the parts, epoch ms
	end     int64 // time the message completed, for step-finish parts
	// stepUsage: the steps' tokens are the usage (the message has no tokens
	// or cost field, or there is no message record)
	stepUsage bool
}

// partCtx emits the events of one part.
type partCtx struct {
	em   *agt.Emitter
	st   *state
	msg  msgCtx
	key  string
	live bool // from `opencode run --format json`: step-finish carries the usage
}

func (c *partCtx) emit(ev agt.Event, suffix string) string {
	return c.em.Emit(ev, c.key, suffix)
}

// partHandlers maps the part types to their events.
var partHandlers = map[string]func(*partCtx, *part){
	"text":        textPart,
	"reasoning":   reasoningPart,
	"tool":        toolPart,
	"step-start":  metaPart,
	"step-finish": stepFinishPart,
	"file":        metaPart,
	"patch":       metaPart,
	"snapshot":    metaPart,
	"agent":       agentPart,
	"subtask":     subtaskPart,
	"compaction":  compactionPart,
	"retry":       retryPart,
}

// emitPart emits the events of p, or an unknown event for a part type not
// known.
func emitPart(c *partCtx, p *part) {
	h := partHandlers[p.Type]
	if h == nil {
		c.em.Unknown("", "", "part:"+p.Type)
		return
	}
	h(c, p)
}

// textKinds maps the role of a message to the kind of its text.
var textKinds = map[string]string{
	"user":      agt.KindUser,
	"assistant": agt.KindAssistant,
}

func textPart(c *partCtx, p *part) {
	ev := agt.Event{Text: p.Text, TS: ts(first(p.Time.Start, c.msg.ts))}
	switch {
	case p.Synthetic || p.Ignored:
		sub := "synthetic"
		if p.Ignored {
			sub = "ignored"
		}
		ev.Kind, ev.Meta = agt.KindSystem, &agt.Meta{Type: p.Type, Subtype: sub}
	case c.msg.summary:
		ev.Kind = agt.KindSummary
	default:
		ev.Kind = textKinds[c.msg.role]
		if ev.Kind == "" {
			ev.Kind = agt.KindAssistant
		}
	}
	if ev.Kind != agt.KindUser {
		ev.Model = c.msg.model
	}
	c.emit(ev, "text")
}

func reasoningPart(c *partCtx, p *part) {
	c.emit(agt.Event{Kind: agt.KindReasoning, TS: ts(first(p.Time.Start, c.msg.ts)), Model: c.msg.model, Text: p.Text}, "reasoning")
}

// toolPart emits a call and, once the tool has finished, its result: OpenCode
// keeps both in one part.
func toolPart(c *partCtx, p *part) {
	st := p.State
	if st == nil {
		st = &toolState{}
	}
	id := c.st.toolID(c.em, p.CallID)
	in := st.Input
	if in.IsNull() { // a call still being written: its raw text
		in = agt.String(st.Raw)
	}
	in = agt.ToolArgs(in)
	call := c.emit(agt.Event{
		Kind:  agt.KindToolCall,
		TS:    ts(first(st.Time.Start, c.msg.ts)),
		Model: c.msg.model,
		Tool:  &agt.Tool{ID: id, Name: p.Tool, NativeName: p.Tool, Input: in, NativeInput: in},
	}, "call")
	if call == "" {
		call = c.em.EventID("", c.key, "call")
	}
	var res *agt.Result
	switch st.Status {
	case "completed":
		res = &agt.Result{Output: compactValue(st.Output)}
	case "error":
		res = &agt.Result{Output: compactValue(st.Error), IsError: true}
	}
	if res != nil {
		res.ID, res.Call = id, call
		if x := st.Metadata.Exit; x != nil {
			code := *x
			res.ExitCode = &code
			res.IsError = res.IsError || code != 0
		}
		c.emit(agt.Event{Kind: agt.KindToolResult, TS: ts(first(st.Time.End, st.Time.Start, c.msg.ts)), Result: res}, "result")
	}
	if child := st.Metadata.SessionID; child != "" {
		var task struct {
			Agent string `json:"subagent_type"`
		}
		c.em.Field("input", in, &task)
		c.emit(agt.Event{
			Kind: agt.KindMeta,
			TS:   ts(first(st.Time.Start, c.msg.ts)),
			Meta: &agt.Meta{Type: "subagent", Subtype: p.Tool, Agent: task.Agent, Data: agt.Marshal(map[string]string{"session": child, "call": id})},
		}, "subagent")
	}
}

// compactValue returns a value fit for an event: objects and arrays cut out
// of a pretty-printed document lose their white space; strings are kept.
func compactValue(r agt.Raw) agt.Raw {
	if len(r) > 0 && (r[0] == '{' || r[0] == '[') {
		return agt.Compact(r)
	}
	return r
}

// partData is the payload kept in the meta events of parts without
// conversational content.
type partData struct {
	Reason   string   `json:"reason,omitempty"`
	Snapshot string   `json:"snapshot,omitempty"`
	Tokens   *tokens  `json:"tokens,omitempty"`
	Cost     *float64 `json:"cost,omitempty"`
	Hash     string   `json:"hash,omitempty"`
	Files    []string `json:"files,omitempty"`
	Mime     string   `json:"mime,omitempty"`
	Filename string   `json:"filename,omitempty"`
	URL      string   `json:"url,omitempty"`
	Auto     bool     `json:"auto,omitempty"`
	Overflow bool     `json:"overflow,omitempty"`
	Attempt  int      `json:"attempt,omitempty"`
	Error    agt.Raw  `json:"error,omitempty"`
}

func (c *partCtx) meta(p *part, m agt.Meta) {
	d := partData{
		Reason: p.Reason, Snapshot: p.Snapshot, Tokens: p.Tokens, Cost: p.Cost,
		Hash: p.Hash, Files: p.Files, Mime: p.Mime, Filename: p.Filename,
		Auto: p.Auto, Overflow: p.Overflow, Attempt: p.Attempt, Error: compactValue(p.Error),
	}
	if !strings.HasPrefix(p.URL, "data:") { // inline file contents stay in raw
		d.URL = p.URL
	}
	m.Type = p.Type
	if b := agt.Marshal(d); string(b) != "{}" {
		m.Data = b
	}
	c.emit(agt.Event{Kind: agt.KindMeta, TS: ts(first(p.Time.Start, c.msg.ts)), Meta: &m}, "meta")
}

func metaPart(c *partCtx, p *part) { c.meta(p, agt.Meta{Title: p.Filename}) }

func agentPart(c *partCtx, p *part) { c.meta(p, agt.Meta{Agent: p.Name}) }

func compactionPart(c *partCtx, p *part) {
	sub := "manual"
	if p.Auto {
		sub = "auto"
	}
	c.meta(p, agt.Meta{Subtype: sub})
}

func retryPart(c *partCtx, p *part) {
	var e apiError
	if len(p.Error) > 0 && p.Error[0] == '{' { // else a text
		c.em.Field("error", p.Error, &e)
	}
	c.meta(p, agt.Meta{Subtype: e.Name})
}

// stepFinishPart: in an export the message's tokens are the usage and the
// step is meta; in the live output the step is the only usage there is, and
// so it is in an export whose message states no tokens (or is missing).
func stepFinishPart(c *partCtx, p *part) {
	if !c.live && !c.msg.stepUsage {
		end := c.msg
		end.ts = first(c.msg.end, c.msg.ts)
		(&partCtx{em: c.em, st: c.st, msg: end, key: c.key}).meta(p, agt.Meta{Subtype: p.Reason, Outcome: stepOutcome(p.Reason)})
		return
	}
	t := p.Tokens
	if t == nil {
		t = &tokens{}
	}
	u := usage(t, p.Cost)
	u.MessageID = p.MessageID
	ev := agt.Event{Kind: agt.KindUsage, TS: ts(c.msg.ts), Model: c.msg.model, Usage: u}
	if o := stepOutcome(p.Reason); o != nil {
		ev.Meta = &agt.Meta{Type: p.Type, Subtype: p.Reason, Outcome: o}
	}
	c.emit(ev, "usage")
}

// subtaskPart: a request to run an agent; with a command it is the agent
// command the user typed.
func subtaskPart(c *partCtx, p *part) {
	m := &agt.Meta{Type: p.Type, Subtype: p.Command, Agent: p.Agent, Title: p.Description}
	ev := agt.Event{Kind: agt.KindMeta, TS: ts(c.msg.ts), Meta: m}
	if p.Command != "" {
		ev.Kind, ev.Text = agt.KindSlashCommand, compactValue(p.Prompt)
	} else {
		m.Data = agt.Marshal(map[string]agt.Raw{"prompt": compactValue(p.Prompt)})
	}
	c.emit(ev, "subtask")
}
