package agt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// Parser turns the records of one input unit (a file, or a session's files
// read together) into events. Decode runs on many goroutines at once and must
// not touch the parser's state; Apply and Finish run in input order on one.
type Parser interface {
	// Decode reads one record: a line, or a whole document for document
	// formats. An error makes the record an error event.
	Decode(rec []byte) (any, error)
	// Apply emits the events of a decoded record.
	Apply(em *Emitter, v any)
	// Finish emits what was held back until the end of the unit.
	Finish(em *Emitter)
}

// Options are the parse options every parser sees.
type Options struct {
	Raw bool // keep the provider record in every event's raw field
	// Usage says that the events feed a usage report only (agt-report),
	// which reads usage, sessions, models, times and folders: the work
	// of what it does not read may be left out (an unknown event's raw
	// record, the event of a line skimmed as known and without usage:
	// the line is still counted). Counting is not changed: the same
	// usage events, the same ids, the same errors and unknown events.
	Usage bool
}

// Diag is one diagnostic line for stderr: "PATH:LINE: why".
type Diag struct {
	Src  Src
	Text string
	Data bool // a data error (fatal under --strict)
	IO   bool // an input that could not be read (exit 1 at the end)
	Said bool // counted, not printed: another diagnostic of the line says it
}

// String is the diagnostic as one printable line: file names and text are
// passed through Printable, so that a name or a record holding a line end
// or an escape sequence cannot break the line or reach the terminal raw.
func (d Diag) String() string {
	path, text := Printable(d.Src.Path), Printable(d.Text)
	switch {
	case d.Src.Line > 0:
		return fmt.Sprintf("%s:%d: %s", path, d.Src.Line, text)
	case d.Src.Ptr != "":
		return fmt.Sprintf("%s:%s: %s", path, Printable(d.Src.Ptr), text)
	}
	return fmt.Sprintf("%s: %s", path, text)
}

// maxPending bounds the events held back while no session id is known (a
// format that names its session late uses a provisional session instead);
// past it they go to the fallback session named after the file.
const maxPending = 1 << 20

// refPrefix marks the provisional id Emit returns while an event waits for
// its session; a Result.Call holding one is resolved when the result is
// released or emitted.
const refPrefix = "\x00ref\x00"

type session struct {
	native string
	id     string
	uuid   uuid.UUID
	seq    int64
	last   map[string]string // stream → id of its last event
	// provisional: a session no record named yet (Provisional)
	provisional bool
	// root: the session it continues (Continues), whose namespace its
	// events' Root ids are made in
	root *uuid.UUID
}

// Emitter gives events their envelope: schema, provider, format, session,
// id, seq, parent, src and raw. One Emitter serves one input unit.
type Emitter struct {
	Provider string
	Format   string
	Opts     Options

	sessions map[string]*session
	cur      *session
	fallback string
	path     string // the last src.path given to At, and its PathText
	pathText string
	src      Src
	raw      Raw
	out      []Event
	pending  []Event // events seen before any session id was known
	count    int     // events emitted so far
	ids      idMaker
	diags    []Diag

	// tie is a session named late and the provisional session it
	// continues, until the session_named event that says so is emitted
	tie struct{ to, from *session }
	// roots: native session → the native session it continues (Continues)
	roots map[string]string
}

// NewEmitter returns an emitter for one unit of the given provider and format.
func NewEmitter(provider, format string, opts Options) *Emitter {
	return &Emitter{Provider: provider, Format: format, Opts: opts, sessions: map[string]*session{}}
}

// At sets the record the next events come from.
//
// A file name that is not valid UTF-8 is made so with PathText, here where
// every parsed event gets its src.path, so that every filter names the file
// alike and writes valid JSON.
func (e *Emitter) At(src Src, raw Raw) {
	e.src, e.raw = e.validPath(src), raw
	if e.fallback == "" {
		e.fallback = FallbackSession(e.src.Path)
	}
}

// Src is the source of the current record.
func (e *Emitter) Src() Src { return e.src }

// SetSrc changes the source of the events that follow (document formats set
// a JSON pointer per record) and the raw record kept with --raw.
func (e *Emitter) SetSrc(src Src, raw Raw) { e.src, e.raw = e.validPath(src), raw }

// validPath returns src with its path made valid UTF-8 (PathText), the last
// path's text kept for the records that follow.
func (e *Emitter) validPath(src Src) Src {
	if src.Path != e.path {
		e.path, e.pathText = src.Path, PathText(src.Path)
	}
	src.Path = e.pathText
	return src
}

// Line is the text of the current record.
func (e *Emitter) Line() Raw { return e.raw }

// Session makes native the current session: events with no native session
// of their own belong to it. Events held while no session was known are
// released into it.
//
// When the current session is provisional and native is new to the unit,
// the new session continues it: its seq numbers and parent links go on from
// the provisional session's, and its first event is a meta event (type
// session_named, continues = the provisional native id) that ties the two.
// It reports whether native continues a provisional session.
func (e *Emitter) Session(native string) bool {
	if native == "" || (e.cur != nil && e.cur.native == native) {
		return false
	}
	e.tied("")
	prev := e.cur
	_, known := e.sessions[native]
	e.cur = e.session(native)
	e.release()
	if prev == nil || !prev.provisional || known {
		return false
	}
	prev.provisional = false
	s := e.cur
	s.seq, e.tie.to, e.tie.from = prev.seq, s, prev
	for k, v := range prev.last {
		s.last[k] = v
	}
	return true
}

// Provisional makes a provisional session current when no session is: for
// a stream that names its session late (Copilot CLI --output-format json on
// its last line, Pi RPC in a response), so that its events need not wait
// for that line. Its native id is ProvisionalSession of the current record
// (the first the parser reads). The session the stream names next
// continues it (Session).
func (e *Emitter) Provisional() {
	if e.cur != nil {
		return
	}
	e.Session(ProvisionalSession(e.raw))
	e.cur.provisional = true
}

// ProvisionalSession is the native id of the provisional session of a
// stream whose first record is first: ProvisionalPrefix and 32 hex digits
// of the record's SHA-256 (white space and a byte order mark around it left
// out). It depends on the content only, so the same input gives the same
// session and ids whatever it is read from (a file, a pipe); two streams
// share it only when their first records are the same.
func ProvisionalSession(first []byte) string {
	first = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(first), []byte("\ufeff")))
	sum := sha256.Sum256(first)
	return ProvisionalPrefix + hex.EncodeToString(sum[:16])
}

// IsProvisional reports whether the current session is provisional.
func (e *Emitter) IsProvisional() bool { return e.cur != nil && e.cur.provisional }

// Current is the native id of the current session, "" when none is known.
func (e *Emitter) Current() string {
	if e.cur == nil {
		return ""
	}
	return e.cur.native
}

func (e *Emitter) session(native string) *session {
	s := e.sessions[native]
	if s == nil {
		native = strings.Clone(native)
		id := SessionID(e.Provider, native)
		s = &session{native: native, id: id, uuid: uuid.MustParse(id), last: map[string]string{}}
		if r, ok := e.roots[native]; ok {
			u := uuid.MustParse(SessionID(e.Provider, r))
			s.root = &u
		}
		e.sessions[native] = s
	}
	return s
}

// Continues tells the emitter, before any event of native is emitted, that
// the session native continues the session root (a resumed or forked
// session whose file holds a copy of root's records): each event of native
// then also carries in Root the id its record has in root, so that a copy
// can be told from the session's own records.
func (e *Emitter) Continues(native, root string) {
	if e.roots == nil {
		e.roots = map[string]string{}
	}
	e.roots[native] = root
}

// Key is the fallback record key of the current record: its line or pointer.
func (e *Emitter) Key() string {
	if e.src.Ptr != "" {
		return filepath.Base(e.src.Path) + "#" + e.src.Ptr
	}
	return filepath.Base(e.src.Path) + ":" + strconv.FormatInt(e.src.Line, 10)
}

// UnknownTool is the name of a tool call whose record names no tool, so
// that no tool call has an empty name.
const UnknownTool = "unknown"

// Emit completes ev and queues it. key is the native record id (Key() when
// the record has none), suffix tells apart the events of one record. An
// empty Stream is the main stream. It returns the event id, or "" while the
// event waits for its session to be known.
func (e *Emitter) Emit(ev Event, key, suffix string) string {
	if key == "" {
		key = e.Key()
	}
	e.count++
	if ev.Stream == "" {
		ev.Stream = StreamMain
	}
	ev.Src = e.src
	switch {
	case ev.Kind == KindUnknown && e.Opts.Usage && len(e.raw) > 0:
		ev.Raw = e.raw // as read: no one writes it
	case ev.Kind == KindUnknown: // a record no parser understood: maybe not JSON
		ev.Raw = oneLine(e.raw, true)
	case e.Opts.Raw && ev.Kind != KindError:
		ev.Raw = oneLine(e.raw, false)
	}
	if ev.Kind != KindError {
		e.check(&ev)
	}
	s := e.cur
	if ev.NativeSession != "" {
		s = e.session(ev.NativeSession)
	}
	if s == nil {
		ev.ID = key + "\x00" + suffix
		e.pending = append(e.pending, ev)
		if len(e.pending) >= maxPending {
			e.Session(e.fallback)
		}
		return refPrefix + key + "\x00" + suffix
	}
	return e.finish(s, ev, key, suffix)
}

// check holds a parser's event to the rules of agt.event/1 input
// (CheckPayload), so that what agt-parse writes is what every filter reads:
// a tool call the log does not name is named UnknownTool;
// a cost that is not a finite number in range is dropped with a warning; an
// event whose payload does not fit its kind (a token count out of range, a
// tool call without its tool) becomes an error event on its record, with
// the same id, keeping the record's text.
func (e *Emitter) check(ev *Event) {
	if t := ev.Tool; ev.Kind == KindToolCall && t != nil && t.Name == "" {
		t.Name = UnknownTool // the log does not name it; native_name stays empty
	}
	if u := ev.Usage; u != nil {
		for _, c := range [...]struct {
			name string
			p    **float64
		}{{"cost_usd", &u.CostUSD}, {"native_cost_usd", &u.NativeCostUSD}} {
			if *c.p != nil && !GoodCost(**c.p) {
				e.diags = append(e.diags, Diag{Src: e.src, Text: fmt.Sprintf("usage.%s %v is not a number in 0…2^53: left out", c.name, **c.p)})
				*c.p = nil
			}
		}
	}
	err := CheckPayload(ev)
	if err == nil {
		return
	}
	bad := e.errorEvent(err.Error())
	bad.NativeSession, bad.Stream, bad.TS, bad.Src = ev.NativeSession, ev.Stream, ev.TS, ev.Src
	*ev = bad
}

// errorEvent is the error event of the current record, with its diagnostic.
func (e *Emitter) errorEvent(msg string) Event {
	if msg == "" {
		msg = "error"
	}
	text := e.raw
	if len(text) > MaxLineText {
		msg += fmt.Sprintf(" (line text cut to %d of %d bytes)", MaxLineText, len(text))
		text = text[:MaxLineText]
	}
	e.diags = append(e.diags, Diag{Src: e.src, Text: msg, Data: true})
	return Event{Kind: KindError, Error: &Error{Message: msg, LineText: ValidText(string(text))}}
}

// Count is the number of events emitted so far, for parsers that make sure
// every record yields one.
func (e *Emitter) Count() int { return e.count }

// EventID is the id that Emit gives the event of key and suffix in the
// current session, for links to events not yet emitted (provisional while
// no session is known, like Emit's).
func (e *Emitter) EventID(native, key, suffix string) string {
	s := e.cur
	if native != "" {
		s = e.session(native)
	}
	if s == nil {
		return refPrefix + key + "\x00" + suffix
	}
	return e.ids.id(s.uuid, key, suffix)
}

// Fallback is the session named after the input, used when no record names
// one.
func (e *Emitter) Fallback() string { return e.fallback }

func (e *Emitter) finish(s *session, ev Event, key, suffix string) string {
	if s == e.tie.to {
		e.tied(ev.TS)
	}
	ev.Schema = Schema
	ev.Provider = e.Provider
	ev.Format = e.Format
	ev.Session = s.id
	ev.NativeSession = s.native
	ev.ID = e.ids.id(s.uuid, key, suffix)
	if s.root != nil {
		ev.Root = e.ids.id(*s.root, key, suffix)
	}
	if ev.Result != nil && strings.HasPrefix(ev.Result.Call, refPrefix) {
		k, suf, _ := strings.Cut(ev.Result.Call[len(refPrefix):], "\x00")
		ev.Result.Call = e.ids.id(s.uuid, k, suf)
	}
	ev.Seq = s.seq
	s.seq++
	ev.Parent = s.last[ev.Stream]
	s.last[ev.Stream] = ev.ID
	e.out = append(e.out, ev)
	return ev.ID
}

// tied emits the event that opens a session continuing a provisional one,
// if it is due: at the current record, time ts, keyed by the provisional
// native id (so its id too is the same whatever the input is read from).
func (e *Emitter) tied(ts string) {
	to, from := e.tie.to, e.tie.from
	if to == nil {
		return
	}
	e.tie.to, e.tie.from = nil, nil
	ev := Event{Kind: KindMeta, Stream: StreamMain, TS: ts, Src: e.src, Meta: &Meta{Type: MetaNamed, Continues: from.native}}
	if e.Opts.Raw {
		ev.Raw = oneLine(e.raw, false)
	}
	e.finish(to, ev, from.native, "continues")
}

func (e *Emitter) release() {
	if e.cur == nil || len(e.pending) == 0 {
		return
	}
	p := e.pending
	e.pending = nil
	for _, ev := range p {
		key, suffix, _ := strings.Cut(ev.ID, "\x00")
		e.finish(e.cur, ev, key, suffix)
	}
}

// Pass queues an event read as an agt.event/1 line, unchanged.
func (e *Emitter) Pass(ev Event) {
	e.count++
	e.out = append(e.out, ev)
}

// MaxLineText bounds the text an error event keeps of its line.
const MaxLineText = 1 << 20

// Errorf records a data error on the current record: an error event that
// keeps the record's text, and a diagnostic.
func (e *Emitter) Errorf(format string, args ...any) {
	e.Emit(e.errorEvent(fmt.Sprintf(format, args...)), "", "error")
}

// Unknown emits the current record as an unknown event (raw always kept).
func (e *Emitter) Unknown(native, stream, what string) {
	ev := Event{Kind: KindUnknown, NativeSession: native, Stream: stream}
	if what != "" {
		ev.Meta = &Meta{Type: what}
	}
	e.Emit(ev, "", "unknown")
}

// Done releases events still waiting for a session into the fallback
// session, named after the file, and ties a session named late to its
// provisional one if none of its events did.
func (e *Emitter) Done() {
	if len(e.pending) > 0 {
		e.Session(e.fallback)
	}
	e.tied("")
}

// Take returns the events and diagnostics queued so far.
func (e *Emitter) Take() ([]Event, []Diag) {
	out, d := e.out, e.diags
	e.out, e.diags = make([]Event, 0, len(out)), nil // the next batch is likely alike
	return out, d
}

// FallbackSession names the session of an input whose records never name
// one: the file name without its extensions ("stdin" for standard input).
func FallbackSession(path string) string {
	if path == "" || path == "-" {
		return "stdin"
	}
	base := filepath.Base(path)
	for _, ext := range []string{".gz", ".jsonl", ".json", ".ndjson"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// Head is what detection sees of an input: its first non-blank lines, or,
// when the input is one pretty-printed JSON document, the whole document.
type Head struct {
	Lines [][]byte
	Doc   []byte
}

// oneLine returns raw fit for an event's line: a record cut out of a
// pretty-printed document is compacted, and one that is not JSON (checked
// when check is set: the record of an unknown event may be anything) is
// kept as a JSON string of its text, so that every event is one line of
// valid JSON.
func oneLine(raw Raw, check bool) Raw {
	if check && len(raw) > 0 && !json.Valid(raw) {
		return Marshal(ValidText(string(raw)))
	}
	if bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		return raw
	}
	if c := Compact(raw); bytes.IndexByte(c, '\n') < 0 && bytes.IndexByte(c, '\r') < 0 {
		return c
	}
	return Marshal(ValidText(string(raw)))
}
