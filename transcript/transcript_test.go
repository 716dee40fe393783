package transcript_test

import (
	"bytes"
	"context"
	"io"
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

// goldenSessions are real sessions of every provider (licensed copies in
// testdata/), whose transcripts were reviewed by hand against the raw logs.
var goldenSessions = []string{
	"claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
	"claude/live/gen__claude-2.1.197__subagent.jsonl",
	"codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl",
	"codex/live/gen__codex-0.169.0__tools.jsonl",
	"gemini/agtrace__session-2025-12-09T19-50-f0a689a6.json",
	"copilot/agentv__6a-6787e4f86b-3.jsonl",
	"copilot/live/gen__copilot-1.0.102__tools.jsonl",
	"pi/pidev__96-2b1009dcd7-0.excerpt.jsonl",
	"pi/live/gen__pi-0.73.1__rpc-stdout.jsonl",
	"opencode/pidev__30-80b1955cc9-1.json",
	"cline/cline__session.messages.json",
	"cline/tasks/saoudrizwan.claude-dev/tasks/1760534080239",
	"cline/tasks/rooveterinaryinc.roo-cline/tasks/0b5c6f0e-3f1a-4c2e-9d7a-1c2b3d4e5f60",
	"goose/sessions.db",
	"goose/sessions-ledger.db",
	"goose/20250303_101010.jsonl",
	"acp/gen__gemini-cli-0.61.0__acp.both.jsonl",
	"amp/toolpath__stream-json-0.0.1785170481.jsonl",
	"amp/toolpath__thread-export-0.0.1785170481.json",
	"kiro/awsq__v2-basic_fs_tools-2.4.2.jsonl",
	"kiro/kas/sess_5e804080-466c-4f65-bde9-f6133b7068f6/messages.jsonl",
	"kiro/v1/awsq__v1-with_cancelled_tool_uses.json",
	"copilot/vscode/gitai__copilot_session_multiline.jsonl",
}

func TestGoldenTranscripts(t *testing.T) {
	root := filepath.Join(providertest.RepoRoot(t), "testdata")
	for _, rel := range goldenSessions {
		t.Run(rel, func(t *testing.T) {
			var buf bytes.Buffer
			ins, _ := stage.Expand([]string{filepath.Join(root, rel)}, nil, provider.Claim)
			for i := range ins {
				ins[i].Path = rel // src paths as in the repository
			}
			cons := transcript.NewConsolidator(provider.UnitKey, false, transcript.Lines(&buf))
			cfg := provider.Config{Transform: (&provider.Normalizer{Prices: price.Default()}).Event, Sink: cons.Add}
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
		cfg := provider.Config{Quiet: true, Transform: n.Event, Sink: cons.Add}
		if _, err := provider.Parse(context.Background(), cfg, ins, nil, io.Discard); err != nil {
			b.Fatal(err)
		}
		cons.Close()
	}
}
