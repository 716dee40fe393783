package transcript

import (
	"strings"
	"time"

	"github.com/agt-project/agt"
)

// builder consolidates the events of one session.
type builder struct {
	t       Transcript
	streams map[string]*conv
	order   []string           // streams by first appearance
	calls   map[string]callRef // event id of a tool call → where it is
	native  map[string]callRef // stream NUL native tool id → the latest such call
	bySrc   map[agt.Src]msgRef // source of an event → its message (usage attaches there)
	models  map[string]int     // model → assistant messages using it
	events  []agt.Event        // kept for stream logs only
	keep    bool
	first   string
	last    string
}

type callRef struct {
	c    *conv
	msg  int
	call int
	ts   string
}

type msgRef struct {
	c   *conv
	msg int
}

// conv is the conversation of one stream.
type conv struct {
	name     string
	msgs     []Message
	open     int // index of the assistant message being built, -1 when none
	answered bool
	usage    agt.Usage
	costs    *float64
	counts   Counts
	first    string
	last     string
	models   map[string]int
}

func newBuilder(ev *agt.Event, keep bool) *builder {
	return &builder{
		t: Transcript{
			Schema:        Schema,
			Session:       ev.Session,
			NativeSession: ev.NativeSession,
			Provider:      ev.Provider,
			Format:        ev.Format,
		},
		streams: map[string]*conv{},
		calls:   map[string]callRef{},
		native:  map[string]callRef{},
		bySrc:   map[agt.Src]msgRef{},
		models:  map[string]int{},
		keep:    keep,
	}
}

func (b *builder) conv(name string) *conv {
	c := b.streams[name]
	if c == nil {
		c = &conv{name: name, open: -1, models: map[string]int{}}
		b.streams[name] = c
		b.order = append(b.order, name)
	}
	return c
}

// roles of the conversational event kinds.
var roles = map[string]string{
	agt.KindUser:         RoleUser,
	agt.KindSlashCommand: RoleUser,
	agt.KindSystem:       RoleSystem,
	agt.KindSummary:      RoleSystem,
	agt.KindError:        RoleSystem,
}

// add consolidates one event.
func (b *builder) add(ev *agt.Event) {
	if b.keep {
		b.events = append(b.events, *ev)
	}
	if ev.Format != "" && b.t.Format == "" {
		b.t.Format = ev.Format
	}
	c := b.conv(ev.Stream)
	if ev.TS != "" {
		b.first, b.last = minTS(b.first, ev.TS), maxTS(b.last, ev.TS)
		c.first, c.last = minTS(c.first, ev.TS), maxTS(c.last, ev.TS)
	}
	if m := ev.Meta; m != nil {
		b.meta(m)
	}
	switch ev.Kind {
	case agt.KindAssistant, agt.KindReasoning:
		m := c.assistant(ev, ev.Kind == agt.KindAssistant || ev.Kind == agt.KindReasoning)
		if ev.Kind == agt.KindAssistant {
			m.Text = join(m.Text, ev.Text)
		} else {
			m.Reasoning = join(m.Reasoning, ev.Text)
		}
		b.bySrc[ev.Src] = msgRef{c, c.open}
		b.model(c, ev.Model)
	case agt.KindToolCall:
		if ev.Tool == nil { // never from input (events are checked); an in-process event
			return
		}
		m := c.assistant(ev, false)
		t := ev.Tool
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: t.ID, Name: t.Name, NativeName: t.NativeName, Kind: t.Kind, Input: t.Input, Status: StatusUnknown, StartedAt: ev.TS})
		ref := callRef{c, c.open, len(m.ToolCalls) - 1, ev.TS}
		b.calls[ev.ID] = ref
		if t.ID != "" {
			b.native[ev.Stream+"\x00"+t.ID] = ref
		}
		b.bySrc[ev.Src] = msgRef{c, c.open}
		c.counts.ToolCalls++
		b.model(c, ev.Model)
	case agt.KindToolResult:
		b.result(c, ev)
	case agt.KindUsage:
		b.usage(c, ev)
	case agt.KindUnknown:
		c.counts.Unknown++
	default:
		role, ok := roles[ev.Kind]
		if !ok {
			return
		}
		if ev.Kind == agt.KindError {
			c.counts.Errors++
		}
		text := ev.Text
		if ev.Kind == agt.KindError && ev.Error != nil {
			text = agt.String("error: " + ev.Error.Message)
		}
		c.open = -1
		c.msgs = append(c.msgs, Message{Index: len(c.msgs), Role: role, TS: ev.TS, Text: text, Model: ev.Model})
		c.counts.Messages++
	}
}

// assistant returns the assistant message an event belongs to, opening a
// new one when there is none, or when the model speaks again (text or
// reasoning) after results of its calls came back.
func (c *conv) assistant(ev *agt.Event, speaks bool) *Message {
	if c.open >= 0 && !(speaks && c.answered) {
		m := &c.msgs[c.open]
		if m.Model == "" {
			m.Model = ev.Model
		}
		return m
	}
	c.open = len(c.msgs)
	c.answered = false
	c.msgs = append(c.msgs, Message{Index: c.open, Role: RoleAssistant, TS: ev.TS, Model: ev.Model})
	c.counts.Messages++
	return &c.msgs[c.open]
}

func (b *builder) model(c *conv, m string) {
	if m != "" {
		if _, ok := b.models[m]; !ok {
			b.t.Models = append(b.t.Models, m)
		}
		b.models[m]++
		c.models[m]++
	}
}

func (b *builder) result(c *conv, ev *agt.Event) {
	r := ev.Result
	if r == nil {
		return
	}
	ref, ok := b.calls[r.Call]
	if !ok && r.ID != "" {
		ref, ok = b.native[ev.Stream+"\x00"+r.ID]
	}
	if !ok {
		c.counts.UnpairedResults++
		return
	}
	tc := &ref.c.msgs[ref.msg].ToolCalls[ref.call]
	if tc.Status != StatusUnknown { // a second result for the call
		c.counts.UnpairedResults++
		return
	}
	tc.Output, tc.IsError, tc.ExitCode, tc.EndedAt = r.Output, r.IsError, r.ExitCode, ev.TS
	tc.Status = StatusOK
	if r.IsError {
		tc.Status = StatusError
		ref.c.counts.ToolErrors++
	}
	tc.DurationMS = duration(ref.ts, ev.TS)
	if ref.c.open == ref.msg {
		ref.c.answered = true
	}
}

func (b *builder) usage(c *conv, ev *agt.Event) {
	u := ev.Usage
	if u == nil {
		return
	}
	c.usage.Add(u)
	b.model(c, ev.Model)
	if u.Scope != agt.ScopeCall {
		return
	}
	ref, ok := b.bySrc[ev.Src]
	if !ok && c.open >= 0 {
		ref, ok = msgRef{c, c.open}, true
	} else if !ok && len(c.msgs) > 0 {
		for i := len(c.msgs) - 1; i >= 0; i-- {
			if c.msgs[i].Role == RoleAssistant {
				ref, ok = msgRef{c, i}, true
				break
			}
		}
	}
	if !ok {
		return
	}
	m := &ref.c.msgs[ref.msg]
	if m.Usage == nil {
		m.Usage = &agt.Usage{Scope: agt.ScopeCall}
	}
	mu := *u
	mu.MessageID, mu.ContextWindow = "", 0
	m.Usage.Add(&mu)
	if m.Model == "" {
		m.Model = ev.Model
	}
	if u.ContextWindow > b.t.ContextWindow {
		b.t.ContextWindow = u.ContextWindow
	}
}

func (b *builder) meta(m *agt.Meta) {
	t := &b.t
	if t.Cwd == "" {
		t.Cwd = m.Cwd
	}
	if t.GitBranch == "" {
		t.GitBranch = m.GitBranch
	}
	if m.Version != "" {
		t.Version = m.Version
	}
	if m.Title != "" {
		t.Title = m.Title
	}
}

// transcript finishes the session's transcript.
func (b *builder) transcript() *Transcript {
	t := &b.t
	t.Models = orEmpty(t.Models)
	t.Model = top(b.models, t.Models)
	t.StartedAt, t.EndedAt, t.DurationMS = b.first, b.last, duration(b.first, b.last)
	t.Messages = []Message{}
	t.Subagents = []Subagent{}
	t.Usage.Scope = ScopeSession
	for _, name := range b.order {
		c := b.streams[name]
		c.finish()
		t.Usage.Add(&c.usage)
		t.Counts.add(c.counts)
		if name == agt.StreamMain {
			t.Messages = c.msgs
			continue
		}
		sub := Subagent{
			Stream: name, Model: top(c.models, nil), StartedAt: c.first, EndedAt: c.last,
			Messages: c.msgs, Usage: c.usage, CostUSD: c.usage.CostUSD, Counts: c.counts,
		}
		sub.Usage.Scope, sub.Usage.CostUSD = ScopeSession, nil
		t.Subagents = append(t.Subagents, sub)
	}
	t.CostUSD, t.Usage.CostUSD = t.Usage.CostUSD, nil
	return t
}

// finish marks calls without a result and fills empty message lists.
func (c *conv) finish() {
	if c.msgs == nil {
		c.msgs = []Message{}
	}
	for i := range c.msgs {
		for j := range c.msgs[i].ToolCalls {
			if c.msgs[i].ToolCalls[j].Status == StatusUnknown {
				c.counts.UnpairedCalls++
			}
		}
	}
}

// top is the model used most, ties broken by first use.
func top(count map[string]int, order []string) string {
	if order == nil {
		for m := range count {
			order = append(order, m)
		}
		sortStrings(order)
	}
	best := ""
	for _, m := range order {
		if best == "" || count[m] > count[best] {
			best = m
		}
	}
	return best
}

// join appends text b to a (JSON string literals), a blank line between.
func join(a, b agt.Raw) agt.Raw {
	switch {
	case len(b) == 0:
		return a
	case len(a) == 0:
		return b
	}
	return agt.String(a.Str() + "\n\n" + b.Str())
}

func minTS(a, b string) string {
	if a == "" || b < a {
		return b
	}
	return a
}

func maxTS(a, b string) string {
	if b > a {
		return b
	}
	return a
}

// duration is b - a in milliseconds, nil when either is missing.
func duration(a, b string) *int64 {
	if a == "" || b == "" {
		return nil
	}
	ta, err1 := time.Parse(time.RFC3339Nano, a)
	tb, err2 := time.Parse(time.RFC3339Nano, b)
	if err1 != nil || err2 != nil {
		return nil
	}
	d := tb.Sub(ta).Milliseconds()
	return &d
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && strings.Compare(s[j-1], s[j]) > 0; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
}
