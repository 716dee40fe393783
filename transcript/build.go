package transcript

import (
	"bytes"
	"slices"
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
	bySrc   recent[agt.Src]    // source of an event → its message (usage attaches there)
	byCall  recent[string]     // stream NUL usage.message_id → the message holding that call's usage
	models  map[string]int     // model → assistant messages using it
	events  []agt.Event        // kept for stream logs only
	keep    bool
	first   string
	last    string
	mem     arena             // copies of the bytes kept from events
	names   map[string]string // interned models, tool names and kinds
	runs    *int64            // the sum of the durations result records state
	// agent id → the native id of the tool call whose result names that
	// agent (meta.agent): the call that started the subagent
	startedBy map[string]string
	cut       string // the message of the last event when it is an error event (an unreadable line)
	// the provisional calls not settled yet
	unsettled unsettled
	unit      string // the key of the input unit of its first event
	// the main stream's run-scope usage, for the turns
	runUsage []runNote
	spill    bool   // older messages are spilled (Consolidator.Spill)
	store    *store // where they are, once the session is long enough
	lastConv *conv  // the conversation of the last event
	values   int    // messages made so far, until the store is made
	raw      bool   // messages keep their events' records (Consolidator.Raw)
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

// recentSize is how many keys a generation of a recent map holds.
var recentSize = 1 << 14

// recent maps keys to messages, forgetting the oldest keys: the keys set
// last (between recentSize and twice as many) are found. A usage event
// finds its message by the source line or the model call of events that
// came just before it (the events of one record, of one call, come
// together), so that a session's lookups need not grow with it.
type recent[K comparable] struct {
	cur, old map[K]msgRef
}

func (r *recent[K]) get(k K) (msgRef, bool) {
	if v, ok := r.cur[k]; ok {
		return v, true
	}
	v, ok := r.old[k]
	return v, ok
}

func (r *recent[K]) has(k K) bool {
	_, ok := r.get(k)
	return ok
}

func (r *recent[K]) set(k K, v msgRef) {
	if _, ok := r.cur[k]; !ok && len(r.cur) >= recentSize {
		r.old, r.cur = r.cur, nil
	}
	if r.cur == nil {
		r.cur = map[K]msgRef{}
	}
	r.cur[k] = v
}

// conv is the conversation of one stream.
type conv struct {
	name string
	// the messages held as values, from index base on; those before it
	// are spilled (see spill)
	msgs    []Message
	base    int
	spilled *spill
	paired  int // tool calls that have their result
	open    int // index of the assistant message being built, -1 when none
	// the message id (model call) of the open message, when its events name one
	openID string
	// index of the latest assistant message, -1 when none
	lastAssistant int
	answered      bool
	usage         agt.Usage
	counts        Counts
	first         string
	last          string
	models        map[string]int
	modelOrder    []string // models by first use in the stream
	// text and reasoning of the open assistant message, joined when it
	// closes (joining at every event would copy the text again each time)
	text, reasoning joined
	// the end signal of the current turn (Status "" when none), whether
	// the conversation went on after it, the failure signals met, and the
	// kind of the latest event that carried the conversation on
	sig     agt.Outcome
	moved   bool
	failed  int
	lastAct string
}

// joined gathers the texts of an assistant message, a blank line between.
type joined struct {
	first agt.Raw // the only text, as it came
	sb    strings.Builder
	n     int
}

func (j *joined) add(r agt.Raw) {
	if len(r) == 0 {
		return
	}
	switch j.n {
	case 0:
		j.first = r
	case 1:
		j.sb.WriteString(j.first.Str())
		fallthrough
	default:
		j.sb.WriteString("\n\n")
		j.sb.WriteString(r.Str())
	}
	j.n++
}

// take returns the joined text (a JSON string literal) and resets j.
func (j *joined) take() agt.Raw {
	r := j.first
	if j.n > 1 {
		r = agt.String(j.sb.String())
	}
	*j = joined{}
	return r
}

// size is the number of messages of the conversation.
func (c *conv) size() int { return c.base + len(c.msgs) }

// msg returns message i, to read or change: a spilled one is reopened.
func (c *conv) msg(i int) *Message {
	if i >= c.base {
		return &c.msgs[i-c.base]
	}
	return c.spilled.reopen(i)
}

// shed spills the messages before the last keep once twice as many are
// held (never the open message and those after it) into st.
func (c *conv) shed(st *store, keep int) {
	if len(c.msgs) < 2*keep {
		return
	}
	k := len(c.msgs) - keep
	if c.open >= 0 {
		k = min(k, c.open-c.base)
	}
	if k <= 0 {
		return
	}
	if c.spilled == nil {
		c.spilled = &spill{st: st}
	}
	c.spilled.add(c.msgs[:k])
	n := copy(c.msgs, c.msgs[k:])
	clear(c.msgs[n:])
	c.msgs = c.msgs[:n]
	c.base += k
}

// close ends the open assistant message: its texts are joined.
func (c *conv) close() {
	if c.open >= 0 {
		m := c.msg(c.open)
		if c.text.n > 0 {
			m.Text = c.text.take()
		}
		if c.reasoning.n > 0 {
			m.Reasoning = c.reasoning.take()
		}
	}
	c.open, c.openID = -1, ""
}

// arena holds copies of the bytes a transcript keeps from events, which
// would otherwise pin the whole read buffers they point into. Apart, each
// copy is a value of its own: the messages of a spilled session go while
// a few stay, and a chunk of the arena would stay whole for any of them.
type arena struct {
	buf   []byte
	apart bool
	n     int  // bytes copied
	unit  *int // bytes copied by the sessions of the unit (Consolidator.held)
}

func (a *arena) raw(r agt.Raw) agt.Raw {
	if len(r) == 0 {
		return r
	}
	a.n += len(r)
	if a.unit != nil {
		*a.unit += len(r)
	}
	if len(r) > 64<<10 || a.apart {
		return bytes.Clone(r)
	}
	if cap(a.buf)-len(a.buf) < len(r) {
		a.buf = make([]byte, 0, min(1<<20, max(4<<10, 2*cap(a.buf))))
	}
	n := len(a.buf)
	a.buf = append(a.buf, r...)
	return a.buf[n:len(a.buf):len(a.buf)]
}

// str copies a string kept from an event.
func (a *arena) str(s string) string {
	if s == "" {
		return ""
	}
	return string(a.raw(agt.Raw(s)))
}

// name interns a string that repeats (a model, a tool name or kind).
func (b *builder) name(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := b.names[s]; ok {
		return v
	}
	s = strings.Clone(s)
	b.names[s] = s
	return s
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
		models:  map[string]int{},
		names:   map[string]string{},
		keep:    keep,
	}
}

func (b *builder) conv(name string) *conv {
	c := b.streams[name]
	if c == nil {
		c = &conv{name: name, open: -1, lastAssistant: -1, models: map[string]int{}}
		b.streams[name] = c
		b.order = append(b.order, name)
	}
	return c
}

// roles of the conversational event kinds, and the kind their message
// keeps (when the role alone does not tell it).
var roles = map[string]struct{ role, kind string }{
	agt.KindUser:         {RoleUser, ""},
	agt.KindSlashCommand: {RoleUser, KindCommand},
	agt.KindSystem:       {RoleSystem, ""},
	agt.KindSummary:      {RoleSystem, KindCompaction},
	agt.KindError:        {RoleSystem, KindError},
}

// notCompaction are the meta types of summaries that did not replace the
// context: a Claude Code session title record, a Pi branch summary, a
// Copilot task summary. Every other summary is a compaction's.
var notCompaction = map[string]bool{"summary": true, "branch_summary": true, "session.task_complete": true}

// add consolidates one event.
func (b *builder) add(ev *agt.Event) {
	if b.keep {
		b.events = append(b.events, *ev)
	}
	if ev.Format != "" && b.t.Format == "" {
		b.t.Format = ev.Format
	}
	c := b.conv(ev.Stream)
	if b.spill && b.store == nil && b.values >= 2*spillWindow && b.mem.n >= spillFrom && (b.mem.unit == nil || *b.mem.unit >= spillUnit) {
		// long enough to spill (a short session spills nothing, and
		// costs no compression): from now on its bytes are copied one
		// by one, not into the arena
		b.store, b.mem.apart = &store{}, true
	}
	if b.store != nil { // before any message of the event is looked up
		c.shed(b.store, spillWindow)
		// the stream the events leave (a subagent's, the main one while a
		// subagent runs) keeps its last message only: a session may have
		// hundreds of subagents, each a few messages
		if p := b.lastConv; p != nil && p != c {
			p.shed(b.store, 1)
		}
		b.lastConv = c
	}
	b.turn(c, ev)
	ts := ev.TS // copied only where it is kept
	if ts != "" {
		span(&b.first, &b.last, ts)
		span(&c.first, &c.last, ts)
	}
	if m := ev.Meta; m != nil {
		b.meta(m)
		if m.ParentSession != "" && b.t.ParentSession == "" && ev.Stream == agt.StreamMain && m.ParentSession != ev.NativeSession {
			b.t.ParentSession = strings.Clone(m.ParentSession)
		}
	}
	if to, ok := b.place(c, ev, ts); ok && b.raw && len(ev.Raw) > 0 {
		to.c.msg(to.msg).keep(&b.mem, ev.Raw)
	}
}

// keep adds an event's record to the message's, unless it is the last one
// already there (the events of one record come one after another).
func (m *Message) keep(mem *arena, raw agt.Raw) {
	if n := len(m.Raw); n == 0 || !bytes.Equal(m.Raw[n-1], raw) {
		m.Raw = append(m.Raw, mem.raw(raw))
	}
}

// place consolidates the conversational part of an event and tells which
// message it went to, if any.
func (b *builder) place(c *conv, ev *agt.Event, ts string) (msgRef, bool) {
	switch ev.Kind {
	case agt.KindAssistant, agt.KindReasoning:
		c.assistant(b, ev, true)
		if ev.Kind == agt.KindAssistant {
			c.text.add(b.mem.raw(ev.Text))
		} else {
			c.reasoning.add(b.mem.raw(ev.Text))
		}
		b.bySrc.set(ev.Src, msgRef{c, c.open})
		b.model(c, ev.Model)
		return msgRef{c, c.open}, true
	case agt.KindToolCall:
		if ev.Tool == nil { // never from input (events are checked); an in-process event
			return msgRef{}, false
		}
		m := c.assistant(b, ev, false)
		t := ev.Tool
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: b.mem.str(t.ID), Name: b.name(t.Name), NativeName: b.name(t.NativeName), Via: b.name(t.Via), Kind: b.name(t.Kind), Input: b.mem.raw(t.Input), Status: StatusUnknown, StartedAt: b.mem.str(ts)})
		// kept until the call's result comes, forever when none does: its
		// own copy of the time, not one in the arena, which it would keep
		// whole once the message is spilled
		ref := callRef{c, c.open, len(m.ToolCalls) - 1, strings.Clone(ts)}
		b.calls[strings.Clone(ev.ID)] = ref
		if t.ID != "" {
			b.native[ev.Stream+"\x00"+t.ID] = ref
		}
		b.bySrc.set(ev.Src, msgRef{c, c.open})
		c.counts.ToolCalls++
		b.model(c, ev.Model)
		return msgRef{c, c.open}, true
	case agt.KindToolResult:
		return b.result(c, ev, ts)
	case agt.KindUsage:
		return b.usage(c, ev)
	case agt.KindUnknown:
		c.counts.Unknown++
	default:
		r, ok := roles[ev.Kind]
		if !ok {
			return msgRef{}, false
		}
		kind := r.kind
		if kind == KindCompaction && ev.Meta != nil && notCompaction[ev.Meta.Type] {
			kind = KindSummary
		}
		if ev.Kind == agt.KindError {
			c.counts.Errors++
		}
		text := ev.Text
		if ev.Kind == agt.KindError && ev.Error != nil {
			text = agt.String("error: " + ev.Error.Message)
		}
		c.close()
		c.msgs = append(c.msgs, Message{Index: c.size(), Role: r.role, Kind: kind, TS: b.mem.str(ts), Text: b.mem.raw(text), Model: b.name(ev.Model)})
		c.counts.Messages++
		b.values++
		return msgRef{c, c.size() - 1}, true
	}
	return msgRef{}, false
}

// assistant returns the assistant message an event belongs to. A message is
// one model call. Where events name their call (message_id), an event of
// another call opens a new message. Elsewhere a new one opens when there is
// none, when the open one already has its call's usage (the call is over: the
// next assistant-side event is another call's), or when the model speaks
// again (text or reasoning) after results of its calls came back.
func (c *conv) assistant(b *builder, ev *agt.Event, speaks bool) *Message {
	var m *Message
	if c.open >= 0 && c.same(ev, speaks) {
		m = c.msg(c.open)
		if m.Model == "" {
			m.Model = b.name(ev.Model)
		}
	} else {
		m = c.newAssistant(b, ev)
	}
	if id := ev.MessageID; id != "" && c.openID == "" {
		c.openID = strings.Clone(id)
		// the call's usage finds its message by id; a call whose events
		// come back after another's began keeps its first message
		if k := ev.Stream + "\x00" + id; !b.byCall.has(k) {
			b.byCall.set(k, msgRef{c, c.open})
		}
	}
	return m
}

// same tells whether ev belongs to the open message.
func (c *conv) same(ev *agt.Event, speaks bool) bool {
	if ev.MessageID != "" && c.openID != "" {
		return ev.MessageID == c.openID
	}
	return c.msg(c.open).Usage == nil && !(speaks && c.answered)
}

// newAssistant closes the open message and opens a new assistant message.
func (c *conv) newAssistant(b *builder, ev *agt.Event) *Message {
	c.close()
	c.open = c.size()
	c.lastAssistant = c.open
	c.answered = false
	c.msgs = append(c.msgs, Message{Index: c.open, Role: RoleAssistant, TS: b.mem.str(ev.TS), Model: b.name(ev.Model)})
	c.counts.Messages++
	b.values++
	return &c.msgs[len(c.msgs)-1]
}

func (b *builder) model(c *conv, m string) {
	if m != "" {
		m = b.name(m)
		if _, ok := c.models[m]; !ok {
			c.modelOrder = append(c.modelOrder, m)
		}
		b.models[m]++
		c.models[m]++
	}
}

// result pairs a tool result with its call, and returns the call's message.
func (b *builder) result(c *conv, ev *agt.Event, ts string) (msgRef, bool) {
	r := ev.Result
	if r == nil {
		return msgRef{}, false
	}
	if m := ev.Meta; m != nil && m.Agent != "" && r.ID != "" && b.startedBy[m.Agent] == "" {
		if b.startedBy == nil {
			b.startedBy = map[string]string{}
		}
		b.startedBy[strings.Clone(m.Agent)] = strings.Clone(r.ID)
	}
	ref, ok := b.calls[r.Call]
	if !ok && r.ID != "" {
		ref, ok = b.native[ev.Stream+"\x00"+r.ID]
	}
	if !ok {
		c.counts.UnpairedResults++
		return msgRef{}, false
	}
	tc := &ref.c.msg(ref.msg).ToolCalls[ref.call]
	if tc.Status != StatusUnknown { // a second result for the call
		c.counts.UnpairedResults++
		return msgRef{}, false
	}
	// a paired call is no longer looked up: a second result for it finds
	// nothing and is unpaired, as it would be found answered
	delete(b.calls, r.Call)
	if k := ref.c.name + "\x00" + tc.ID; tc.ID != "" && b.native[k] == ref {
		delete(b.native, k)
	}
	tc.Output, tc.IsError, tc.ExitCode, tc.EndedAt = b.mem.raw(r.Output), r.IsError, r.ExitCode, b.mem.str(ts)
	tc.Status = StatusOK
	ref.c.paired++
	if r.IsError {
		tc.Status = StatusError
		ref.c.counts.ToolErrors++
	}
	tc.DurationMS = duration(ref.ts, ts)
	if r.DurationMS != nil && *r.DurationMS >= 0 { // the log's own figure wins over its timestamps
		d := *r.DurationMS
		tc.DurationMS = &d
	}
	if ref.c.open == ref.msg {
		ref.c.answered = true
	}
	return msgRef{ref.c, ref.msg}, true
}

// usage attaches a call-scope usage event to the message of its call: the
// message that already holds usage of the same message id (a correction of
// its figures), else the message holding an event of the usage's source line,
// else the open message (unless its events name another call), else the
// stream's last assistant message. A message holds one call's usage: when
// the one found already has another's, the call had no event of its own (or
// none yet: its events that come after it, naming its id, join the message)
// and gets a message of its own, empty but for its usage. Run-scope usage
// counts in the totals only. It returns the message the usage went to.
func (b *builder) usage(c *conv, ev *agt.Event) (msgRef, bool) {
	u := ev.Usage
	if u == nil {
		return msgRef{}, false
	}
	c.usage.Add(u)
	b.unsettled.note(ev)
	b.model(c, ev.Model)
	if u.ContextWindow > b.t.ContextWindow { // run totals name their window too
		b.t.ContextWindow = u.ContextWindow
	}
	if u.Scope != agt.ScopeCall {
		b.noteRun(c, ev)
		return msgRef{}, false
	}
	key := ""
	if u.MessageID != "" {
		key = ev.Stream + "\x00" + u.MessageID
	}
	ref, ok := b.byCall.get(key)
	if !ok || key == "" {
		ref, ok = b.bySrc.get(ev.Src)
		// the open message, unless its events name another call
		if !ok && c.open >= 0 && (key == "" || c.openID == "") {
			ref, ok = msgRef{c, c.open}, true
		} else if !ok && c.lastAssistant >= 0 && c.open < 0 {
			ref, ok = msgRef{c, c.lastAssistant}, true
		}
		if !ok || ref.c.msg(ref.msg).Usage != nil {
			c.newAssistant(b, ev)
			ref = msgRef{c, c.open}
			// the call's events that come after its usage join its message
			c.openID = strings.Clone(u.MessageID)
		}
		if key != "" {
			b.byCall.set(strings.Clone(key), ref)
		}
	}
	m := ref.c.msg(ref.msg)
	if m.Usage == nil {
		m.Usage = &agt.Usage{Scope: agt.ScopeCall}
	}
	mu := *u
	mu.MessageID, mu.ContextWindow = "", 0
	m.Usage.Add(&mu)
	if m.Model == "" {
		m.Model = b.name(ev.Model)
	}
	return ref, true
}

func (b *builder) meta(m *agt.Meta) {
	t := &b.t
	if t.Cwd == "" {
		t.Cwd = strings.Clone(m.Cwd)
	}
	if t.GitBranch == "" {
		t.GitBranch = strings.Clone(m.GitBranch)
	}
	if m.Version != "" && m.Version != t.Version {
		t.Version = strings.Clone(m.Version)
	}
	if m.Title != "" && m.Title != t.Title {
		t.Title = strings.Clone(m.Title)
	}
	if m.Type == "result" && len(m.Data) > 0 {
		var d struct {
			Duration *int64 `json:"duration_ms"`
		}
		if agt.API.Unmarshal(m.Data, &d) == nil && d.Duration != nil && *d.Duration > 0 {
			if b.runs == nil {
				b.runs = new(int64)
			}
			*b.runs += *d.Duration
		}
	}
}

// activity are the event kinds that carry a conversation on: after one, an
// earlier end signal no longer says how the turn ended.
var activity = map[string]bool{
	agt.KindUser: true, agt.KindAssistant: true, agt.KindReasoning: true,
	agt.KindToolCall: true, agt.KindToolResult: true,
}

// turn follows how the current turn of ev's stream stands: a user message
// begins a new turn (no end signal yet), an event of the conversation makes
// an earlier signal stale, and an event carrying a signal (meta.outcome)
// sets it. An error event (an unreadable line) is noted while it is the
// session's last event.
func (b *builder) turn(c *conv, ev *agt.Event) {
	b.cut = ""
	if ev.Kind == agt.KindError {
		b.cut = "unreadable line"
		if ev.Error != nil && ev.Error.Message != "" {
			b.cut = strings.Clone(ev.Error.Message)
		}
	}
	if ev.Kind == agt.KindUser {
		c.sig = agt.Outcome{}
	}
	if activity[ev.Kind] {
		c.lastAct = ev.Kind
	}
	if ev.Meta == nil || ev.Meta.Outcome == nil {
		c.moved = c.moved || activity[ev.Kind]
		return
	}
	// failure signals with nothing of the conversation between them are one
	// error (retries and the closing result restate it); the signal's own
	// event (an API error message) is not between
	o := ev.Meta.Outcome
	if agt.Failed(o.Status) && (!agt.Failed(c.sig.Status) || c.moved) {
		c.failed++
	}
	c.sig, c.moved = agt.Outcome{Status: b.name(o.Status), Reason: strings.Clone(o.Reason)}, false
}

// outcome is how the stream's run ended (its counts final): the last
// turn's end signal when nothing of the conversation came after it; else
// truncated when the stream ends in a tool call with no result; else
// unknown.
func (c *conv) outcome() Outcome {
	o := Outcome{Status: agt.OutcomeUnknown, Errors: c.counts.Errors + c.failed}
	switch {
	case c.sig.Status != "" && !c.moved:
		o.Status, o.Reason = c.sig.Status, c.sig.Reason
	case c.cutMidCall():
		o.Status, o.Reason = agt.OutcomeTruncated, "the log ends in a tool call with no result"
	}
	return o
}

// cutMidCall tells whether the stream ends in a tool call with no result:
// its last message is an assistant message with such a call, and no text,
// reasoning or user message came after its calls.
func (c *conv) cutMidCall() bool {
	n := c.size() - 1
	if n < 0 || c.lastAssistant != n || (c.lastAct != agt.KindToolCall && c.lastAct != agt.KindToolResult) {
		return false
	}
	for _, tc := range c.msg(n).ToolCalls {
		if tc.Status == StatusUnknown {
			return true
		}
	}
	return false
}

// transcript finishes the session's transcript.
func (b *builder) transcript() *Transcript {
	t := &b.t
	t.StartedAt, t.EndedAt, t.DurationMS = b.first, b.last, duration(b.first, b.last)
	if b.runs != nil { // the log's own figure wins over its timestamps
		t.DurationMS = b.runs
	}
	t.Messages = []Message{}
	t.Subagents = []Subagent{}
	t.Usage.Scope = ScopeSession
	t.Outcome = Outcome{Status: agt.OutcomeUnknown}
	// the streams in an order that does not depend on how their events
	// interleaved (files followed side by side): the main stream, then
	// the subagents in the order they started, those without a time last,
	// ties by stream name
	order := slices.Clone(b.order)
	slices.SortStableFunc(order, func(x, y string) int {
		if (x == agt.StreamMain) != (y == agt.StreamMain) {
			if x == agt.StreamMain {
				return -1
			}
			return 1
		}
		a, b := b.streams[x], b.streams[y]
		if (a.first == "") != (b.first == "") {
			if a.first == "" {
				return 1
			}
			return -1
		}
		if c := strings.Compare(a.first, b.first); c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
	if b.store != nil {
		b.store.end()
	}
	errs := 0
	for _, name := range order {
		c := b.streams[name]
		c.close()
		c.finish()
		t.Usage.Add(&c.usage)
		t.Counts.add(c.counts)
		for _, m := range c.modelOrder {
			if !slices.Contains(t.Models, m) {
				t.Models = append(t.Models, m)
			}
		}
		o := c.outcome()
		errs += o.Errors
		if name == agt.StreamMain {
			t.Messages, t.spill = c.msgs, c.spilled
			t.Outcome = o
			continue
		}
		_, agent, _ := strings.Cut(name, ":") // sidechain:<agent>, subagent:<agent>
		sub := Subagent{
			Stream: name, ToolCallID: b.startedBy[agent], Model: top(c.models, nil), StartedAt: c.first, EndedAt: c.last,
			Messages: c.msgs, Usage: c.usage, CostUSD: c.usage.CostUSD, NativeCostUSD: c.usage.NativeCostUSD, Counts: c.counts,
			Outcome: o, spill: c.spilled,
		}
		sub.Usage.Scope, sub.Usage.CostUSD, sub.Usage.NativeCostUSD = ScopeSession, nil, nil
		t.Subagents = append(t.Subagents, sub)
	}
	t.Models = orEmpty(t.Models)
	t.Model = top(b.models, t.Models)
	// the session's errors are its subagents' too, as its counts are; a
	// last line that could not be read says the log is cut, whatever came
	// before it
	t.Outcome.Errors = errs
	if b.cut != "" {
		t.Outcome.Status, t.Outcome.Reason = agt.OutcomeTruncated, "the log's last line could not be read: "+b.cut
	}
	// usage still provisional at the end: the run stopped before the
	// figures that settle it (Claude's result line), so it did not end on
	// its own (an unreadable last line still says truncated)
	if len(b.unsettled) > 0 {
		t.Usage.Provisional = true
		if st := t.Outcome.Status; st == agt.OutcomeUnknown || st == agt.OutcomeTruncated && b.cut == "" {
			t.Outcome.Status, t.Outcome.Reason = agt.OutcomeInterrupted, "the run ended before its final usage"
		}
	}
	t.CostUSD, t.Usage.CostUSD = t.Usage.CostUSD, nil
	t.NativeCostUSD, t.Usage.NativeCostUSD = t.Usage.NativeCostUSD, nil
	t.Turns = turns(t, b.runUsage)
	return t
}

// finish counts calls without a result and fills empty message lists.
func (c *conv) finish() {
	if c.msgs == nil {
		c.msgs = []Message{}
	}
	c.counts.UnpairedCalls = c.counts.ToolCalls - c.paired
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

// span widens [first, last] to ts, copying what it keeps.
func span(first, last *string, ts string) {
	if *first == "" || ts < *first {
		*first = strings.Clone(ts)
	}
	if ts > *last {
		*last = strings.Clone(ts)
	}
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
