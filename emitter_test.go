package agt

import (
	"testing"

	"github.com/google/uuid"
)

// TestPendingLinks: a result emitted while no session is known links to its
// call once the session is named, as if the session had been known.
func TestPendingLinks(t *testing.T) {
	run := func(late bool) []Event {
		em := NewEmitter("x", "x-log", Options{})
		em.At(Src{Path: "f.jsonl", Line: 1}, nil)
		if !late {
			em.Session("s1")
		}
		call := em.Emit(Event{Kind: KindToolCall, Tool: &Tool{ID: "t1", Name: "Read", NativeName: "Read"}}, "c1", "call")
		em.At(Src{Path: "f.jsonl", Line: 2}, nil)
		em.Emit(Event{Kind: KindToolResult, Result: &Result{ID: "t1", Call: call}}, "r1", "result")
		if late {
			em.Session("s1")
		}
		em.Done()
		out, _ := em.Take()
		return out
	}
	early, late := run(false), run(true)
	if len(late) != 2 || late[1].Result.Call != late[0].ID || late[1].Result.Call != early[1].Result.Call {
		t.Errorf("late link %q, call id %q, early link %q", late[1].Result.Call, late[0].ID, early[1].Result.Call)
	}
	if late[1].Parent != late[0].ID || late[0].Seq != 0 || late[1].Seq != 1 {
		t.Errorf("seq/parent not assigned on release: %+v", late)
	}
}

func TestIDMaker(t *testing.T) {
	var m idMaker
	s := uuid.MustParse(SessionID("claude", "abc"))
	for _, k := range []string{"", "k", "msg_01\x00x", "a long key with ünïcode"} {
		if got, want := m.id(s, k, "suffix"), EventID(s, k, "suffix"); got != want {
			t.Errorf("%q: %s, want %s", k, got, want)
		}
	}
}
