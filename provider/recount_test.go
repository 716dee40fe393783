package provider_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// TestDuplicateEvents: a session log given twice (a backup beside it) is
// read once for what it holds: every event of the second copy stands for
// its line as a duplicate event, meta {type duplicate, of: the id of the
// first copy's event it repeats}, with the copy's own src, seq and raw,
// an id of its own, and nothing to count (no text, usage or tool). The
// same with one worker.
func TestDuplicateEvents(t *testing.T) {
	dir := t.TempDir()
	log := `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hello"}}
{"type":"assistant","uuid":"a1","sessionId":"s1","requestId":"r1","timestamp":"2026-01-15T10:00:01Z","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":3,"output_tokens":4}}}
`
	a, b := filepath.Join(dir, "a", "s1.jsonl"), filepath.Join(dir, "b", "s1.jsonl")
	for _, p := range []string{a, b} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := providertest.ParseClean(t, provider.Config{Opts: agt.Options{Raw: true}}, a, b)
	if one := providertest.ParseClean(t, provider.Config{Config: stage.Config{Workers: 1}, Opts: agt.Options{Raw: true}}, a, b); !bytes.Equal(one, out) {
		t.Errorf("one worker gives other events")
	}
	evs := providertest.Events(t, out)
	var first, dups []agt.Event
	ids := map[string]bool{}
	for _, ev := range evs {
		if ids[ev.ID] {
			t.Errorf("id %s twice", ev.ID)
		}
		ids[ev.ID] = true
		if ev.Src.Path == a {
			first = append(first, ev)
		} else {
			dups = append(dups, ev)
		}
	}
	if len(first) != 4 || len(dups) != len(first) {
		t.Fatalf("%d events of the first copy, %d of the second; want 4 each (user, text, call, usage)", len(first), len(dups))
	}
	for i, d := range dups {
		f := first[i]
		if agt.DuplicateOf(&d) != f.ID || d.Meta.Continues != "" {
			t.Errorf("event %d of the copy: %s %+v, want a duplicate of %s", i, d.Kind, d.Meta, f.ID)
		}
		if d.Src.Path != b || d.Src.Line != f.Src.Line || d.Seq != f.Seq || d.Session != f.Session || len(d.Raw) == 0 {
			t.Errorf("event %d of the copy: src %v seq %d raw %d bytes, want %s:%d seq %d and its raw line", i, d.Src, d.Seq, len(d.Raw), b, f.Src.Line, f.Seq)
		}
		if d.Text != nil || d.Usage != nil || d.Tool != nil || d.Result != nil {
			t.Errorf("event %d of the copy carries content: %+v", i, d)
		}
	}
}
