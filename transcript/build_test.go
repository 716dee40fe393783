package transcript_test

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/transcript"
)

// longText is n assistant text events of one model call, as a long run of
// assistant lines gives.
func longText(n int) []agt.Event {
	evs := make([]agt.Event, n)
	for i := range evs {
		evs[i] = agt.Event{Session: "s", Stream: agt.StreamMain, Kind: agt.KindAssistant,
			Text: agt.String("line " + strconv.Itoa(i) + strings.Repeat(" text", 70)), Src: agt.Src{Path: "s.jsonl", Line: int64(i + 1)}}
	}
	return evs
}

func consolidateEvents(t testing.TB, evs []agt.Event) *transcript.Transcript {
	var got *transcript.Transcript
	cons := transcript.NewConsolidator(func(string) string { return "u" }, false, func(_ string, tr *transcript.Transcript, _ []agt.Event) error {
		got = tr
		return nil
	})
	if err := cons.Add(evs); err != nil {
		t.Fatal(err)
	}
	if err := cons.Close(); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestLongTextLinear consolidates runs of n and 2n assistant lines into one
// message and checks that the bytes allocated double, not quadruple (the
// texts used to be joined again at every line).
func TestLongTextLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		evs := longText(n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		tr := consolidateEvents(t, evs)
		runtime.ReadMemStats(&after)
		if len(tr.Messages) != 1 {
			t.Fatalf("%d messages, want 1", len(tr.Messages))
		}
		parts := strings.Split(tr.Messages[0].Text.Str(), "\n\n")
		if len(parts) != n || parts[n-1] != evs[n-1].Text.Str() {
			t.Fatalf("joined text has %d parts, want %d ending with the last line", len(parts), n)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	a, b := alloc(2000), alloc(4000)
	if b > 3*a {
		t.Errorf("bytes allocated: %d for 2000 lines, %d for 4000: not linear", a, b)
	}
}

// BenchmarkLongText consolidates 20k consecutive assistant lines (about
// 7 MB of text) into one message.
func BenchmarkLongText(b *testing.B) {
	evs := longText(20000)
	b.ReportAllocs()
	for b.Loop() {
		consolidateEvents(b, evs)
	}
}

// TestKeptBytesCopied checks that a transcript does not point into the
// buffers its events were read from (which are reused, and which a kept
// slice would pin whole).
func TestKeptBytesCopied(t *testing.T) {
	buf := []byte(`"text""2026-01-15T10:00:00Z"{"command":"ls"}"t1""ok"`)
	evs := []agt.Event{
		{Session: "s", Stream: agt.StreamMain, Kind: agt.KindAssistant, TS: string(buf[6:28]), Text: buf[0:6], Src: agt.Src{Path: "s.jsonl", Line: 1}},
		{Session: "s", Stream: agt.StreamMain, Kind: agt.KindToolCall, ID: "c1", TS: string(buf[6:28]), Tool: &agt.Tool{ID: "t1", Name: "Bash", Input: buf[28:44]}, Src: agt.Src{Path: "s.jsonl", Line: 1}},
		{Session: "s", Stream: agt.StreamMain, Kind: agt.KindToolResult, Result: &agt.Result{Call: "c1", ID: "t1", Output: buf[48:52]}, Src: agt.Src{Path: "s.jsonl", Line: 2}},
	}
	tr := consolidateEvents(t, evs)
	for i := range buf {
		buf[i] = 'X'
	}
	m := tr.Messages[0]
	if string(m.Text) != `"text"` || len(m.ToolCalls) != 1 {
		t.Fatalf("message %+v", m)
	}
	if tc := m.ToolCalls[0]; string(tc.Input) != `{"command":"ls"}` || string(tc.Output) != `"ok"` || tc.Status != transcript.StatusOK {
		t.Errorf("tool call %+v: input or output changed with the buffer", tc)
	}
}
