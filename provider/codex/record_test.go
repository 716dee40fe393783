package codex

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agt-project/agt"
)

// TestMembersNotCopied decodes a rollout line with a long tool output: the
// members kept raw share the line's memory once the JIT decoder reads the
// line type, as it does a type read often (a copy of each was a sixth of
// what the fused run allocated), and a null member is nil, as agt.Raw's.
func TestMembersNotCopied(t *testing.T) {
	jit := agt.Compiled(&rolloutLine{})
	big := strings.Repeat("x", 1<<16)
	line := []byte(`{"timestamp":"2025-01-01T00:00:00.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"` + big + `","status":null}}`)
	v, err := (&rolloutParser{}).Decode(line)
	if err != nil {
		t.Fatal(err)
	}
	it := &v.(*rolloutLine).Payload
	if len(it.Output) != len(big)+2 || it.Status != nil {
		t.Fatalf("output of %d bytes, status %q", len(it.Output), it.Status)
	}
	if jit && &it.Output[0] != &line[bytes.Index(line, []byte(`"xxx`))] {
		t.Error("the output is a copy, not the line's bytes")
	}
}
