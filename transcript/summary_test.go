package transcript

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/price"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// TestSummaryEscapes: log text cannot put control characters, escape
// sequences or bidi overrides on a terminal, and events without their
// payload (made in-process) give a line instead of a panic.
func TestSummaryEscapes(t *testing.T) {
	evs := []agt.Event{
		{Kind: agt.KindUser, TS: "2026-01-01T00:00:00.000Z", Stream: agt.StreamMain, Text: agt.String("clear \x1b[2J then clip \x1b]52;c;aGVsbG8=\x07 c1 \u009b31m bidi \u202eevil")},
		{Kind: agt.KindToolCall, ID: "c1", Stream: "subagent:\x1b[1mx", Tool: &agt.Tool{Name: "Bash\x1b[2J", Input: agt.Raw(`{"command":"echo \u001b[31mred"}`)}},
		{Kind: agt.KindToolResult, TS: "\x1b[2J", Stream: agt.StreamMain, Result: &agt.Result{Call: "c1", Output: agt.String("out\x1b[0m\r\nnext")}},
		{Kind: agt.KindError, Stream: agt.StreamMain, Error: &agt.Error{Message: "bad\nline \x1b]0;title\x07"}},
		{Kind: agt.KindToolCall, Stream: agt.StreamMain},
		{Kind: agt.KindToolResult, Stream: agt.StreamMain},
		{Kind: agt.KindError, Stream: agt.StreamMain},
	}
	for _, color := range []bool{false, true} {
		var buf bytes.Buffer
		s := NewSummary(&buf, color)
		for i := range evs {
			if err := s.Event(&evs[i]); err != nil {
				t.Fatal(err)
			}
		}
		s.Flush()
		out := buf.String()
		if n := strings.Count(out, "\n"); n != len(evs)+1 { // and the session's header
			t.Errorf("%d lines, want %d:\n%s", n, len(evs), out)
		}
		plain := out
		if color { // the labels' own colors are the only escapes
			for _, c := range []string{"\x1b[0m", "\x1b[1;34m", "\x1b[32m", "\x1b[33m", "\x1b[31m"} {
				plain = strings.ReplaceAll(plain, c, "")
			}
		}
		for _, r := range plain {
			if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || r == 0x202e {
				t.Fatalf("control character %U in summary (color %v):\n%q", r, color, out)
			}
		}
		for _, want := range []string{`clear \x1b[2J`, `\x1b]52;c;aGVsbG8=\x07`, `\x9b31m`, `\u202eevil`, `[subagent:\x1b[1mx] Bash\x1b[2J  echo \x1b[31mred`, `out\x1b[0m next`, `bad line \x1b]0;title\x07`} {
			if !strings.Contains(out, want) {
				t.Errorf("summary lacks %q:\n%s", want, out)
			}
		}
	}
}

// TestNilPayloads: events made in-process without their payload are not
// counted, and do not panic the builder.
func TestNilPayloads(t *testing.T) {
	var got []*Transcript
	c := NewConsolidator(func(p string) string { return p }, true, func(_ string, tr *Transcript, _ []agt.Event) error {
		got = append(got, tr)
		return nil
	})
	src := agt.Src{Path: "f", Line: 1}
	evs := []agt.Event{
		{ID: "1", Session: "s", Stream: agt.StreamMain, Kind: agt.KindToolCall, Src: src},
		{ID: "2", Session: "s", Stream: agt.StreamMain, Kind: agt.KindToolResult, Src: src},
		{ID: "3", Session: "s", Stream: agt.StreamMain, Kind: agt.KindUsage, Src: src},
		{ID: "4", Session: "s", Stream: agt.StreamMain, Kind: agt.KindError, Src: src},
		{ID: "5", Session: "s", Stream: agt.StreamMain, Kind: agt.KindUser, Text: agt.String("hi"), Src: src},
	}
	if err := c.Add(evs); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Counts.ToolCalls != 0 || got[0].Counts.Messages != 2 || got[0].Usage.Total != 0 {
		t.Errorf("transcripts %+v", got)
	}
}

// summarize writes the summary of files as agt-streamlog does, and calls
// check with each session's transcript and the running total its last
// usage line showed, before its closing line.
func summarize(t *testing.T, s *Summary, files []string, check func(tr *Transcript, running *agt.Usage)) {
	t.Helper()
	ins, _ := stage.Expand(files, nil, provider.Claim)
	n := &provider.Normalizer{Prices: price.Default()}
	c := NewConsolidator(provider.UnitKey, false, func(_ string, tr *Transcript, _ []agt.Event) error {
		if st := s.sessions[tr.Session]; st != nil && check != nil {
			check(tr, st.total())
		}
		return s.End(tr)
	})
	c.Window, c.Each = n.Window, s.Event
	if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Quiet: true, Transform: n.Event}, Sink: c.Add}, ins, nil, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestSummaryWidth: with a width, every line fits it, long ones end in an
// ellipsis; without, lines are whole.
func TestSummaryWidth(t *testing.T) {
	files := []string{providertest.Sample(t, "agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")}
	var whole bytes.Buffer
	summarize(t, NewSummary(&whole, false), files, nil)
	longest := 0
	for _, l := range strings.Split(whole.String(), "\n") {
		longest = max(longest, utf8.RuneCountInString(l))
	}
	if longest < 200 || strings.Contains(whole.String(), "…") {
		t.Fatalf("whole lines: the longest has %d runes, ellipsis %v", longest, strings.Contains(whole.String(), "…"))
	}
	for _, width := range []int{80, 45, 20, 1} {
		for _, color := range []bool{false, true} {
			var buf bytes.Buffer
			s := NewSummary(&buf, color)
			s.Width = width
			summarize(t, s, files, nil)
			lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if len(lines) != strings.Count(whole.String(), "\n") {
				t.Fatalf("width %d: %d lines, want %d", width, len(lines), strings.Count(whole.String(), "\n"))
			}
			cut := 0
			for _, l := range lines {
				plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(l, "")
				if n := utf8.RuneCountInString(plain); n > width {
					t.Fatalf("width %d: a line of %d runes: %q", width, n, plain)
				}
				if strings.HasSuffix(plain, "…") {
					cut++
				}
			}
			if cut == 0 {
				t.Errorf("width %d: no line cut", width)
			}
		}
	}
}

// TestSummaryRunningTotals: over the corpus, the running total a session's
// lines reach is its transcript's usage and cost, so that the usage lines
// and the closing line agree.
func TestSummaryRunningTotals(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole corpus")
	}
	corpus := providertest.CorpusDir(t)
	entries, _ := filepath.Glob(filepath.Join(corpus, "*", "*"))
	lives, _ := filepath.Glob(filepath.Join(corpus, "live", "*", "*"))
	sessions, used := 0, 0
	for _, f := range append(entries, lives...) {
		if strings.HasSuffix(f, ".tsv") || strings.HasSuffix(f, ".md") || strings.HasSuffix(f, "live") {
			continue
		}
		summarize(t, NewSummary(io.Discard, false), []string{f}, func(tr *Transcript, running *agt.Usage) {
			sessions++
			want := tr.Usage
			want.CostUSD, want.Scope = tr.CostUSD, ""
			got := *running
			if want.Total != 0 {
				used++
			}
			if got.Input != want.Input || got.Output != want.Output || got.CacheRead != want.CacheRead || got.CacheWrite != want.CacheWrite ||
				(got.CostUSD == nil) != (want.CostUSD == nil) || (got.CostUSD != nil && *got.CostUSD != *want.CostUSD) {
				t.Errorf("%s: session %s: running total %+v (cost %v), transcript %+v (cost %v)", f, tr.NativeSession, got, dollars(got.CostUSD), want, dollars(want.CostUSD))
			}
		})
	}
	t.Logf("%d sessions, %d with usage", sessions, used)
	if sessions < 50 || used < 30 {
		t.Errorf("%d sessions, %d with usage: the corpus is not read", sessions, used)
	}
}

func dollars(c *float64) string {
	if c == nil {
		return "none"
	}
	return Dollars(*c)
}

// TestSummaryFigures: how counts, costs and durations read.
func TestSummaryFigures(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1k", 1049: "1k", 1050: "1.1k", 12345: "12.3k", 99_949: "99.9k", 99_950: "100k", 999_499: "999k", 999_500: "1M", 1_234_567: "1.2M", 9_007_199_254_740_992: "9P", -12345: "-12.3k"} {
		if got := compact(n); got != want {
			t.Errorf("compact(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1_234_567: "1,234,567", -1234: "-1,234", 9_007_199_254_740_992: "9,007,199,254,740,992"} {
		if got := exact(n); got != want {
			t.Errorf("exact(%d) = %q, want %q", n, got, want)
		}
	}
	for ms, want := range map[int64]string{0: "0ms", 999: "999ms", 1000: "1.0s", 12_345: "12.3s", 60_000: "1m00s", 125_000: "2m05s", 3_600_000: "1h00m", 3_723_000: "1h02m"} {
		if got := elapsed(ms); got != want {
			t.Errorf("elapsed(%d) = %q, want %q", ms, got, want)
		}
	}
	cost := 0.02224
	u := agt.Usage{Input: 5000, Output: 170, CacheWrite: 1000, CostUSD: &cost}
	if got, want := totals(&u, compact, false), "$0.0222 · 6.2k tok · 5k in · 170 out · 1k cache write"; got != want {
		t.Errorf("totals %q, want %q", got, want)
	}
	if got, want := totals(&u, exact, true), "~$0.0222 · ~6,170 tok · 5,000 in · 170 out · 1,000 cache write"; got != want {
		t.Errorf("provisional totals %q, want %q", got, want)
	}
	if got := totals(&agt.Usage{Scope: agt.ScopeRun}, exact, false); got != "no usage" {
		t.Errorf("totals of nothing %q", got)
	}
}

// TestSummaryNamedLate: a provisional session's header names it, and the
// session_named event writes a "named" line and goes on in the same
// session (no second header, no number); when no line was written before
// the tie, the header names the session named, with no "named" line.
func TestSummaryNamedLate(t *testing.T) {
	prov := agt.ProvisionalSession([]byte("first"))
	ev := func(session, kind string, text string) agt.Event {
		e := agt.Event{Provider: providertest.Stub, Session: agt.SessionID(providertest.Stub, session), NativeSession: session, Kind: kind, Stream: agt.StreamMain}
		if kind == agt.KindMeta {
			e.Meta = &agt.Meta{Type: text}
		} else {
			e.Text = agt.String(text)
		}
		return e
	}
	tie := ev("real", agt.KindMeta, agt.MetaNamed)
	tie.Meta.Continues = prov
	for _, c := range []struct {
		name string
		in   []agt.Event
		want string
	}{
		{"headed", []agt.Event{ev(prov, agt.KindUser, "hi"), tie, ev("real", agt.KindAssistant, "yes")},
			"session    " + providertest.Stub + " " + prov + "\n" + "user       hi\n" + "named      " + providertest.Stub + " real\n" + "assistant  yes\n" + "end        no usage · " + providertest.Stub + " real · 0 tool calls\n"},
		{"not headed", []agt.Event{ev(prov, agt.KindMeta, "agent_start"), tie, ev("real", agt.KindAssistant, "yes")},
			"session    " + providertest.Stub + " real\n" + "assistant  yes\n" + "end        no usage · " + providertest.Stub + " real · 0 tool calls\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			s := NewSummary(&buf, false)
			for i := range c.in {
				if err := s.Event(&c.in[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.End(&Transcript{Session: agt.SessionID(providertest.Stub, "real")}); err != nil {
				t.Fatal(err)
			}
			s.Flush()
			got := regexp.MustCompile(`(?m)^ +- `).ReplaceAllString(buf.String(), "")
			if got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestSummaryCosmetics: a usage line never shows a time before the lines
// of the call it counts (its event has the call's start); redacted
// thinking (no text) has no line; the closing line names its session.
func TestSummaryCosmetics(t *testing.T) {
	var out bytes.Buffer
	s := NewSummary(&out, false)
	evs := []agt.Event{
		{Session: "s", Provider: providertest.Stub, NativeSession: "n1", Kind: agt.KindUser, TS: "2026-01-01T00:00:01.000Z", Text: agt.String("go")},
		{Session: "s", Provider: providertest.Stub, NativeSession: "n1", Kind: agt.KindReasoning, TS: "2026-01-01T00:00:02.000Z", Model: "m"},
		{Session: "s", Provider: providertest.Stub, NativeSession: "n1", Kind: agt.KindAssistant, TS: "2026-01-01T00:00:02.000Z", Model: "m", Text: agt.String("ok")},
		{Session: "s", Provider: providertest.Stub, NativeSession: "n1", Kind: agt.KindToolResult, TS: "2026-01-01T00:00:05.000Z", Result: &agt.Result{ID: "r"}},
		{Session: "s", Provider: providertest.Stub, NativeSession: "n1", Kind: agt.KindUsage, TS: "2026-01-01T00:00:02.000Z", Model: "m", Usage: &agt.Usage{Input: 1, Output: 2}},
	}
	for i := range evs {
		if err := s.Event(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.End(&Transcript{Session: "s"}); err != nil {
		t.Fatal(err)
	}
	s.Flush()
	got := out.String()
	var prev string
	for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
		if ts := strings.Fields(l)[0]; ts != "-" && ts < prev {
			t.Errorf("the clock runs backwards at %q:\n%s", l, got)
		} else if ts != "-" {
			prev = ts
		}
		if strings.TrimSpace(strings.TrimPrefix(l, strings.Fields(l)[0])) == "thinking" || strings.Contains(l, "thinking") {
			t.Errorf("a line for redacted thinking: %q", l)
		}
	}
	if !strings.Contains(got, "2026-01-01T00:00:05.000Z usage ") || !strings.Contains(got, " · "+providertest.Stub+" n1 · ") {
		t.Errorf("got\n%s", got)
	}
}
