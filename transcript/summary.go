package transcript

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agt-project/agt"
)

// Summary writes the summary stream log: a header line when a session
// starts, one readable line per message, tool call and result, a line with
// the session's running token and cost totals at each usage (a model call's,
// or a run's), and a closing line with the session's totals when it ends:
//
//	2026-01-28T22:26:40.001Z session    claude 0a1b2c3d · cwd /home/dev/app
//	2026-01-28T22:26:46.793Z tool       (claude-opus-4-5) Bash  git status
//	2026-01-28T22:26:46.842Z result     Bash  ok  On branch main
//	2026-01-28T22:26:47.120Z usage      Σ $0.0421 · 53.5k tok · ctx 27% · 12.3k in · 1.2k out · 40k cache read
//	2026-01-28T22:28:02.310Z end        $0.0421 · 53,510 tok · 12,301 in · 1,187 out · 40,022 cache read · 1m22s · 1 tool call
//
// A stream that names its session late (Copilot CLI --output-format json,
// Pi RPC) begins in a provisional session: its header names that one, and a
// "named" line, when the session_named event comes, names the session the
// run goes on in (the same number, the same running totals):
//
//	2026-11-22T08:25:32.132Z named      copilot 4afdc0fe-6b0e-48b8-a567-62d4527f07c2
//
// The running totals of a model call are written when its usage event comes.
// A usage line begins with what a narrow terminal must keep: the running
// cost and tokens, then the context the stream's latest call filled (its
// input and cache tokens over the model's context window), then the burn
// rate (tokens and cost per minute over the usage events of the last
// BurnWindow, by their times), then the line's stream and model and the
// tokens by kind. Figures that still hold provisional usage (a live Claude
// run before its result line) begin with "~"; the closing line's too when
// the transcript's usage stayed provisional.
// A model is shown, in parentheses, on the first line of a stream that names
// it (the header, a model call's line) and again when it changes. When the
// output holds more than one session, the lines of the second session and
// of every session after it begin with the session's number (#2, #1, …).
// Everything but the labels comes from the log and is escaped, so that no
// control character or escape sequence reaches a terminal. Colors are for
// terminals only.
type Summary struct {
	// Width, when above 0, cuts each line to that many columns (the width
	// of the terminal it goes to); 0 writes lines whole.
	Width int
	// Clock, when set (a live run), is the time of a usage event that has
	// none, for the burn rate; nil leaves such events out of it, so that
	// the lines of a log read afterwards are the same at every run.
	Clock func() time.Time
	// Heartbeat, when above 0 and with a Clock, is how long a tool call may
	// run without its result before Beat says it runs ("Bash running 45s"),
	// and again at every such interval.
	Heartbeat time.Duration
	// Past, when set, tells the events that are counted but not shown
	// (following from the end, the lines the files held before): a
	// session's header then gives its totals so far.
	Past func(ev *agt.Event) bool

	mu       sync.Mutex // Event, End, Flush and Beat come from two goroutines in a live run
	w        *bufio.Writer
	out      io.Writer
	color    bool
	sessions map[string]*sessionLog
	started  int // sessions begun so far
	calls    int // tool calls begun so far (with a heartbeat)
}

// sessionLog is what the summary keeps of a session under way.
type sessionLog struct {
	num   int
	names map[string]string // call event id → tool name, until its result
	// call event id → the tool call running, while it has no result (with
	// a Clock only)
	tools   map[string]*run
	streams []string // by first appearance: the order the transcript sums them in
	usage   map[string]*agt.Usage
	model   map[string]string // stream → the model last shown
	// provisional calls not settled yet (see unsettled)
	pending unsettled
	// stream → the context its latest model call filled
	fill map[string]*fill
	// the usage of the latest calls, for the burn rate
	burn []sample
	// the header: whether it is written, and what it tells
	headed                           bool
	past                             bool // events counted before the first shown (Summary.Past)
	ts, provider, native, cwd, first string
	shown                            string // the latest time a line showed
}

// fill is the context one model call filled: its input and cache tokens,
// and the model's context window.
type fill struct {
	call   string // its message id
	tokens int64
	window int64
}

// run is a tool call without its result yet: when its line was written, by
// the clock, and when the latest heartbeat line about it was.
type run struct {
	name, stream string
	since, beat  time.Time
	seq          int // the order calls began in, for Beat's order
}

// sample is the usage of one usage event at its time.
type sample struct {
	at     time.Time
	tokens int64
	cost   float64
}

// BurnWindow is how far back the burn rate looks: the usage events of the
// last five minutes (by the events' times).
const BurnWindow = 5 * time.Minute

// SetWidth sets Width while lines may be written (a terminal resized in a
// live run, whose heartbeat writes from another goroutine).
func (s *Summary) SetWidth(n int) {
	s.mu.Lock()
	s.Width = n
	s.mu.Unlock()
}

// NewSummary writes summary lines to w.
func NewSummary(w io.Writer, color bool) *Summary {
	return &Summary{w: bufio.NewWriter(w), out: w, color: color, sessions: map[string]*sessionLog{}}
}

// labels of the lines, with their ANSI color: the event kinds shown, and
// the session's own lines.
var labels = map[string]struct{ text, color string }{
	agt.KindUser:         {"user", "32"},
	agt.KindAssistant:    {"assistant", "36"},
	agt.KindReasoning:    {"thinking", "90"},
	agt.KindToolCall:     {"tool", "33"},
	agt.KindToolResult:   {"result", "33"},
	agt.KindSystem:       {"system", "35"},
	agt.KindSummary:      {"summary", "35"},
	agt.KindSlashCommand: {"command", "32"},
	agt.KindError:        {"error", "31"},
	agt.KindUnknown:      {"unknown", "31"},
	agt.KindUsage:        {"usage", "34"},
	lineSession:          {"session", "1;34"},
	lineNamed:            {"named", "1;34"},
	lineEnd:              {"end", "1;34"},
	lineRunning:          {"running", "33"},
}

// The session's own lines.
const (
	lineSession = "session start"
	lineNamed   = "session named"
	lineEnd     = "session end"
	lineRunning = "tool running"
)

// modelLines are the kinds whose lines are the model's: they show its name
// when it is new to their stream.
var modelLines = map[string]bool{agt.KindAssistant: true, agt.KindReasoning: true, agt.KindToolCall: true, agt.KindUsage: true}

// Event writes the lines of one event: the session's header first when the
// event is the first of the session to have a line, then the event's own
// line, if it has one.
func (s *Summary) Event(ev *agt.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := agt.Continued(ev); p != "" && s.sessions[p] != nil && s.sessions[ev.Session] == nil {
		return s.named(p, ev)
	}
	st := s.sessions[ev.Session]
	if st == nil {
		st = s.begin(ev.Session)
	}
	u := st.usage[ev.Stream]
	if u == nil {
		u = &agt.Usage{}
		stream := strings.Clone(ev.Stream) // kept: not the read buffer
		st.usage[stream] = u
		st.streams = append(st.streams, stream)
	}
	if !st.headed {
		st.learn(ev)
	}
	if _, ok := labels[ev.Kind]; !ok || (ev.Kind == agt.KindUsage && ev.Usage == nil) {
		return nil
	}
	if s.Past != nil && s.Past(ev) {
		if ev.Kind == agt.KindUsage {
			u.Add(ev.Usage)
		}
		st.past = true
		return nil
	}
	if ev.Kind == agt.KindReasoning && strings.TrimSpace(ev.Text.Str()) == "" {
		return nil // redacted thinking (Claude keeps its signature only): nothing to read
	}
	if !st.headed {
		if err := s.header(st); err != nil {
			return err
		}
	}
	var body string
	switch {
	case ev.Kind == agt.KindToolCall && ev.Tool != nil:
		st.names[strings.Clone(ev.ID)] = strings.Clone(ev.Tool.Name) // a call with no result keeps them: not the read buffer
		if now := s.clockTime(); !now.IsZero() && !past(ev.TS, now) {
			s.calls++
			st.tools[ev.ID] = &run{name: strings.Clone(ev.Tool.Name), stream: strings.Clone(ev.Stream), since: now, beat: now, seq: s.calls}
		}
		body = ev.Tool.Name + "  " + inputSummary(ev.Tool.Input, s.budget())
	case ev.Kind == agt.KindToolResult && ev.Result != nil:
		r := ev.Result
		status := StatusOK
		if r.IsError {
			status = StatusError
			if r.ExitCode != nil {
				status += fmt.Sprintf(" (exit %d)", *r.ExitCode)
			}
		}
		delete(st.tools, r.Call)
		name, ok := st.names[r.Call]
		if ok {
			delete(st.names, r.Call)
		} else {
			name = r.ID
		}
		body = name + "  " + status + "  " + oneLine(r.Output.Str(), s.budget())
	case ev.Kind == agt.KindUsage:
		u.Add(ev.Usage)
		st.pending.note(ev)
		st.note(ev, s.Clock)
		return s.line(st, st.known(ev.TS), ev.Kind, st.running(ev.Stream, s.tag(st, ev)))
	case ev.Kind == agt.KindError && ev.Error != nil:
		body = oneLine(ev.Error.Message, s.budget())
	case ev.Kind == agt.KindUnknown:
		if ev.Meta != nil {
			body = oneLine(ev.Meta.Type, s.budget())
		}
	case ev.Kind == agt.KindToolCall, ev.Kind == agt.KindToolResult, ev.Kind == agt.KindError:
		// no payload (an event made in-process): the label says enough
	default:
		body = oneLine(ev.Text.Str(), s.budget())
	}
	if tag := s.tag(st, ev); tag != "" {
		body = tag + " " + body
	}
	ts := ev.TS
	if ev.Kind == agt.KindUsage {
		ts = st.known(ts)
	}
	return s.line(st, ts, ev.Kind, body)
}

// known is the time a usage line shows: its event's (the model call's
// start) unless a line of the session already showed a later one (the
// call's own output, its tool results), that time, when its figures were
// known: the clock of a session's lines never runs backwards.
func (st *sessionLog) known(ts string) string {
	if ts != "" && agt.Timestamp(ts) == ts && ts < st.shown {
		return st.shown
	}
	return ts
}

// tag names the stream of ev's line when it is not the main one, and the
// model when it is new to the stream: "[sidechain:a1] (model)".
func (s *Summary) tag(st *sessionLog, ev *agt.Event) string {
	var t []string
	if ev.Stream != agt.StreamMain && ev.Stream != "" {
		t = append(t, "["+oneLine(ev.Stream, s.budget())+"]")
	}
	if m := ev.Model; m != "" && modelLines[ev.Kind] && st.model[ev.Stream] != m {
		st.model[strings.Clone(ev.Stream)] = strings.Clone(m)
		t = append(t, "("+oneLine(m, s.budget())+")")
	}
	return strings.Join(t, " ")
}

// named makes the provisional session p ev's session, which continues it,
// and says so when the header named p.
func (s *Summary) named(p string, ev *agt.Event) error {
	st := s.sessions[p]
	delete(s.sessions, p)
	s.sessions[strings.Clone(ev.Session)] = st
	st.provider, st.native = strings.Clone(ev.Provider), strings.Clone(ev.NativeSession)
	if !st.headed {
		return nil
	}
	return s.line(st, ev.TS, lineNamed, oneLine(st.provider, s.budget())+" "+oneLine(st.native, s.budget()))
}

// End writes the closing line of a session, from its transcript: the
// session it ends (provider and native id, as its header) and the totals
// agt-transcript gives it. The session's next event, if one comes
// (its records in a later input group), begins it again.
func (s *Summary) End(t *Transcript) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.sessions[t.Session]
	if st == nil {
		st = s.begin(t.Session)
	}
	delete(s.sessions, t.Session)
	if !st.headed {
		if err := s.header(st); err != nil {
			return err
		}
	}
	u := t.Usage
	u.CostUSD = t.CostUSD
	name := st.provider + " " + st.native
	if st.provider == "" && st.native == "" {
		name = t.Provider + " " + t.NativeSession
	}
	// the cost first, where a narrow terminal keeps it; then the session
	parts := []string{totals(&u, exact, u.Provisional), strings.TrimSpace(oneLine(name, s.budget()))}
	if t.DurationMS != nil {
		parts = append(parts, elapsed(*t.DurationMS))
	}
	calls := plural(t.Counts.ToolCalls, "tool call")
	if t.Counts.ToolErrors > 0 {
		calls += fmt.Sprintf(" (%d failed)", t.Counts.ToolErrors)
	}
	parts = append(parts, calls)
	if t.Counts.Errors > 0 {
		parts = append(parts, plural(t.Counts.Errors, "error"))
	}
	return s.line(st, t.EndedAt, lineEnd, strings.Join(parts, " · "))
}

// Flush writes out buffered lines, and flushes the writer they go to when
// it buffers too (a stage.Writer).
func (s *Summary) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flush()
}

func (s *Summary) flush() error {
	if err := s.w.Flush(); err != nil {
		return err
	}
	if f, ok := s.out.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

// clockTime is the clock's time when there is a clock and a heartbeat,
// else zero.
func (s *Summary) clockTime() time.Time {
	if s.Clock == nil || s.Heartbeat <= 0 {
		return time.Time{}
	}
	return s.Clock()
}

// History is how long before the clock a tool call's own time must be for
// the call to be history (a followed file's past, a session that ended
// long ago without the result): it gets no heartbeat.
const History = 5 * time.Minute

// past tells whether an event's time is History or more before now.
func past(ts string, now time.Time) bool {
	t, err := time.Parse(time.RFC3339Nano, ts)
	return err == nil && now.Sub(t) >= History
}

// Beat writes a heartbeat line for each tool call that has run without its
// result for Heartbeat since its line (or its latest heartbeat line) at
// now: "Bash running 45s", stamped with now, in the order the calls began.
// A live run calls it every so often; it writes nothing without a Clock.
func (s *Summary) Beat(now time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Heartbeat <= 0 || s.Clock == nil {
		return nil
	}
	type due struct {
		st *sessionLog
		r  *run
	}
	var all []due
	for _, st := range s.sessions {
		for _, r := range st.tools {
			if now.Sub(r.beat) >= s.Heartbeat {
				all = append(all, due{st, r})
			}
		}
	}
	if len(all) == 0 {
		return nil
	}
	slices.SortFunc(all, func(a, b due) int { return a.r.seq - b.r.seq })
	stamp := now.UTC().Format("2006-01-02T15:04:05.000Z")
	for _, d := range all {
		d.r.beat = now
		body := d.r.name + " running " + seconds(now.Sub(d.r.since))
		if d.r.stream != agt.StreamMain && d.r.stream != "" {
			body = "[" + oneLine(d.r.stream, s.budget()) + "] " + body
		}
		if err := s.line(d.st, stamp, lineRunning, body); err != nil {
			return err
		}
	}
	return s.flush()
}

// begin starts keeping a session.
func (s *Summary) begin(session string) *sessionLog {
	s.started++
	st := &sessionLog{num: s.started, names: map[string]string{}, tools: map[string]*run{}, usage: map[string]*agt.Usage{}, model: map[string]string{}, fill: map[string]*fill{}}
	s.sessions[strings.Clone(session)] = st
	return st
}

// learn keeps what an event tells of its session for the header: the
// first time, and the provider, native id, folder and model first named.
func (st *sessionLog) learn(ev *agt.Event) {
	if st.ts == "" {
		st.ts = strings.Clone(ev.TS)
	}
	if st.provider == "" && st.native == "" {
		st.provider, st.native = strings.Clone(ev.Provider), strings.Clone(ev.NativeSession)
	}
	if st.cwd == "" && ev.Meta != nil {
		st.cwd = strings.Clone(ev.Meta.Cwd)
	}
	if st.first == "" && ev.Model != "" {
		st.first = strings.Clone(ev.Model)
		st.model[strings.Clone(ev.Stream)] = st.first
	}
}

// header writes the first line of a session, before the first line of its
// events: its provider and native id, and its model and folder when the
// events before named them (meta events, which have no line of their own).
func (s *Summary) header(st *sessionLog) error {
	st.headed = true
	parts := []string{strings.TrimSpace(oneLine(st.provider, s.budget()) + " " + oneLine(st.native, s.budget()))}
	if st.first != "" {
		parts = append(parts, "model "+oneLine(st.first, s.budget()))
	}
	if st.cwd != "" {
		parts = append(parts, "cwd "+oneLine(st.cwd, s.budget()))
	}
	if st.past {
		parts = append(parts, "so far Σ "+totals(st.total(), compact, st.total().Provisional))
	}
	return s.line(st, st.ts, lineSession, strings.Join(parts, " · "))
}

// total is the session's usage so far, its streams added up in the order
// the transcript adds them, so that the figures are the transcript's.
func (st *sessionLog) total() *agt.Usage {
	var t agt.Usage
	for _, name := range st.streams {
		t.Add(st.usage[name])
	}
	return &t
}

// line writes one line: its time, the session's number when the output
// holds more than one session, its label and its body, escaped, and cut to
// the width when there is one.
func (s *Summary) line(st *sessionLog, ts, kind, body string) error {
	l := labels[kind]
	if ts != "" && agt.Timestamp(ts) == ts && ts > st.shown {
		st.shown = ts
	}
	stamp := strings.Repeat(" ", 23) + "-"
	if ts != "" {
		stamp = agt.Printable(agt.Fit(oneLine(ts, 160), 40))
	}
	tag := ""
	if s.started > 1 {
		tag = "#" + strconv.Itoa(st.num) + " "
	}
	label := fmt.Sprintf("%-10s", l.text)
	body = agt.Printable(body)
	if s.Width > 0 {
		room := s.Width - utf8.RuneCountInString(stamp) - len(tag) - len(label) - 2
		if room < 1 { // a terminal narrower than the line's head: the head, cut
			_, err := fmt.Fprintf(s.w, "%s\n", agt.Fit(stamp+" "+tag+label, s.Width))
			return err
		}
		body = agt.Fit(body, room)
	}
	if s.color {
		label = "\x1b[" + l.color + "m" + label + "\x1b[0m"
	}
	_, err := fmt.Fprintf(s.w, "%s %s%s %s\n", stamp, tag, label, body)
	return err
}

// budget is how many bytes of a text a line can show (0: all of it).
func (s *Summary) budget() int {
	if s.Width <= 0 {
		return 0
	}
	return 4 * s.Width
}

// inputFields are the canonical input fields that best say what a call does.
var inputFields = []string{"file_path", "command", "pattern", "path", "url", "query", "skill", "description", "prompt"}

func inputSummary(in agt.Raw, budget int) string {
	if len(in) == 0 {
		return ""
	}
	var m map[string]any
	if agt.API.Unmarshal(in, &m) == nil {
		for _, f := range inputFields {
			if v, ok := m[f].(string); ok && v != "" {
				return oneLine(v, budget)
			}
		}
	}
	return oneLine(string(in), budget)
}

// oneLine folds white space runs, line ends included, into one space, and
// trims the ends (other control characters are left to agt.Printable). With
// a budget above 0 it stops after that many bytes of output.
func oneLine(s string, budget int) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(s); {
		if budget > 0 && b.Len() >= budget {
			break
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			space = b.Len() > 0
		} else {
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteString(s[i : i+n]) // an invalid byte stays as it is, for agt.Printable
		}
		i += n
	}
	return b.String()
}

// totals says a usage: what a narrow terminal must keep first, the cost
// when there is one and the tokens in all, then input, output and cache
// tokens; "no usage" when there is none. Provisional figures (that may
// still change) begin with "~".
func totals(u *agt.Usage, num func(int64) string, provisional bool) string {
	return strings.Join(append(lead(u, num, provisional), parts(u, num)...), " · ")
}

// lead is the cost and the tokens in all of u.
func lead(u *agt.Usage, num func(int64) string, provisional bool) []string {
	if *u == (agt.Usage{Scope: u.Scope, Provisional: u.Provisional}) {
		return []string{"no usage"}
	}
	mark := ""
	if provisional {
		mark = "~"
	}
	var l []string
	if u.CostUSD != nil {
		l = append(l, mark+Dollars(*u.CostUSD))
	}
	return append(l, mark+num(u.Input+u.CacheRead+u.CacheWrite+u.Output)+" tok")
}

// parts are the input, output and cache tokens of u.
func parts(u *agt.Usage, num func(int64) string) []string {
	if *u == (agt.Usage{Scope: u.Scope, Provisional: u.Provisional}) {
		return nil
	}
	p := []string{num(u.Input) + " in", num(u.Output) + " out"}
	if u.CacheRead != 0 {
		p = append(p, num(u.CacheRead)+" cache read")
	}
	if u.CacheWrite != 0 {
		p = append(p, num(u.CacheWrite)+" cache write")
	}
	return p
}

// running is the body of a usage line of stream: "Σ", the session's
// running cost and tokens, the context the stream's latest call filled
// (what a narrow terminal keeps), the burn rate, the line's tag (its
// stream and model) and the tokens by kind.
func (st *sessionLog) running(stream, tag string) string {
	t := st.total()
	l := lead(t, compact, len(st.pending) > 0)
	if f := st.fill[stream]; f != nil && f.window > 0 && f.tokens > 0 {
		l = append(l, "ctx "+percent(f.tokens, f.window))
	}
	l = append(l, st.rate()...)
	p := parts(t, compact)
	if tag != "" && len(p) > 0 {
		p[0] = tag + " " + p[0]
	}
	return "Σ " + strings.Join(append(l, p...), " · ")
}

// percent is n of all in whole percent, "<1%" for a part below one.
func percent(n, all int64) string {
	if p := n * 100 / all; p > 0 || n == 0 {
		return strconv.FormatInt(p, 10) + "%"
	}
	return "<1%"
}

// note keeps what a usage event tells of the context filled and of the
// burn rate. An event without a time takes clock's, when there is a clock
// (a live run), else counts in neither.
func (st *sessionLog) note(ev *agt.Event, clock func() time.Time) {
	u := ev.Usage
	if u.Scope == agt.ScopeCall {
		f := st.fill[ev.Stream]
		if f == nil {
			f = &fill{}
			st.fill[strings.Clone(ev.Stream)] = f
		}
		if f.call != u.MessageID || u.MessageID == "" { // a new call; else more of the same call
			f.call, f.tokens = strings.Clone(u.MessageID), 0
		}
		f.tokens += u.Input + u.CacheRead + u.CacheWrite
		if u.ContextWindow > 0 {
			f.window = u.ContextWindow
		}
	}
	at, err := time.Parse(time.RFC3339Nano, ev.TS)
	if err != nil {
		if clock == nil {
			return
		}
		at = clock()
	}
	c := 0.0
	if u.CostUSD != nil {
		c = *u.CostUSD
	}
	st.burn = append(st.burn, sample{at, u.Input + u.CacheRead + u.CacheWrite + u.Output, c})
	// keep the samples of the window before the latest one
	i := 0
	for i < len(st.burn) && at.Sub(st.burn[i].at) > BurnWindow {
		i++
	}
	st.burn = append(st.burn[:0], st.burn[i:]...)
}

// rate is the burn rate: the tokens and cost per minute of the usage
// events of the last BurnWindow, over the minutes from the first of them
// to the latest (at least one); nothing with fewer than two.
func (st *sessionLog) rate() []string {
	if len(st.burn) < 2 {
		return nil
	}
	var tokens int64
	var cost float64
	for _, b := range st.burn {
		tokens += b.tokens
		cost += b.cost
	}
	minutes := max(st.burn[len(st.burn)-1].at.Sub(st.burn[0].at).Minutes(), 1)
	r := []string{compact(int64(float64(tokens)/minutes)) + " tok/min"}
	if cost > 0 {
		r = append(r, Dollars(cost/minutes)+"/min")
	}
	return r
}

// unsettled follows which calls' usage is still provisional: a
// provisional usage event adds its call (stream NUL message id), a later
// usage event of the call that is not provisional settles it, and a
// run-scope usage event settles them all.
type unsettled map[string]bool

func (p *unsettled) note(ev *agt.Event) {
	u := ev.Usage
	switch {
	case u.Scope == agt.ScopeRun:
		clear(*p)
	case u.Provisional:
		if *p == nil {
			*p = unsettled{}
		}
		(*p)[ev.Stream+"\x00"+u.MessageID] = true
	case len(*p) > 0:
		delete(*p, ev.Stream+"\x00"+u.MessageID)
	}
}

// Dollars is how the summary writes a cost: to a hundredth of a cent.
func Dollars(c float64) string { return fmt.Sprintf("$%.4f", c) }

// exact writes a count whole, its thousands apart: 1,234,567.
func exact(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// units of the compact counts.
var units = []string{"", "k", "M", "G", "T", "P", "E"}

// compact writes a count in three digits or so: 950, 12.3k, 123k, 4.5M.
func compact(n int64) string {
	if n > -1000 && n < 1000 {
		return strconv.FormatInt(n, 10)
	}
	v := float64(n)
	for _, u := range units[1:] {
		v /= 1000
		var s string
		if v > -100 && v < 100 {
			s = strconv.FormatFloat(v, 'f', 1, 64)
			s = strings.TrimSuffix(s, ".0")
		} else {
			s = strconv.FormatFloat(v, 'f', 0, 64)
		}
		if f, _ := strconv.ParseFloat(s, 64); f > -1000 && f < 1000 {
			return s + u
		}
	}
	return strconv.FormatInt(n, 10)
}

// elapsed writes milliseconds as 850ms, 12.3s, 2m05s or 1h02m.
func elapsed(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60_000:
		return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + "s"
	case ms < 3_600_000:
		return fmt.Sprintf("%dm%02ds", ms/60_000, ms%60_000/1000)
	}
	return fmt.Sprintf("%dh%02dm", ms/3_600_000, ms%3_600_000/60_000)
}

// seconds writes a time a tool has run in whole seconds: 45s, 2m05s, 1h02m.
func seconds(d time.Duration) string {
	if d < time.Minute {
		return strconv.Itoa(int(d/time.Second)) + "s"
	}
	return elapsed(d.Milliseconds())
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
