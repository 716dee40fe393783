package codex

import (
	"runtime"
	"strings"
	"testing"
)

// TestMembersNotCopied decodes a rollout line with a long tool output: the
// members kept raw share the line's memory (a copy of each was a sixth of
// what the fused run allocated), and a null member is nil, as agt.Raw's.
func TestMembersNotCopied(t *testing.T) {
	big := strings.Repeat("x", 1<<16)
	line := []byte(`{"timestamp":"2025-01-01T00:00:00.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"` + big + `","status":null}}`)
	p := &rolloutParser{}
	if _, err := p.Decode(line); err != nil { // the decoder compiled
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	var v any
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 10 {
		var err error
		if v, err = p.Decode(line); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	it := &v.(*rolloutLine).Payload
	if len(it.Output) != len(big)+2 || it.Status != nil {
		t.Fatalf("output of %d bytes, status %q", len(it.Output), it.Status)
	}
	if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > 1<<14 {
		t.Errorf("decoding allocates %d bytes a line of %d: the output is copied", per, len(line))
	}
}
