package transcript_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// TestCopiesCountOnce: a session read from two copies (a second unit whose
// first event belongs to the open session) is one transcript; a record of
// both copies counts once though its seq and line differ, a record only the
// second copy holds counts, and the updates of one record (one id, twice in
// a copy) count as often as the copy that has most of them holds them.
func TestCopiesCountOnce(t *testing.T) {
	ev := func(path string, line int64, session, id string, seq int64) agt.Event {
		return agt.Event{Schema: agt.Schema, Provider: providertest.Stub, Format: providertest.StubFormat, Session: agt.SessionID(providertest.Stub, session),
			NativeSession: session, ID: id, Seq: seq, Kind: agt.KindUser, Text: agt.Raw(`"` + id + `"`), Stream: agt.StreamMain, Src: agt.Src{Path: path, Line: line}}
	}
	var got []string
	var events []int
	cons := transcript.NewConsolidator(func(p string) string { return p }, true, func(unit string, tr *transcript.Transcript, evs []agt.Event) error {
		got = append(got, unit+" "+tr.NativeSession)
		events = append(events, len(evs))
		return nil
	})
	in := []agt.Event{
		ev("a", 1, "s1", "r1", 0), ev("a", 2, "s1", "r2", 1), ev("a", 3, "s1", "r2", 2), ev("a", 4, "s1", "r3", 3),
		// the copy: one record more at the start, lines and seqs shifted
		ev("b", 1, "s1", "r0", 0), ev("b", 3, "s1", "r1", 1), ev("b", 4, "s1", "r2", 2), ev("b", 5, "s1", "r2", 3), ev("b", 6, "s1", "r2", 4), ev("b", 7, "s1", "r3", 5),
		// another session: the group ends
		ev("c", 1, "s2", "q1", 0),
	}
	if err := cons.Add(in); err != nil {
		t.Fatal(err)
	}
	if err := cons.Close(); err != nil {
		t.Fatal(err)
	}
	// s1: r1, r2, r2, r3 from a; r0 and a third r2 from b
	if len(got) != 2 || got[0] != "a s1" || got[1] != "c s2" || events[0] != 6 || events[1] != 1 {
		t.Fatalf("transcripts %q with %v events, want [a s1, c s2] with [6 1]", got, events)
	}
}

// TestNamedLate: a session_named event makes the open provisional session
// it continues the named session's transcript (its native id, all its
// events); a provisional session never named stays one; a session named
// when it is open already leaves the provisional session apart.
func TestNamedLate(t *testing.T) {
	prov := agt.ProvisionalSession([]byte(`{"x":1}`))
	ev := func(path string, session, id string, seq int64) agt.Event {
		return agt.Event{Schema: agt.Schema, Provider: providertest.Stub, Format: providertest.StubFormat, Session: agt.SessionID(providertest.Stub, session),
			NativeSession: session, ID: id, Seq: seq, Kind: agt.KindUser, Text: agt.Raw(`"` + id + `"`), Stream: agt.StreamMain, Src: agt.Src{Path: path, Line: seq + 1}}
	}
	tie := func(path, session string, seq int64) agt.Event {
		e := ev(path, session, "tie-"+path, seq)
		e.Kind, e.Text, e.Meta = agt.KindMeta, nil, &agt.Meta{Type: agt.MetaNamed, Continues: prov}
		return e
	}
	run := func(in ...agt.Event) []string {
		var got []string
		cons := transcript.NewConsolidator(func(p string) string { return p }, true, func(unit string, tr *transcript.Transcript, evs []agt.Event) error {
			if tr.Session != agt.SessionID(providertest.Stub, tr.NativeSession) {
				t.Errorf("session %s is not %s's", tr.Session, tr.NativeSession)
			}
			got = append(got, fmt.Sprintf("%s %s %d/%d", unit, tr.NativeSession, tr.Counts.Messages, len(evs)))
			return nil
		})
		if err := cons.Add(in); err != nil {
			t.Fatal(err)
		}
		if err := cons.Close(); err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, c := range []struct {
		name string
		in   []agt.Event
		want []string
	}{
		{"named", []agt.Event{ev("a", prov, "1", 0), ev("a", prov, "2", 1), tie("a", "real", 2), ev("a", "real", "3", 3)},
			[]string{"a real 3/4"}},
		{"never named", []agt.Event{ev("a", prov, "1", 0), ev("a", prov, "2", 1)},
			[]string{"a " + prov + " 2/2"}},
		{"two runs alike", []agt.Event{ev("a", prov, "1", 0), tie("a", "r1", 1), ev("b", prov, "1", 0), tie("b", "r2", 1)},
			[]string{"a r1 1/2", "b r2 1/2"}},
		{"named session open", []agt.Event{ev("a", "real", "0", 0), ev("a", prov, "1", 0), tie("a", "real", 1)},
			[]string{"a real 1/2", "a " + prov + " 1/1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := run(c.in...); !slices.Equal(got, c.want) {
				t.Errorf("transcripts %q, want %q", got, c.want)
			}
		})
	}
}

// TestDuplicates: duplicate events (the parse's word that a record was
// read before) count for nothing but as an occurrence of the event they
// repeat, so the consolidator's own rule still holds beside them (a third
// r2 in the copy counts once more); the first that names another session
// gives the transcript's continues; a duplicate of a session with no
// transcript open and no other session named makes none.
func TestDuplicates(t *testing.T) {
	ev := func(path string, line int64, session, id string, seq int64) agt.Event {
		return agt.Event{Schema: agt.Schema, Provider: providertest.Stub, Format: providertest.StubFormat, Session: agt.SessionID(providertest.Stub, session),
			NativeSession: session, ID: id, Seq: seq, Kind: agt.KindUser, Text: agt.Raw(`"` + id + `"`), Stream: agt.StreamMain, Src: agt.Src{Path: path, Line: line}}
	}
	dup := func(e agt.Event, of, continues string) agt.Event {
		e.ID, e.Kind, e.Text, e.Meta = "dup-"+e.ID+e.Src.Path, agt.KindMeta, nil, &agt.Meta{Type: agt.MetaDuplicate, Of: of, Continues: continues}
		return e
	}
	var got []string
	cons := transcript.NewConsolidator(func(p string) string { return p }, true, func(unit string, tr *transcript.Transcript, evs []agt.Event) error {
		got = append(got, fmt.Sprintf("%s %s continues %q: %d messages", unit, tr.NativeSession, tr.Continues, tr.Counts.Messages))
		return nil
	})
	in := []agt.Event{
		ev("a", 1, "s1", "r1", 0), ev("a", 2, "s1", "r2", 1), ev("a", 3, "s1", "r2", 2),
		// a copy: r1 and two r2 repeat a's, a third r2 and r4 are its own
		dup(ev("b", 1, "s1", "r1", 0), "r1", ""), dup(ev("b", 2, "s1", "r2", 1), "r2", ""), dup(ev("b", 3, "s1", "r2", 2), "r2", ""),
		ev("b", 4, "s1", "r2", 3), ev("b", 5, "s1", "r4", 4),
		// a resumed session: its copy of r1 repeats s1's, then its own
		dup(ev("c", 1, "s3", "x1", 0), "r1", "s1"), ev("c", 2, "s3", "x2", 1),
		// a copy of a session no transcript holds: nothing
		dup(ev("d", 1, "s4", "y1", 0), "y0", ""),
	}
	if err := cons.Add(in); err != nil {
		t.Fatal(err)
	}
	if err := cons.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{`a s1 continues "": 5 messages`, `c s3 continues "s1": 1 messages`}
	if !slices.Equal(got, want) {
		t.Errorf("transcripts %q, want %q", got, want)
	}
}
