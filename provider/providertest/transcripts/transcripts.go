// Package transcripts consolidates inputs in tests, as agt-transcript does.
// It is apart from providertest, which the transcript package's own tests
// import.
package transcripts

import (
	"bytes"
	"context"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
)

// Of consolidates files in-process as agt-transcript does (parse,
// normalize, consolidate) and returns their transcripts.
func Of(t testing.TB, paths ...string) []*transcript.Transcript {
	t.Helper()
	ins, errs := stage.Expand(paths, nil, provider.Claim)
	if len(errs) > 0 {
		t.Fatalf("expand %v: %v", paths, errs)
	}
	var ts []*transcript.Transcript
	cons := transcript.NewConsolidator(provider.UnitKey, false, func(_ string, tr *transcript.Transcript, _ []agt.Event) error {
		c := *tr
		ts = append(ts, &c)
		return nil
	})
	cfg := provider.Config{Config: stage.Config{Quiet: true, Transform: (&provider.Normalizer{}).Event}, Sink: cons.Add}
	if _, err := provider.Parse(context.Background(), cfg, ins, nil, &bytes.Buffer{}); err != nil {
		t.Fatalf("parse %v: %v", paths, err)
	}
	if err := cons.Close(); err != nil {
		t.Fatal(err)
	}
	return ts
}

// Messages are the messages of transcripts, their subagents' included.
func Messages(ts []*transcript.Transcript) []transcript.Message {
	var ms []transcript.Message
	for _, tr := range ts {
		ms = append(ms, tr.Messages...)
		for _, s := range tr.Subagents {
			ms = append(ms, s.Messages...)
		}
	}
	return ms
}
