package claude

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/agt-project/agt"
)

// TestStateInFlight feeds a long session and checks that the parser keeps
// state for the work in flight only: the open call, the calls waiting for
// their result, and a bounded memory of closed calls.
func TestStateInFlight(t *testing.T) {
	const n = maxClosed + 1000
	p := newParser(false, agt.Options{})
	em := agt.NewEmitter("claude", FormatSession, agt.Options{})
	line := int64(0)
	feed := func(s string) {
		line++
		em.At(agt.Src{Path: "s.jsonl", Line: line}, agt.Raw(s))
		v, err := p.Decode([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		p.Apply(em, v)
		em.Take()
	}
	for i := range n {
		id := strconv.Itoa(i)
		for out := range 3 { // three lines of one response, the count growing
			feed(`{"type":"assistant","uuid":"a` + id + `-` + strconv.Itoa(out) + `","sessionId":"s","requestId":"r` + id +
				`","message":{"id":"m` + id + `","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t` + id +
				`","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":1,"output_tokens":` + strconv.Itoa(out) + `}}}`)
		}
		feed(`{"type":"user","uuid":"u` + id + `","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t` + id + `","content":"ok"}]}}`)
		if len(p.open) != 1 || len(p.byKey) != 1 || len(p.calls) != 0 {
			t.Fatalf("after call %d: %d open calls, %d keyed, %d calls waiting for a result", i, len(p.open), len(p.byKey), len(p.calls))
		}
	}
	if len(p.closed) != maxClosed || len(p.ring) != maxClosed {
		t.Errorf("closed calls remembered: %d (ring %d), want %d", len(p.closed), len(p.ring), maxClosed)
	}
	p.Finish(em)
	if evs, _ := em.Take(); len(evs) != 0 {
		t.Errorf("Finish emitted %+v, want nothing: each call's usage is out at its lines", evs)
	}
}

// TestContentNotCopied decodes a record with a large content array: its
// blocks are read in place, not from a copy of the array (a copy of every
// message's content was a tenth of the fused run's allocations).
func TestContentNotCopied(t *testing.T) {
	big := strings.Repeat("x", 1<<16)
	line := []byte(`{"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"` + big + `"}]}}`)
	d, err := decodeRecord(line, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.blocks) != 1 || len(d.blocks[0].Content) != len(big)+2 {
		t.Fatalf("blocks %+v", d.blocks)
	}
	if c := d.blocks[0].Content; &c[0] != &line[bytes.Index(line, []byte(`"xxx`))] {
		t.Error("the block's content is a copy, not the line's bytes")
	}
}
