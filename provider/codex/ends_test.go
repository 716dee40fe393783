package codex

import (
	"fmt"
	"testing"

	"github.com/agt-project/agt"
)

// TestEndsReleased: an end event (exec_command_end) that comes before its
// call's output is kept until the output comes, then let go: its line
// points into a read block, which it would pin for the rest of the session
// (a 500 MB rollout held 157 MB of blocks that way).
func TestEndsReleased(t *testing.T) {
	c := newConv(false)
	em := agt.NewEmitter(Provider{}.Name(), "codex-rollout", agt.Options{})
	em.Session("s")
	const n = 1000
	for i := range n {
		line := agt.Raw(fmt.Sprintf(`{"call":%d}`, i))
		em.At(agt.Src{Path: "r.jsonl", Line: int64(2*i + 1)}, line)
		id := fmt.Sprintf("call_%d", i)
		st := c.call(em, id, "shell", agt.Raw(`{}`))
		c.endMCP(em, nil, id, "shell", nil, agt.Result{Output: agt.String("ok")}, nil)
		if st.end == nil {
			t.Fatalf("call %d: its end is not kept before its output", i)
		}
		em.At(agt.Src{Path: "r.jsonl", Line: int64(2*i + 2)}, line)
		c.result(em, id, agt.Result{Output: agt.String("ok")})
		if st.end != nil {
			t.Fatalf("call %d: its end is still kept after its output", i)
		}
		em.Take()
	}
	if len(c.ends) > 2 {
		t.Errorf("%d ends kept after %d calls given their output, want at most 2", len(c.ends), n)
	}
}

// TestEndKeepsCopies: an end that waits for its call's output (a web
// search's waits for the session's end) keeps copies of its line and
// output, not slices of the read block they came in.
func TestEndKeepsCopies(t *testing.T) {
	c := newConv(false)
	em := agt.NewEmitter(Provider{}.Name(), "codex-rollout", agt.Options{})
	em.Session("s")
	line := []byte(`{"end":1}`)
	out := []byte(`{"status":"completed"}`)
	em.At(agt.Src{Path: "r.jsonl", Line: 1}, line)
	st := c.call(em, "ws_1", "web_search", agt.Raw(`{}`))
	c.endOf(em, st, agt.Result{Output: out})
	copy(line, "XXXXXXXXX")
	copy(out, "XXXXXXXXXXXXXXXXXXXXXX")
	if string(st.end.raw) != `{"end":1}` || string(st.end.res.Output) != `{"status":"completed"}` {
		t.Errorf("the end's line %s and output %s change with the read block", st.end.raw, st.end.res.Output)
	}
}
