package transcript_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
)

// FuzzTranscript consolidates any input (logs or events): no panic, every
// transcript one valid JSON line, counts never negative.
func FuzzTranscript(f *testing.F) {
	f.Add([]byte(`{"schema":"agt.event/1","session":"s","kind":"tool_result","result":{"id":"x","call":"nope"},"src":{"path":"a","line":1}}` + "\n"))
	for _, name := range []string{"agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl", "agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl", "agentsessions__gemini-jsonl-v040.jsonl", "agentv__db-325365b92c-0.jsonl"} {
		if b, err := os.ReadFile(providertest.Sample(f, name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var out bytes.Buffer
		cons := transcript.NewConsolidator(provider.UnitKey, true, transcript.Lines(&out))
		in := stage.Input{Path: "fuzz.jsonl", Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }}
		cfg := provider.Config{Config: stage.Config{Quiet: true, Transform: (&provider.Normalizer{}).Event}, Sink: cons.Add}
		if _, err := provider.Parse(context.Background(), cfg, []stage.Input{in}, nil, io.Discard); err != nil {
			t.Fatal(err)
		}
		if err := cons.Close(); err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var tr transcript.Transcript
			if !json.Valid(line) || json.Unmarshal(line, &tr) != nil {
				t.Fatalf("not a transcript: %.300q", line)
			}
			c := tr.Counts
			if c.Messages < 0 || c.ToolCalls < 0 || c.UnpairedCalls < 0 || c.UnpairedCalls > c.ToolCalls {
				t.Fatalf("counts %+v", c)
			}
		}
	})
}
