package transcript_test

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/price"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
)

// consolidate parses paths in-process (with the normalize stage) and
// returns the transcripts and the events they were built from.
func consolidate(t testing.TB, cfg provider.Config, paths ...string) ([]*transcript.Transcript, []agt.Event) {
	t.Helper()
	ins, errs := stage.Expand(paths, nil, provider.Claim)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var evs []agt.Event
	var ts []*transcript.Transcript
	cons := transcript.NewConsolidator(provider.UnitKey, false, func(_ string, tr *transcript.Transcript, _ []agt.Event) error {
		c := *tr
		ts = append(ts, &c)
		return nil
	})
	if cfg.Transform == nil {
		cfg.Transform = (&provider.Normalizer{}).Event
	}
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
// for at least 99.9% of the results in the log, and each model call is one
// assistant message with its own usage (checkCalls).
func TestCorpusTranscripts(t *testing.T) {
	dir := providertest.CorpusDir(t)
	ins, _ := stage.Expand([]string{dir}, nil, provider.Claim)
	var files []string
	for _, in := range ins {
		if !strings.Contains(in.Path, "/other/") && !strings.HasSuffix(in.Path, "reference.json") {
			files = append(files, in.Path)
		}
	}
	var results, paired, calls int
	for _, f := range files {
		ts, evs := consolidate(t, provider.Config{}, f)
		calls += checkCalls(t, f, ts, evs)
		want := map[string]agt.Usage{}
		callIDs := map[string]bool{}
		named := namedSessions(evs)
		for i := range evs {
			ev := &evs[i]
			if ev.Kind == agt.KindUsage {
				s := named(ev.Session)
				u := want[s]
				u.Add(ev.Usage)
				want[s] = u
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
	if calls == 0 {
		t.Error("no model call with usage in the corpus")
	}
	t.Logf("%d files, %d results with their call in the log, %d paired, %d model calls each one message", len(files), results, paired, calls)
}

// goldenSessions are the real sessions (licensed copies in testdata/)
// whose transcripts were reviewed by hand against the raw logs: one golden
// file testdata/transcript/<path, "/" written "__">.transcript.jsonl each,
// found from the golden files, not from a list (to add one, create its
// golden file empty and run the test with -update). Each names the path
// under testdata/ it was made from.
func goldenSessions(t *testing.T, root string) []string {
	t.Helper()
	goldens, _ := filepath.Glob(filepath.Join(root, "transcript", "*"+transcript.ExtTranscript))
	if len(goldens) == 0 {
		t.Fatal("no golden transcript")
	}
	byName := map[string][]string{} // "/" written "__" → paths under testdata
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil || strings.HasPrefix(rel, "transcript") || strings.HasPrefix(rel, "export") {
			return nil
		}
		k := strings.ReplaceAll(rel, "/", "__")
		byName[k] = append(byName[k], rel)
		return nil
	})
	var rels []string
	for _, g := range goldens {
		name := strings.TrimSuffix(filepath.Base(g), transcript.ExtTranscript)
		switch srcs := byName[name]; len(srcs) {
		case 1:
			rels = append(rels, srcs[0])
		case 0:
			t.Errorf("%s: no session under testdata made it", filepath.Base(g))
		default:
			t.Errorf("%s: made from which of %q?", filepath.Base(g), srcs)
		}
	}
	return rels
}

func TestGoldenTranscripts(t *testing.T) {
	root := filepath.Join(providertest.RepoRoot(t), "testdata")
	for _, rel := range goldenSessions(t, root) {
		t.Run(rel, func(t *testing.T) {
			var buf bytes.Buffer
			ins, _ := stage.Expand([]string{filepath.Join(root, rel)}, nil, provider.Claim)
			for i := range ins {
				ins[i].Path = rel // src paths as in the repository
			}
			cons := transcript.NewConsolidator(provider.UnitKey, false, transcript.Lines(&buf))
			cfg := provider.Config{Config: stage.Config{Transform: (&provider.Normalizer{Prices: price.Default()}).Event}, Sink: cons.Add}
			if _, err := provider.Parse(context.Background(), cfg, ins, nil, &bytes.Buffer{}); err != nil {
				t.Fatal(err)
			}
			cons.Close()
			providertest.Golden(t, buf.Bytes(), filepath.Join(root, "transcript", strings.ReplaceAll(rel, "/", "__")+".transcript.jsonl"))
		})
	}
}

// BenchmarkTranscript is agt-transcript fused (parse, normalize,
// consolidate) over a generated tree ($AGT_BENCH_DIR, or the corpus).
func BenchmarkTranscript(b *testing.B) {
	dir := os.Getenv("AGT_BENCH_DIR")
	if dir == "" {
		dir = providertest.CorpusDir(b)
	}
	ins, _ := stage.Expand([]string{dir}, nil, provider.Claim)
	var size int64
	for _, in := range ins {
		if st, err := os.Stat(in.Path); err == nil {
			size += st.Size()
		}
	}
	b.SetBytes(size)
	n := &provider.Normalizer{Prices: price.Default()}
	for i := 0; i < b.N; i++ {
		cons := transcript.NewConsolidator(provider.UnitKey, false, transcript.Lines(io.Discard))
		cfg := provider.Config{Config: stage.Config{Quiet: true, Transform: n.Event}, Sink: cons.Add}
		if _, err := provider.Parse(context.Background(), cfg, ins, nil, io.Discard); err != nil {
			b.Fatal(err)
		}
		cons.Close()
	}
}
