package transcript_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
)

// consolidate parses paths in-process (with the normalize stage) and
// returns the transcripts and the events they were built from.
func consolidate(t testing.TB, cfg provider.Config, paths ...string) ([]*transcript.Transcript, []agt.Event) {
	t.Helper()
	var ins []stage.Input
	for _, p := range paths {
		ins = append(ins, stage.FileInput(p))
	}
	var evs []agt.Event
	var ts []*transcript.Transcript
	cons := transcript.NewConsolidator(provider.UnitKey, false, func(_ string, tr *transcript.Transcript, _ []agt.Event) error {
		c := *tr
		ts = append(ts, &c)
		return nil
	})
	cfg.Transform = (&provider.Normalizer{}).Event
	cfg.Sink = func(b []agt.Event) error {
		evs = append(evs, b...)
		return cons.Add(b)
	}
	cfg.Quiet = true
	if _, err := provider.Parse(context.Background(), cfg, ins, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if err := cons.Close(); err != nil {
		t.Fatal(err)
	}
	return ts, evs
}

// TestCorpusTranscripts checks every corpus file: each session's usage is
// the sum of its usage events, and tool calls are paired with their results
// for at least 99.9% of the results in the log.
func TestCorpusTranscripts(t *testing.T) {
	dir := providertest.CorpusDir(t)
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) && !strings.Contains(p, "/other/") && !strings.HasSuffix(p, "reference.json") {
			files = append(files, p)
		}
		return nil
	})
	var results, paired int
	for _, f := range files {
		ts, evs := consolidate(t, provider.Config{}, f)
		want := map[string]agt.Usage{}
		callIDs := map[string]bool{}
		for i := range evs {
			ev := &evs[i]
			if ev.Kind == agt.KindUsage {
				u := want[ev.Session]
				u.Add(ev.Usage)
				want[ev.Session] = u
			}
			if ev.Kind == agt.KindToolCall {
				callIDs[ev.ID] = true
			}
			if ev.Kind == agt.KindToolResult && callIDs[ev.Result.Call] {
				results++
			}
		}
		for _, tr := range ts {
			w := want[tr.Session]
			g := tr.Usage
			if g.Input != w.Input || g.CacheRead != w.CacheRead || g.CacheWrite != w.CacheWrite || g.Output != w.Output || g.Total != w.Total {
				t.Errorf("%s: session %s usage %+v, events sum %+v", filepath.Base(f), tr.NativeSession, g, w)
			}
			n := 0
			count := func(ms []transcript.Message) {
				for _, m := range ms {
					for _, c := range m.ToolCalls {
						if c.Status != transcript.StatusUnknown {
							n++
						}
					}
				}
			}
			count(tr.Messages)
			for _, s := range tr.Subagents {
				count(s.Messages)
			}
			paired += n
		}
	}
	if results == 0 || float64(paired) < 0.999*float64(results) {
		t.Errorf("paired %d of %d results whose call is in the log", paired, results)
	}
	t.Logf("%d files, %d results with their call in the log, %d paired", len(files), results, paired)
}
