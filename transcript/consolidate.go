package transcript

import (
	"fmt"
	"hash/maphash"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// Flush receives each finished session: its transcript, its events when
// they were kept (for stream logs), and the key of the input unit it came
// from.
type Flush func(unit string, t *Transcript, events []agt.Event) error

// Consolidator turns an ordered event stream into transcripts, one per
// session: (provider, native session id), which the agt session id is made
// of.
//
// Sessions are finished when the group of input units they come from ends.
// The unit of an event is UnitKey(src.path); a unit whose first event
// belongs to a session still open (the same session in another input: a
// sidechain file, a backup, an archive, another machine's copy) joins the
// group, so that the session is one transcript; a unit whose first event
// belongs to no open session ends the group and flushes its sessions.
// agt-parse places the units of one session next to each other (a pre-pass
// over the inputs' first lines), so the same events give the same
// transcripts whether they arrive from a pipe or from an in-process parse,
// and memory holds the sessions of one group.
//
// A record present in several copies counts once. agt-parse already says
// so within one run (provider.Source): its later occurrences are duplicate
// events (meta type duplicate, meta.of the id of the event they repeat),
// which count for nothing here but as an occurrence of that id, and whose
// meta.continues, on the first one that has it, is the session the
// transcript continues (Transcript.Continues). For events given apart (the
// outputs of two runs), the same rule is decided here again: an event
// counts unless its session already had an event of the same id as many
// times in an earlier copy. Ids are made from the session and the native record id (a
// line number only for records that have none), so they are the same in
// every copy; a copy starts where the seq numbers of a session go back
// (each copy is read by its own emitter, whose seq numbers grow), so that
// copies whose line numbers or seq numbers differ still meet. (A parser may
// give the updates of one record the same id, with later seq numbers: those
// count, as the n-th occurrence of the id within one copy.) The first copy
// read gives a duplicated record's content and place; records only later
// copies hold follow in their order.
//
// A stream that names its session late (Copilot CLI --output-format json,
// Pi RPC) has its first events in a provisional session; the session_named
// event that opens the named session makes the two one transcript: the
// provisional session's, still open, is the named session's from then on
// (its native id, its file name under -o), unless the named session is
// open already (then the two stay apart). Its events are not changed.
type Consolidator struct {
	// Window, when set, gives the context window of a session's model when
	// none of its usage events names one (a session without usage).
	Window func(model string) int64
	// Group, when set, is told the keys of a group's units (the first one
	// is the key its sessions are flushed with) before they are flushed.
	Group func(units []string)
	// Each, when set, receives every event that counts (not a record an
	// earlier copy held) as soon as it is consolidated: the summary stream
	// log of a live run writes its line then, and the session's closing
	// line when it is flushed.
	Each func(ev *agt.Event) error
	// Out, when set, hands on what the flushed sessions wrote (a buffered
	// stdout) whenever the run has no other batch ready (Flush).
	Out func() error
	// Warn, when set, is told of a session whose token total passes 2^53
	// (agt.MaxCount): JSON readers do not hold such a number exactly.
	Warn func(msg string)
	// CountOnly, when set, decides which events count (copies, resumed
	// sessions) and hands those to Each, but builds no transcript: nothing
	// of a session's messages is held and flush is never called (a usage
	// report).
	CountOnly bool
	// Hold keeps every session open until Close: the events of a followed
	// run (-f) come from files read side by side, the sessions of several
	// units interleaved, and no session ends while it is followed. The
	// sessions are flushed at Close in the order they were met.
	Hold bool
	// Spill keeps each conversation's last messages as values and spills
	// the older ones, encoded and compressed, so that a long session holds
	// a fraction of its size: the transcripts flushed hold in Messages only
	// their last messages, which WriteJSON writes with the spilled ones
	// (the same bytes); Transcript.Whole gives a reader of Messages (an
	// export) all of them.
	Spill bool
	// Raw keeps in each message the records of the events it was made
	// from (their raw field: agt-parse --raw), each once.
	Raw bool

	unitKey  func(path string) string
	keep     bool
	flush    Flush
	sessions map[string]*builder
	order    []*builder
	held     int    // bytes the sessions of the unit keep of their events (arena.unit)
	unit     string // the key of the group's first unit
	cur      string // the key of the unit under way
	started  bool
	joining  bool   // a unit just started: its first event decides the group
	lastPath string // the last src.path seen and its unit key
	lastKey  string
	count    int
	members  []string // keys of the units that joined the group
	seed     maphash.Seed
	copies   map[string]*copies // session → its records seen
}

// copies is what a session has seen: for each event id (hashed), how many
// times the copies read so far held it at most, and how many times the
// copy under way has.
type copies struct {
	max     map[uint64]int32
	cur     map[uint64]int32
	lastSeq int64
	any     bool
}

// NewConsolidator returns a consolidator; keep keeps every session's events
// for its stream log.
func NewConsolidator(unitKey func(string) string, keep bool, flush Flush) *Consolidator {
	return &Consolidator{unitKey: unitKey, keep: keep, flush: flush, sessions: map[string]*builder{},
		seed: maphash.MakeSeed(), copies: map[string]*copies{}}
}

// Encode does nothing: a Consolidator is a stage.Output that takes the
// events as they are.
func (c *Consolidator) Encode(*stage.Batch) {}

// Write consolidates a batch's events (stage.Output).
func (c *Consolidator) Write(b *stage.Batch) error { return c.Add(b.Events()) }

// Flush calls Out.
func (c *Consolidator) Flush() error {
	if c.Out == nil {
		return nil
	}
	return c.Out()
}

// Add consolidates events in order.
func (c *Consolidator) Add(evs []agt.Event) error {
	for i := range evs {
		ev := &evs[i]
		if ev.Src.Path != c.lastPath || !c.started {
			c.lastPath, c.lastKey = ev.Src.Path, c.unitKey(ev.Src.Path)
		}
		if u := c.lastKey; !c.started || u != c.cur {
			c.cur, c.joining = u, true
		}
		if c.joining && c.Hold && c.started {
			c.joining = false
		}
		if c.joining {
			c.joining = false
			if _, open := c.sessions[ev.Session]; !open || !c.started {
				if err := c.finish(); err != nil {
					return err
				}
				c.unit, c.started = c.cur, true
			} else if c.cur != c.unit && !slices.Contains(c.members, c.cur) {
				c.members = append(c.members, c.cur)
			}
		}
		if p := agt.Continued(ev); p != "" {
			c.rename(p, ev)
		}
		b := c.sessions[ev.Session]
		dup := agt.DuplicateOf(ev)
		if b == nil && dup != "" && ev.Meta.Continues == "" {
			continue // a repeat of a session already flushed or renamed: nothing of its own
		}
		if b == nil {
			b = newBuilder(ev, c.keep)
			b.spill, b.raw, b.mem.unit = c.Spill, c.Raw, &c.held
			b.unit = c.cur
			c.sessions[ev.Session] = b
			c.order = append(c.order, b)
			c.copies[ev.Session] = &copies{max: map[uint64]int32{}, cur: map[uint64]int32{}}
		}
		if dup != "" { // the parse said it: an occurrence of dup, counted for nothing
			c.copies[ev.Session].seen(maphash.String(c.seed, dup), ev.Seq)
			if p := ev.Meta.Continues; p != "" && b.t.Continues == "" {
				b.t.Continues = strings.Clone(p)
			}
			continue
		}
		if ev.ID != "" && c.copies[ev.Session].seen(maphash.String(c.seed, ev.ID), ev.Seq) {
			continue
		}
		if !c.CountOnly {
			b.add(ev)
		}
		if c.Each != nil {
			if err := c.Each(ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// rename makes the open session p, which ev's session continues, ev's
// session.
func (c *Consolidator) rename(p string, ev *agt.Event) {
	b := c.sessions[p]
	if b == nil || c.sessions[ev.Session] != nil {
		return
	}
	delete(c.sessions, p)
	c.sessions[ev.Session] = b
	c.copies[ev.Session] = c.copies[p]
	delete(c.copies, p)
	b.t.Session, b.t.NativeSession = strings.Clone(ev.Session), strings.Clone(ev.NativeSession)
}

// seen counts an event of id hash h and sequence number seq, and tells
// whether an earlier copy already held it.
func (cp *copies) seen(h uint64, seq int64) bool {
	if cp.any && seq <= cp.lastSeq { // a new copy
		for k, n := range cp.cur {
			if n > cp.max[k] {
				cp.max[k] = n
			}
		}
		clear(cp.cur)
	}
	cp.lastSeq, cp.any = seq, true
	n := cp.cur[h] + 1
	cp.cur[h] = n
	return n <= cp.max[h]
}

// Close finishes the sessions still open.
func (c *Consolidator) Close() error { return c.finish() }

// Sessions is the number of transcripts flushed so far.
func (c *Consolidator) Sessions() int { return c.count }

func (c *Consolidator) finish() error {
	order, members := c.order, c.members
	c.order, c.sessions, c.copies, c.members, c.held = nil, map[string]*builder{}, map[string]*copies{}, nil, 0
	if c.Hold {
		// in the order a walk of their inputs meets them, as a run read
		// once gives them, not in the order following met them
		slices.SortStableFunc(order, func(a, b *builder) int { return walkOrder(a.unit, b.unit) })
	}
	if c.Group != nil && len(order) > 0 {
		c.Group(append([]string{c.unit}, members...))
	}
	for _, b := range order {
		c.count++
		if c.CountOnly {
			continue
		}
		t := b.transcript()
		if t.Usage.Total > agt.MaxCount && c.Warn != nil {
			c.Warn(fmt.Sprintf("session %s (%s): its token total %d passes 2^53, which JSON readers do not hold exactly", agt.Printable(t.NativeSession), t.Provider, t.Usage.Total))
		}
		if t.ContextWindow == 0 && t.Model != "" && c.Window != nil {
			t.ContextWindow = c.Window(t.Model)
		}
		if err := c.flush(c.unit, t, b.events); err != nil {
			return err
		}
	}
	return nil
}

// walkOrder compares paths as a walk of a folder meets them: name by name,
// so that a folder's files come before the file whose name extends the
// folder's (a/b before a.jsonl).
func walkOrder(a, b string) int {
	as, bs := strings.Split(filepath.ToSlash(a), "/"), strings.Split(filepath.ToSlash(b), "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if c := strings.Compare(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return len(as) - len(bs)
}
