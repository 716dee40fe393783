package transcript

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agt-project/agt"
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
