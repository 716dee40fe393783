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
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
)

// Of consolidates files in-process as agt-transcript does (parse,
// normalize, consolidate) and returns their transcripts.
func Of(t testing.TB, paths ...string) []*transcript.Transcript {
	t.Helper()
	ts, _ := With(t, provider.Config{}, paths...)
	return ts
}

// With consolidates files in-process with cfg (its Transform the
// normalize stage when it has none; quiet) and returns their transcripts
// and the events they were built from.
func With(t testing.TB, cfg provider.Config, paths ...string) ([]*transcript.Transcript, []agt.Event) {
	t.Helper()
	ins, errs := stage.Expand(paths, nil, provider.Claim)
	if len(errs) > 0 {
		t.Fatalf("expand %v: %v", paths, errs)
	}
	var ts []*transcript.Transcript
	var evs []agt.Event
	cons := transcript.NewConsolidator(provider.UnitKey, false, func(_ string, tr *transcript.Transcript, _ []agt.Event) error {
		c := *tr
		ts = append(ts, &c)
		return nil
	})
	if cfg.Transform == nil {
		cfg.Transform = (&provider.Normalizer{}).Event
	}
	cfg.Quiet = true
	cfg.Sink = func(b []agt.Event) error {
		evs = append(evs, b...)
		return cons.Add(b)
	}
	if _, err := provider.Parse(context.Background(), cfg, ins, nil, &bytes.Buffer{}); err != nil {
		t.Fatalf("parse %v: %v", paths, err)
	}
	if err := cons.Close(); err != nil {
		t.Fatal(err)
	}
	return ts, evs
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

// OutcomeCase is a capture of a run kept in testdata (a path below the
// repository's testdata folder) and how its transcript says the run ended.
type OutcomeCase = struct {
	File, Status, Reason string
}

// CheckOutcomes consolidates each case's capture: one transcript, whose
// outcome has the case's status and reason, with errors when the status
// is a failure.
func CheckOutcomes(t *testing.T, cases []OutcomeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.File, func(t *testing.T) {
			ts := Of(t, providertest.Testdata(t, c.File))
			if len(ts) != 1 {
				t.Fatalf("%d transcripts", len(ts))
			}
			o := ts[0].Outcome
			if o.Status != c.Status || o.Reason != c.Reason {
				t.Errorf("outcome %+v, want status %s reason %q", o, c.Status, c.Reason)
			}
			if agt.Failed(c.Status) != (o.Errors > 0) {
				t.Errorf("outcome %+v: errors do not fit the status", o)
			}
		})
	}
}
