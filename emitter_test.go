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

// TestProvisional: a provisional session named after the first record;
// the session named next continues it: a session_named event first, seq
// numbers and parent links going on; a session named after that is a new
// one; an empty name or the provisional id itself ties nothing.
func TestProvisional(t *testing.T) {
	em := NewEmitter("x", "x-live", Options{})
	first := Raw(`{"type":"a"}`)
	em.At(Src{Path: "f.jsonl", Line: 1}, first)
	em.Provisional()
	prov := ProvisionalSession(first)
	if em.Current() != prov || !em.IsProvisional() || len(prov) != len(ProvisionalPrefix)+32 {
		t.Fatalf("current %q, want %q", em.Current(), prov)
	}
	call := em.Emit(Event{Kind: KindToolCall, Tool: &Tool{ID: "t1", Name: "Read", NativeName: "Read"}}, "c1", "call")
	if em.Session("") || em.Session(prov) {
		t.Errorf("an empty name or the provisional id ties")
	}
	em.At(Src{Path: "f.jsonl", Line: 2}, Raw(`{"type":"b"}`))
	if !em.Session("real") || em.IsProvisional() {
		t.Fatalf("the first session named does not continue the provisional one")
	}
	em.Emit(Event{Kind: KindToolResult, TS: "2026-01-01T00:00:02.000Z", Result: &Result{ID: "t1", Call: call}}, "r1", "result")
	if em.Session("other") {
		t.Errorf("a second session continues the provisional one")
	}
	em.Emit(Event{Kind: KindUser, Text: String("hi")}, "u1", "text")
	em.Done()
	out, _ := em.Take()
	if len(out) != 4 {
		t.Fatalf("%d events, want 4", len(out))
	}
	tie := out[1]
	if tie.NativeSession != "real" || tie.Meta == nil || tie.Meta.Type != MetaNamed || tie.Meta.Continues != prov || Continued(&tie) != out[0].Session || tie.TS != "2026-01-01T00:00:02.000Z" || tie.Src.Line != 2 {
		t.Errorf("tie %+v", tie)
	}
	if tie.ID != EventID(uuid.MustParse(SessionID("x", "real")), prov, "continues") {
		t.Errorf("tie id %s", tie.ID)
	}
	for i, ev := range out[:3] {
		if ev.Seq != int64(i) || (i > 0 && ev.Parent != out[i-1].ID) {
			t.Errorf("event %d: seq %d parent %q", i, ev.Seq, ev.Parent)
		}
	}
	if out[2].NativeSession != "real" || out[2].Result.Call != out[0].ID {
		t.Errorf("result %+v", out[2])
	}
	if out[3].NativeSession != "other" || out[3].Seq != 0 || out[3].Parent != "" || Continued(&out[3]) != "" {
		t.Errorf("other session's event %+v", out[3])
	}

	// named, then nothing emitted: Done ties it
	em = NewEmitter("x", "x-live", Options{})
	em.At(Src{Path: "f.jsonl", Line: 1}, first)
	em.Provisional()
	em.Emit(Event{Kind: KindUser, Text: String("hi")}, "u1", "text")
	em.Session("real")
	em.Done()
	if out, _ = em.Take(); len(out) != 2 || out[1].Meta == nil || out[1].Meta.Continues != prov || out[1].Seq != 1 {
		t.Errorf("events %+v", out)
	}
}

// TestRawOneLine: the raw record an event keeps never spans lines, as a
// record cut out of a pretty-printed document (or a broken one) would.
func TestRawOneLine(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`{"a":1}`, `{"a":1}`},
		{"{\n  \"a\": [1,\r\n 2]\n}", `{"a":[1,2]}`},
		{"{\"a\":\n", `"{\"a\":\n"`}, // not JSON: kept as its text
		{"{\"a\":\r\"\xff\n", "\"{\\\"a\\\":\\r\\\"\uFFFD\\n\""},
		{`{}0`, `"{}0"`}, // an unknown record that is not one JSON value
	} {
		em := NewEmitter("x", "x-log", Options{Raw: true})
		em.Session("s")
		em.At(Src{Path: "f.json", Ptr: "/0"}, Raw(c.raw))
		em.Emit(Event{Kind: KindUnknown}, "", "unknown")
		em.Done()
		out, _ := em.Take()
		if len(out) != 1 || string(out[0].Raw) != c.want {
			t.Errorf("raw %q kept as %q, want %q", c.raw, out[0].Raw, c.want)
		}
	}
}

// TestUsageOnlyUnknown: for a usage report (Options.Usage) an unknown
// record keeps the record as read, unchecked (no one writes it), and is
// still an unknown event, not an error; a record with nothing read is
// checked as always.
func TestUsageOnlyUnknown(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"{\"a\":\n", "{\"a\":\n"},
		{"", ""},
	} {
		em := NewEmitter("x", "x-log", Options{Usage: true})
		em.Session("s")
		em.At(Src{Path: "f.jsonl", Line: 1}, Raw(c.raw))
		em.Emit(Event{Kind: KindUnknown}, "", "unknown")
		em.Done()
		out, diags := em.Take()
		if c.raw == "" {
			if len(out) != 1 || out[0].Kind != KindError || len(diags) != 1 {
				t.Errorf("nothing read: %+v, %v", out, diags)
			}
			continue
		}
		if len(out) != 1 || out[0].Kind != KindUnknown || string(out[0].Raw) != c.want || len(diags) > 0 {
			t.Errorf("raw %q: %+v, %v", c.raw, out, diags)
		}
	}
}
