package transcript_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/transcript"
)

// TestCopiesCountOnce: a session read from two copies (a second unit whose
// first event belongs to the open session) is one transcript; a record of
// both copies counts once though its seq and line differ, a record only the
// second copy holds counts, and the updates of one record (one id, twice in
// a copy) count as often as the copy that has most of them holds them.
func TestCopiesCountOnce(t *testing.T) {
	ev := func(path string, line int64, session, id string, seq int64) agt.Event {
		return agt.Event{Schema: agt.Schema, Provider: "claude", Format: "claude-session", Session: agt.SessionID("claude", session),
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
