package provider_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// FuzzParse feeds any input to every registered provider's parsers (see
// providertest.FuzzParse).
func FuzzParse(f *testing.F) { providertest.FuzzParse(f, nil) }

// FuzzDetect feeds any input to detection (no provider forced).
func FuzzDetect(f *testing.F) {
	var dirs []string
	for _, p := range provider.All() {
		dirs = append(dirs, providertest.SeedDirs(f, p.Name())...)
	}
	providertest.Seeds(f, func(b []byte) { f.Add(b) }, append(dirs, "other")...)
	f.Fuzz(func(t *testing.T, b []byte) { providertest.CheckParse(t, "auto", b) })
}

// FuzzNormalize feeds agt.event/1 lines (the output of agt-parse on corpus
// seeds, then mutated) to the normalize stage: no panic, valid JSON out, one
// event out per event in, and normalizing the output again changes nothing.
func FuzzNormalize(f *testing.F) {
	f.Add([]byte(`{"schema":"agt.event/1","kind":"tool_call","provider":"codex","tool":{"id":"c","name":"shell","native_name":"shell","native_input":{"command":["bash","-lc","cat a | head"]}},"src":{"path":"x","line":1}}` + "\n"))
	f.Add([]byte(`{"schema":"agt.event/1","kind":"usage","provider":"claude","model":"claude-opus-4-5","usage":{"scope":"call","input":1,"output":2,"cache_write":5,"cache_write_1h":9},"src":{"path":"x","line":1}}` + "\n"))
	n := &provider.Normalizer{Prices: nil}
	norm := func(t *testing.T, in []byte) []byte {
		var out bytes.Buffer
		src := stage.Input{Path: "-", Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(in)), nil }}
		if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Quiet: true, Transform: n.Event}}, []stage.Input{src}, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		out := norm(t, b)
		for _, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
			if len(line) > 0 && !json.Valid(line) {
				t.Fatalf("not JSON: %.300q", line)
			}
		}
		if again := norm(t, out); !bytes.Equal(again, out) {
			t.Fatalf("normalizing twice changes the output:\n%.500s\n%.500s", out, again)
		}
	})
}
