package transcript

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt"

	"github.com/agt-project/agt/provider/providertest"
)

// narrowGolden are real sessions whose summary lines are kept cut to a
// narrow terminal (80 columns) and a wide one: a Claude Code session with
// its subagent's file, a live capture with a subagent, a Codex rollout.
var narrowGolden = []struct {
	name  string
	files []string
}{
	{"claude-subagent", []string{"agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl", "agtrace__agent-0c4c3cf8.jsonl"}},
	{"claude-live", []string{"live/gen__claude-2.1.197__subagent.jsonl"}},
	{"codex-rollout", []string{"agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl"}},
}

// TestSummaryWidthGolden compares the summary at 80 and 160 columns with
// testdata/streamlog/width/ (go test ./transcript -update rewrites them).
func TestSummaryWidthGolden(t *testing.T) {
	root := filepath.Join(providertest.RepoRoot(t), "testdata")
	for _, c := range narrowGolden {
		var files []string
		for _, f := range c.files {
			files = append(files, providertest.Sample(t, f))
		}
		for _, w := range []int{80, 160} {
			var buf bytes.Buffer
			s := NewSummary(&buf, false)
			s.Width = w
			summarize(t, s, files, nil)
			providertest.Golden(t, buf.Bytes(), filepath.Join(root, "streamlog", "width", c.name+"."+strconv.Itoa(w)+".log"))
		}
	}
}

// usageOrEnd matches the usage and closing lines.
var usageOrEnd = regexp.MustCompile(`^.{24} (#[0-9]+ )?(usage|end) `)

// costOf finds the cost a usage or end line shows.
var costOf = regexp.MustCompile(`~?\$[0-9]+\.[0-9]{4}`)

// TestSummaryNarrowCost: at 80 columns, every usage line and every
// closing line of the corpus (and of the testdata sessions) shows the
// cost its whole line shows, whatever the stream, model and session
// number before it.
func TestSummaryNarrowCost(t *testing.T) {
	inputs := [][]string{}
	for _, c := range narrowGolden {
		var files []string
		for _, f := range c.files {
			files = append(files, providertest.Sample(t, f))
		}
		inputs = append(inputs, files)
	}
	if !testing.Short() {
		corpus := providertest.CorpusDir(t)
		entries, _ := filepath.Glob(filepath.Join(corpus, "*", "*"))
		lives, _ := filepath.Glob(filepath.Join(corpus, "live", "*", "*"))
		for _, f := range append(entries, lives...) {
			if strings.HasSuffix(f, ".tsv") || strings.HasSuffix(f, ".md") || strings.HasSuffix(f, "live") || strings.HasSuffix(f, ".json") && strings.Contains(f, "reference") {
				continue
			}
			inputs = append(inputs, []string{f})
		}
		// two sessions in one output: numbered lines
		inputs = append(inputs, []string{providertest.Sample(t, "agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl"), providertest.Sample(t, "live/gen__claude-2.1.197__subagent.jsonl")})
	}
	lines, costs := 0, 0
	for _, files := range inputs {
		var whole, narrow bytes.Buffer
		summarize(t, NewSummary(&whole, false), files, nil)
		s := NewSummary(&narrow, false)
		s.Width = 80
		summarize(t, s, files, nil)
		wl, nl := strings.Split(whole.String(), "\n"), strings.Split(narrow.String(), "\n")
		if len(wl) != len(nl) {
			t.Fatalf("%s: %d lines whole, %d at 80 columns", files[0], len(wl), len(nl))
		}
		for i := range wl {
			if !usageOrEnd.MatchString(wl[i]) {
				continue
			}
			lines++
			want := costOf.FindString(wl[i])
			if want == "" {
				continue
			}
			costs++
			if got := costOf.FindString(nl[i]); got != want {
				t.Errorf("%s: at 80 columns %q shows cost %q, want %q", files[0], nl[i], got, want)
			}
		}
	}
	t.Logf("%d usage and end lines, %d with a cost", lines, costs)
	if costs == 0 {
		t.Error("no cost shown")
	}
}

// TestSummaryHeartbeat: with a clock, a tool call without its result gets
// a "running" line once per heartbeat interval, stamped with the clock's
// time; its result ends them; a call whose own time is History before the
// clock gets none; without a clock Beat writes nothing.
func TestSummaryHeartbeat(t *testing.T) {
	start := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	now := start
	var buf bytes.Buffer
	s := NewSummary(&buf, false)
	s.Clock, s.Heartbeat = func() time.Time { return now }, 30*time.Second
	ev := func(e agt.Event) {
		e.Session, e.Provider, e.NativeSession = "s", providertest.Stub, "n"
		if e.Stream == "" {
			e.Stream = agt.StreamMain
		}
		if err := s.Event(&e); err != nil {
			t.Fatal(err)
		}
	}
	ev(agt.Event{ID: "c1", Kind: agt.KindToolCall, TS: "2026-11-26T09:59:59.000Z", Tool: &agt.Tool{ID: "t1", Name: "Bash", Input: agt.Raw(`{"command":"make test"}`)}})
	ev(agt.Event{ID: "c2", Kind: agt.KindToolCall, Stream: "sidechain:a1", Tool: &agt.Tool{ID: "t2", Name: "Read"}})
	// a call of the log's past (a followed file's history): no heartbeat
	ev(agt.Event{ID: "c0", Kind: agt.KindToolCall, TS: "2026-11-25T10:00:00.000Z", Tool: &agt.Tool{ID: "t0", Name: "Grep"}})
	beat := func(after time.Duration) {
		now = start.Add(after)
		if err := s.Beat(now); err != nil {
			t.Fatal(err)
		}
	}
	beat(29 * time.Second) // not yet
	beat(45 * time.Second)
	beat(60 * time.Second) // less than an interval since the last line
	ev(agt.Event{ID: "r2", Kind: agt.KindToolResult, Stream: "sidechain:a1", Result: &agt.Result{ID: "t2", Call: "c2"}})
	beat(125 * time.Second)
	ev(agt.Event{ID: "r1", Kind: agt.KindToolResult, Result: &agt.Result{ID: "t1", Call: "c1"}})
	beat(200 * time.Second)
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.Contains(l, " running ") {
			got = append(got, l)
		}
	}
	want := []string{
		"2026-11-26T10:00:45.000Z running    Bash running 45s",
		"2026-11-26T10:00:45.000Z running    [sidechain:a1] Read running 45s",
		"2026-11-26T10:02:05.000Z running    Bash running 2m05s",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("heartbeat lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// a log read afterwards: no clock, no heartbeat
	buf.Reset()
	s = NewSummary(&buf, false)
	s.Heartbeat = 30 * time.Second
	ev(agt.Event{ID: "c1", Kind: agt.KindToolCall, Tool: &agt.Tool{ID: "t1", Name: "Bash"}})
	if err := s.Beat(start.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "running") {
		t.Errorf("a heartbeat without a clock: %q", buf.String())
	}
}
