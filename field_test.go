package agt

import (
	"strings"
	"testing"
)

func TestDecodeValue(t *testing.T) {
	type rollback struct {
		N int `json:"num_turns"`
	}
	for _, c := range []struct {
		raw, want string
		n         int
	}{
		{`{"num_turns":3}`, "", 3},
		{``, "", 0},
		{`null`, "", 0},
		{`{"num_turns":"3"}`, `unexpected field type: payload: "num_turns": a string where an integer belongs`, 0},
		{`{"x":1,"num_turns":2.5}`, `unexpected field type: payload: "num_turns": a number where an integer belongs`, 0},
		{`[1]`, `unexpected field type: "payload": an array where an object belongs`, 0},
	} {
		var v rollback
		err := DecodeValue("payload", Raw(c.raw), &v)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want || v.N != c.n {
			t.Errorf("DecodeValue(%s) = %d, %q; want %d, %q", c.raw, v.N, got, c.n, c.want)
		}
		if err != nil && !IsFieldError(err) {
			t.Errorf("DecodeValue(%s): %v is no FieldError", c.raw, err)
		}
	}
}

// TestField: a wrong-typed member gives an error event on its record and
// its diagnostic, named by the record's place; a right one gives nothing.
func TestField(t *testing.T) {
	em := NewEmitter("codex", "codex-rollout", Options{})
	em.Session("s")
	em.At(Src{Path: "r.jsonl", Line: 4}, Raw(`{"payload":{"num_turns":"3"}}`))
	var v struct {
		N int `json:"num_turns"`
	}
	if !em.Field("payload", Raw(`{"num_turns":1}`), &v) || v.N != 1 {
		t.Fatalf("a good value: %+v", v)
	}
	if em.Field("payload", Raw(`{"num_turns":"3"}`), &v) {
		t.Fatal("a string where an integer belongs read as good")
	}
	ev, d := em.Take()
	if len(ev) != 1 || ev[0].Kind != KindError || ev[0].Error.LineText != `{"payload":{"num_turns":"3"}}` {
		t.Fatalf("events %+v", ev)
	}
	if len(d) != 1 || !strings.HasPrefix(d[0].String(), `r.jsonl:4: unexpected field type: payload: "num_turns": a string`) || !d[0].Data {
		t.Fatalf("diagnostics %+v", d)
	}
}
