package provider

import (
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/agt-project/agt"
	"github.com/google/uuid"
)

// A record present in several inputs of a run counts once, at every level:
// the parse pipeline decides it, where the inputs that hold one session (or
// one lineage of sessions) are read as one group (groupUnits), so that the
// events of every filter already say it and a plain sum of their usage is
// right.
//
// Within a group, each unit is a copy. An event repeats a record when the
// units read before its own held its id as many times or more: its n-th
// occurrence within its unit is a repeat when an earlier unit had n or more
// (so that a copy that a later one extends adds what it lacks, and the
// updates a parser gives one id within one copy all count). Ids are made
// from the session and the native record id, so they are the same in every
// copy; a session that continues another (a resumed or forked session whose
// file holds a copy of the original's records under its own id) is compared
// by the ids its records have in the original (Event.Root).
//
// The first occurrence read wins (the largest copy, the original session:
// see groupUnits for the order). A repeat becomes a duplicate event: kind
// meta, meta {type: "duplicate", of: the id of the event it repeats,
// continues: the native id of that event's session when it is another's},
// with its own session, seq, stream, ts, parent and src, its raw when it
// had one, and the id the event had, unless that is the id it repeats (a
// copy in the same session): then UUIDv5(session, of NUL "duplicate" NUL
// n), n counting the duplicates of that record; no text, usage, tool or
// result. Every line is still accounted for, the links of later events
// (parent, a result's call) still name an event of the output, and
// nothing is counted twice.
//
// A unit whose session the pre-pass cannot tell (standard input, a pipe, a
// store a provider claims) is a group of its own, yet holds a copy when its
// session is the one read just before, as the transcripts' consolidator
// finds it: across a boundary where either group is such a unit, the state
// goes on, and the later unit is counted against it when its first event's
// session is one the state has seen (else the state starts anew). So every
// record the transcripts count once, the events count once too. Events
// read as agt.event/1 lines are never recounted: they pass as they are.
//
// The state is the group's: a few words per distinct record id of the
// group, dropped when the group ends; a group of one unit between told
// groups has none.
type recount struct {
	seed     maphash.Seed
	held     map[uint64]held
	natives  []string        // the native sessions of first holders
	index    map[string]int  // native session → its index in natives
	sessions map[string]bool // the agt sessions seen
	last     string          // the agt session of the last event
	units    int32
}

// held is what the units of a group read so far held of one record id.
type held struct {
	first string // the id of its first event, when not the key itself (a session that continues another held it first)
	max   int32  // its most occurrences in one unit before unit
	cur   int32  // its occurrences in unit
	unit  int32  // the unit cur counts in
	dups  int32  // duplicate events made of it, all sessions
	sess  int32  // the index of its first event's native session
}

func newRecount() *recount {
	r := &recount{seed: maphash.MakeSeed()}
	r.reset()
	return r
}

// reset forgets what the units read so far held.
func (r *recount) reset() {
	r.held, r.natives, r.index, r.sessions, r.last = map[uint64]held{}, nil, map[string]int{}, map[string]bool{}, ""
}

// unit returns the Recount of the next unit read (stage.Unit.Recount); when
// join, the unit is a copy of the units before only if its first event's
// session is one of theirs.
func (r *recount) unit(join bool) func(evs []agt.Event) {
	k := r.units
	r.units++
	return func(evs []agt.Event) {
		if join && len(evs) > 0 {
			join = false
			if !r.sessions[evs[0].Session] {
				r.reset()
			}
		}
		r.apply(k, evs)
	}
}

// apply counts the events of unit k and makes the repeats duplicates.
func (r *recount) apply(k int32, evs []agt.Event) {
	for i := range evs {
		ev := &evs[i]
		if ev.Session != r.last {
			r.last = ev.Session
			r.sessions[strings.Clone(ev.Session)] = true
		}
		if ev.ID == "" {
			continue
		}
		key := ev.ID
		if ev.Root != "" {
			key = ev.Root
		}
		h := maphash.String(r.seed, key)
		st, ok := r.held[h]
		if !ok {
			st = held{unit: k, sess: r.session(ev.NativeSession)}
			if ev.Root != "" {
				st.first = strings.Clone(ev.ID)
			}
		}
		if st.unit != k {
			st.max, st.cur, st.unit = max(st.max, st.cur), 0, k
		}
		st.cur++
		if st.cur <= st.max {
			st.dups++
			of := key
			if st.first != "" {
				of = st.first
			}
			cont := ""
			if n := r.natives[st.sess]; n != ev.NativeSession {
				cont = n
			}
			*ev = duplicate(ev, of, cont, st.dups)
		}
		r.held[h] = st
	}
}

// session is the index of the native session n in natives.
func (r *recount) session(n string) int32 {
	i, ok := r.index[n]
	if !ok {
		i = len(r.natives)
		n = strings.Clone(n)
		r.natives = append(r.natives, n)
		r.index[n] = i
	}
	return int32(i)
}

// duplicate is the event that stands for ev, the n-th repeat of the record
// of event of (see recount).
func duplicate(ev *agt.Event, of, continues string, n int32) agt.Event {
	id := ev.ID
	if s, err := uuid.Parse(ev.Session); err == nil && id == of {
		id = agt.EventID(s, of, agt.MetaDuplicate+"\x00"+strconv.Itoa(int(n)))
	}
	return agt.Event{Schema: ev.Schema, ID: id, Session: ev.Session, NativeSession: ev.NativeSession,
		Provider: ev.Provider, Format: ev.Format, Seq: ev.Seq, TS: ev.TS, Parent: ev.Parent, Stream: ev.Stream,
		Kind: agt.KindMeta, Meta: &agt.Meta{Type: agt.MetaDuplicate, Of: of, Continues: continues},
		Src: ev.Src, Raw: ev.Raw}
}
