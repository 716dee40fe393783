package transcript

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// Summary writes the summary stream log: a header line when a session
// starts, one readable line per message, tool call and result, a line with
// the session's running token and cost totals at each usage (a model call's,
// or a run's), and a closing line with the session's totals when it ends:
//
//	2026-01-28T22:26:40.001Z session    claude 0a1b2c3d · cwd /home/dev/app
//	2026-01-28T22:26:46.793Z tool       (claude-opus-4-5) Bash  git status
//	2026-01-28T22:26:46.842Z result     Bash  ok  On branch main
//	2026-01-28T22:26:47.120Z usage      Σ 12.3k in · 1.2k out · 40k cache read · $0.0421
//	2026-01-28T22:28:02.310Z end        12,301 in · 1,187 out · 40,022 cache read · $0.0421 · 1m22s · 1 tool call
//
// A stream that names its session late (Copilot CLI --output-format json,
// Pi RPC) begins in a provisional session: its header names that one, and a
// "named" line, when the session_named event comes, names the session the
// run goes on in (the same number, the same running totals):
//
//	2026-11-22T08:25:32.132Z named      copilot 4afdc0fe-6b0e-48b8-a567-62d4527f07c2
//
// The running totals of a model call are written when its usage event comes
// (a call's usage is final then), never beside a figure that could change.
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
	// Past, when set, tells the events that are counted but not shown
	// (following from the end, the lines the files held before): a
	// session's header then gives its totals so far.
	Past func(ev *agt.Event) bool

	w        *bufio.Writer
	out      io.Writer
	color    bool
	sessions map[string]*sessionLog
	started  int // sessions begun so far
}

// sessionLog is what the summary keeps of a session under way.
type sessionLog struct {
	num     int
	names   map[string]string // call event id → tool name, until its result
	streams []string          // by first appearance: the order the transcript sums them in
	usage   map[string]*agt.Usage
	model   map[string]string // stream → the model last shown
	// the header: whether it is written, and what it tells
	headed                           bool
	past                             bool // events counted before the first shown (Summary.Past)
	ts, provider, native, cwd, first string
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
}

// The session's own lines.
const (
	lineSession = "session start"
	lineNamed   = "session named"
	lineEnd     = "session end"
)

// modelLines are the kinds whose lines are the model's: they show its name
// when it is new to their stream.
var modelLines = map[string]bool{agt.KindAssistant: true, agt.KindReasoning: true, agt.KindToolCall: true, agt.KindUsage: true}

// Event writes the lines of one event: the session's header first when the
// event is the first of the session to have a line, then the event's own
// line, if it has one.
func (s *Summary) Event(ev *agt.Event) error {
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
		st.usage[ev.Stream] = u
		st.streams = append(st.streams, ev.Stream)
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
	if !st.headed {
		if err := s.header(st); err != nil {
			return err
		}
	}
	var body string
	switch {
	case ev.Kind == agt.KindToolCall && ev.Tool != nil:
		st.names[ev.ID] = ev.Tool.Name
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
		name, ok := st.names[r.Call]
		if ok {
			delete(st.names, r.Call)
		} else {
			name = r.ID
		}
		body = name + "  " + status + "  " + oneLine(r.Output.Str(), s.budget())
	case ev.Kind == agt.KindUsage:
		u.Add(ev.Usage)
		body = "Σ " + totals(st.total(), compact)
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
	if m := ev.Model; m != "" && modelLines[ev.Kind] && st.model[ev.Stream] != m {
		st.model[ev.Stream] = m
		body = "(" + oneLine(m, s.budget()) + ") " + body
	}
	if ev.Stream != agt.StreamMain && ev.Stream != "" {
		body = "[" + oneLine(ev.Stream, s.budget()) + "] " + body
	}
	return s.line(st, ev.TS, ev.Kind, body)
}

// named makes the provisional session p ev's session, which continues it,
// and says so when the header named p.
func (s *Summary) named(p string, ev *agt.Event) error {
	st := s.sessions[p]
	delete(s.sessions, p)
	s.sessions[ev.Session] = st
	st.provider, st.native = strings.Clone(ev.Provider), strings.Clone(ev.NativeSession)
	if !st.headed {
		return nil
	}
	return s.line(st, ev.TS, lineNamed, oneLine(st.provider, s.budget())+" "+oneLine(st.native, s.budget()))
}

// End writes the closing line of a session, from its transcript: the
// totals agt-transcript gives it. The session's next event, if one comes
// (its records in a later input group), begins it again.
func (s *Summary) End(t *Transcript) error {
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
	parts := []string{totals(&u, exact)}
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
	if err := s.w.Flush(); err != nil {
		return err
	}
	if f, ok := s.out.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

// Encode does nothing: a Summary is a stage.Output of the events as they
// come (a live run's followed files, whose sessions do not end).
func (s *Summary) Encode(*stage.Batch) {}

// Write writes the lines of a batch's events (stage.Output).
func (s *Summary) Write(b *stage.Batch) error {
	evs := b.Events()
	for i := range evs {
		if err := s.Event(&evs[i]); err != nil {
			return err
		}
	}
	return nil
}

// begin starts keeping a session.
func (s *Summary) begin(session string) *sessionLog {
	s.started++
	st := &sessionLog{num: s.started, names: map[string]string{}, usage: map[string]*agt.Usage{}, model: map[string]string{}}
	s.sessions[session] = st
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
		st.model[ev.Stream] = st.first
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
		parts = append(parts, "so far Σ "+totals(st.total(), compact))
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
	stamp := strings.Repeat(" ", 23) + "-"
	if ts != "" {
		stamp = agt.Printable(cut(oneLine(ts, 160), 40))
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
			_, err := fmt.Fprintf(s.w, "%s\n", cut(stamp+" "+tag+label, s.Width))
			return err
		}
		body = cut(body, room)
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

// cut shortens s to n runes, the last one an ellipsis.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// totals says a usage: input, output and cache tokens, and the cost when
// there is one; "no usage" when there is none.
func totals(u *agt.Usage, num func(int64) string) string {
	if *u == (agt.Usage{Scope: u.Scope}) {
		return "no usage"
	}
	parts := []string{num(u.Input) + " in", num(u.Output) + " out"}
	if u.CacheRead != 0 {
		parts = append(parts, num(u.CacheRead)+" cache read")
	}
	if u.CacheWrite != 0 {
		parts = append(parts, num(u.CacheWrite)+" cache write")
	}
	if u.CostUSD != nil {
		parts = append(parts, Dollars(*u.CostUSD))
	}
	return strings.Join(parts, " · ")
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

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
