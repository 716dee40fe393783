package transcript_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
)

// transcriptsOf consolidates evs (spilled or not) and returns each
// transcript written by WriteJSON.
func transcriptsOf(t *testing.T, evs []agt.Event, spill bool) ([][]byte, []*transcript.Transcript) {
	t.Helper()
	var out [][]byte
	var ts []*transcript.Transcript
	cons := transcript.NewConsolidator(provider.UnitKey, false, func(_ string, tr *transcript.Transcript, _ []agt.Event) error {
		var b bytes.Buffer
		if err := transcript.WriteJSON(&b, tr); err != nil {
			return err
		}
		out, ts = append(out, b.Bytes()), append(ts, tr)
		return nil
	})
	cons.Spill = spill
	if err := cons.Add(evs); err != nil {
		t.Fatal(err)
	}
	if err := cons.Close(); err != nil {
		t.Fatal(err)
	}
	return out, ts
}

// TestSpillSameBytes: every corpus file's transcripts, built with their
// messages spilled as soon as they can be (one message kept as a value,
// blocks of a few messages) and the lookups by source and by call
// forgetting all but their last 64 to 128 keys, and written by WriteJSON,
// are the same bytes as built whole with the lookups of a real run (which
// no corpus file fills); Whole gives back the messages themselves; and
// late results and usage reached spilled messages (reopened) somewhere,
// so that the test covers them.
func TestSpillSameBytes(t *testing.T) {
	dir := providertest.CorpusDir(t)
	ins, _ := stage.Expand([]string{dir}, nil, provider.Claim)
	reopened, files, onDisk := 0, 0, 0
	for _, in := range ins {
		if strings.HasSuffix(in.Path, "reference.json") || strings.HasSuffix(in.Path, ".tsv") || strings.HasSuffix(in.Path, ".md") {
			continue
		}
		_, evs := consolidate(t, provider.Config{}, in.Path)
		whole, _ := transcriptsOf(t, evs, false)
		restore := transcript.SetSpill(1, 512, 64)
		spilled, ts := transcriptsOf(t, evs, true)
		// and with every block in a temporary file
		restoreDisk := transcript.SetSpillDisk(0)
		disked, dts := transcriptsOf(t, evs, true)
		restoreDisk()
		restore()
		if len(whole) != len(spilled) || len(whole) != len(disked) {
			t.Fatalf("%s: %d transcripts spilled, %d with blocks on disk, %d whole", in.Path, len(spilled), len(disked), len(whole))
		}
		for i := range disked {
			if !bytes.Equal(whole[i], disked[i]) {
				t.Errorf("%s: transcript %d spilled to disk differs:\n got %.400s\nwant %.400s", in.Path, i, disked[i], whole[i])
			}
			onDisk += transcript.OnDisk(dts[i])
		}
		for i := range whole {
			if !bytes.Equal(whole[i], spilled[i]) {
				t.Errorf("%s: transcript %d spilled differs:\n got %.400s\nwant %.400s", in.Path, i, spilled[i], whole[i])
				continue
			}
			reopened += transcript.Reopened(ts[i])
			ts[i].Whole()
			if got := transcript.AppendJSON(nil, ts[i]); !bytes.Equal(got, whole[i]) {
				t.Errorf("%s: transcript %d made whole differs:\n got %.400s\nwant %.400s", in.Path, i, got, whole[i])
			}
		}
		files++
	}
	t.Logf("%d files, %d messages reopened, %d blocks read back from disk", files, reopened, onDisk)
	if onDisk == 0 {
		t.Errorf("no block went to disk")
	}
	if files < 50 || reopened == 0 {
		t.Fatalf("%d files, %d messages reopened: the corpus should give both", files, reopened)
	}
}

// longSession is a session of n turns, each a prompt, an assistant
// message with a tool call, its result and the call's usage, the texts
// all different.
func longSession(n int) []agt.Event {
	evs := make([]agt.Event, 0, 5*n)
	ev := func(kind string) *agt.Event {
		i := len(evs)
		evs = append(evs, agt.Event{Schema: agt.Schema, ID: fmt.Sprintf("e%d", i), Session: "s", NativeSession: "n", Provider: providertest.Stub,
			Format: providertest.StubFormat, Seq: int64(i), Stream: agt.StreamMain, Kind: kind, Src: agt.Src{Path: "s.jsonl", Line: int64(i + 1)}})
		return &evs[i]
	}
	for k := range n {
		ev(agt.KindUser).Text = agt.String(fmt.Sprintf("prompt %d: %s", k, strings.Repeat(fmt.Sprint(k*7919), 20)))
		a := ev(agt.KindAssistant)
		a.Text, a.Model, a.MessageID = agt.String(fmt.Sprintf("answer %d", k)), "claude-sonnet-4-5", fmt.Sprintf("m%d", k)
		c := ev(agt.KindToolCall)
		c.Model, c.MessageID = "claude-sonnet-4-5", a.MessageID
		c.Tool = &agt.Tool{ID: fmt.Sprintf("t%d", k), Name: "Bash", NativeName: "Bash", Input: agt.Raw(fmt.Sprintf(`{"command":"echo %d"}`, k))}
		r := ev(agt.KindToolResult)
		r.Result = &agt.Result{ID: c.Tool.ID, Call: c.ID, Output: agt.String(strings.Repeat(fmt.Sprint(k*104729), 30))}
		u := ev(agt.KindUsage)
		u.Model = "claude-sonnet-4-5"
		u.Usage = &agt.Usage{Scope: agt.ScopeCall, Input: int64(k), Output: 10, Total: int64(k) + 10, MessageID: a.MessageID}
	}
	return evs
}

// maxValues consolidates evs a batch at a time and returns the most
// messages the open session held as values after any batch.
func maxValues(t *testing.T, evs []agt.Event, spill bool) int {
	t.Helper()
	cons := transcript.NewConsolidator(provider.UnitKey, false, func(string, *transcript.Transcript, []agt.Event) error { return nil })
	cons.Spill = spill
	most := 0
	for len(evs) > 0 {
		n := min(len(evs), 100)
		if err := cons.Add(evs[:n]); err != nil {
			t.Fatal(err)
		}
		evs = evs[n:]
		most = max(most, transcript.Values(cons))
	}
	if err := cons.Close(); err != nil {
		t.Fatal(err)
	}
	return most
}

// TestSpillBound: spilled, a session holds no more messages as values
// however long it is (twice the window at most); whole, it holds them all.
func TestSpillBound(t *testing.T) {
	defer transcript.SetSpill(16, 4<<10, 64)()
	short, long := longSession(500), longSession(5000)
	a, b := maxValues(t, short, true), maxValues(t, long, true)
	if a > 32 || b > 32 {
		t.Errorf("spilled: %d and %d messages held as values (1000 and 10000 messages), want at most 32", a, b)
	}
	if w := maxValues(t, long, false); w < 10000 {
		t.Errorf("whole: %d messages held as values, want all 10000", w)
	}
	// and the bytes are the same
	whole, _ := transcriptsOf(t, long, false)
	spilled, ts := transcriptsOf(t, long, true)
	if len(whole) != 1 || len(spilled) != 1 || !bytes.Equal(whole[0], spilled[0]) {
		t.Fatalf("spilled transcript differs from whole")
	}
	if h := ts[0].Held(); h <= 0 || h >= len(whole[0])/2 {
		t.Errorf("spilled messages hold %d bytes for a %d-byte transcript", h, len(whole[0]))
	}
}

// TestSpillLate: results and usage that come after later messages reach
// messages already spilled: they are decoded again, changed, and written
// as they would be whole.
func TestSpillLate(t *testing.T) {
	defer transcript.SetSpill(1, 256, 4)()
	evs := longSession(40)
	// each turn's result and usage come three turns later
	var late []agt.Event
	for k := 0; k < 40; k++ {
		turn := evs[5*k : 5*k+5]
		late = append(late, turn[:3]...)
		if k >= 3 {
			late = append(late, evs[5*(k-3)+3:5*(k-3)+5]...)
		}
	}
	for k := 37; k < 40; k++ {
		late = append(late, evs[5*k+3:5*k+5]...)
	}
	for i := range late {
		late[i].Seq = int64(i)
	}
	whole, _ := transcriptsOf(t, late, false)
	spilled, ts := transcriptsOf(t, late, true)
	if len(whole) != 1 || len(spilled) != 1 || !bytes.Equal(whole[0], spilled[0]) {
		t.Fatalf("spilled transcript differs from whole:\n got %.600s\nwant %.600s", spilled[0], whole[0])
	}
	if n := transcript.Reopened(ts[0]); n < 37 {
		t.Errorf("%d messages reopened, want the 37 whose result came late", n)
	}
	if !bytes.Contains(whole[0], []byte(`"tool_calls":40,"tool_errors":0,"unpaired_calls":0,"unpaired_results":0`)) {
		t.Errorf("the late results are not all paired: %s", whole[0][len(whole[0])-400:])
	}
}
