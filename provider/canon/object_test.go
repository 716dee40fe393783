package canon

import (
	"strings"
	"testing"

	"github.com/agt-project/agt"
)

// TestMembersInPlace: parseObject and parseArray read their input in place,
// the members and elements slices of it, not of copies (two copies of
// every tool input, and one of each member, were made before); a key is
// the caller's own string.
func TestMembersInPlace(t *testing.T) {
	big := strings.Repeat("x", 1<<16)
	in := agt.Raw(`{"command":"` + big + `","path":["a","` + big + `"]}`)
	o, ok := parseObject(in)
	if !ok {
		t.Fatal("not an object")
	}
	var before, after int
	for _, f := range o.f {
		before += len(f.v)
	}
	if v := o.get("command"); len(v) != len(big)+2 || &v[0] != &in[len(`{"command":`)] {
		t.Fatalf("command is not a slice of the input")
	}
	elems, ok := parseArray(o.get("path"))
	if !ok || len(elems) != 2 || &elems[1][0] != &o.get("path")[len(`["a",`)] {
		t.Fatalf("elements %q are not slices of the input", elems)
	}
	for _, f := range o.f {
		after += len(f.v)
	}
	if before != after || o.f[0].k != "command" {
		t.Errorf("members changed: %d -> %d bytes, first key %q", before, after, o.f[0].k)
	}
}
