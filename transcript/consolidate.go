package transcript

import (
	"hash/maphash"

	"github.com/agt-project/agt"
)

// Flush receives each finished session: its transcript, its events when
// they were kept (for stream logs), and the key of the input unit it came
// from.
type Flush func(unit string, t *Transcript, events []agt.Event) error

// Consolidator turns an ordered event stream into transcripts. A session is
// finished when the input unit its events come from ends: the unit of an
// event is UnitKey(src.path), so that the same events give the same
// transcripts whether they arrive from a pipe or from an in-process parse.
//
// An event whose id and seq its session has already had (the same record
// read twice: `agt-transcript f f`, a log given twice in one stream) counts
// once: ids are made from the session and the record and seq numbers from
// the order of the input, so a copy has both again. (A parser may give the
// updates of one record the same id, with later seq numbers: those count.)
type Consolidator struct {
	// Window, when set, gives the context window of a session's model when
	// none of its usage events names one (a session without usage).
	Window func(model string) int64

	unitKey  func(path string) string
	keep     bool
	flush    Flush
	sessions map[string]*builder
	order    []*builder
	unit     string
	started  bool
	lastPath string // the last src.path seen and its unit key
	lastKey  string
	count    int
	seed     maphash.Seed
	seen     map[string]map[uint64]struct{} // session → hashes of its event ids and seqs
}

// NewConsolidator returns a consolidator; keep keeps every session's events
// for its stream log.
func NewConsolidator(unitKey func(string) string, keep bool, flush Flush) *Consolidator {
	return &Consolidator{unitKey: unitKey, keep: keep, flush: flush, sessions: map[string]*builder{},
		seed: maphash.MakeSeed(), seen: map[string]map[uint64]struct{}{}}
}

// Add consolidates events in order.
func (c *Consolidator) Add(evs []agt.Event) error {
	for i := range evs {
		ev := &evs[i]
		if ev.Src.Path != c.lastPath || !c.started {
			c.lastPath, c.lastKey = ev.Src.Path, c.unitKey(ev.Src.Path)
		}
		if u := c.lastKey; !c.started || u != c.unit {
			if err := c.finish(); err != nil {
				return err
			}
			c.unit, c.started = u, true
		}
		b := c.sessions[ev.Session]
		if b == nil {
			b = newBuilder(ev, c.keep)
			c.sessions[ev.Session] = b
			c.order = append(c.order, b)
			c.seen[ev.Session] = map[uint64]struct{}{}
		}
		if ev.ID != "" {
			seen, h := c.seen[ev.Session], maphash.String(c.seed, ev.ID)^uint64(ev.Seq)*0x9e3779b97f4a7c15
			if _, dup := seen[h]; dup {
				continue
			}
			seen[h] = struct{}{}
		}
		b.add(ev)
	}
	return nil
}

// Close finishes the sessions still open.
func (c *Consolidator) Close() error { return c.finish() }

// Sessions is the number of transcripts flushed so far.
func (c *Consolidator) Sessions() int { return c.count }

func (c *Consolidator) finish() error {
	order := c.order
	c.order, c.sessions, c.seen = nil, map[string]*builder{}, map[string]map[uint64]struct{}{}
	for _, b := range order {
		c.count++
		t := b.transcript()
		if t.ContextWindow == 0 && t.Model != "" && c.Window != nil {
			t.ContextWindow = c.Window(t.Model)
		}
		if err := c.flush(c.unit, t, b.events); err != nil {
			return err
		}
	}
	return nil
}
