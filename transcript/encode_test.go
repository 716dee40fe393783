package transcript_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// TestWriteJSONSameBytes: the transcript encoded a message at a time is the
// transcript encoded whole, for every corpus transcript and for odd ones
// (keys of the arrays inside strings, empty arrays, large ones that spill).
func TestWriteJSONSameBytes(t *testing.T) {
	big := strings.Repeat("x", 600<<10)
	odd := []*transcript.Transcript{
		{},
		{Title: `,"messages":[],"subagents":[]`, Cwd: `"messages":[`, Models: []string{}},
		{Messages: []transcript.Message{{Role: "user", Text: agt.Raw(`"` + big + `"`)}, {Role: "assistant", Text: agt.Raw(`"` + big + `"`)}, {Role: "assistant"}},
			Subagents: []transcript.Subagent{{Stream: `,"messages":[]`, Messages: []transcript.Message{{Role: "user", Text: agt.Raw(`"` + big + `"`)}, {Index: 1}}}, {Stream: "b"}}},
	}
	same := func(t *testing.T, ts []*transcript.Transcript) {
		for _, tr := range ts {
			var got bytes.Buffer
			if err := transcript.WriteJSON(&got, tr); err != nil {
				t.Fatal(err)
			}
			if want := transcript.AppendJSON(nil, tr); !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("%s: WriteJSON differs from AppendJSON:\n got %.300s\nwant %.300s", tr.Session, got.Bytes(), want)
			}
		}
	}
	same(t, odd)
	t.Run("testdata", func(t *testing.T) {
		ts, _ := consolidate(t, provider.Config{}, filepath.Join(providertest.RepoRoot(t), "testdata"))
		if len(ts) < 10 {
			t.Fatalf("%d transcripts", len(ts))
		}
		same(t, ts)
	})
	t.Run("corpus", func(t *testing.T) {
		ts, _ := consolidate(t, provider.Config{}, providertest.CorpusDir(t))
		same(t, ts)
	})
}

// TestWriteJSONError: a failing writer's error is returned.
func TestWriteJSONError(t *testing.T) {
	tr := &transcript.Transcript{Messages: []transcript.Message{{Text: agt.Raw(`"` + strings.Repeat("y", 3<<20) + `"`)}}}
	if err := transcript.WriteJSON(failWriter{}, tr); !errors.Is(err, errFull) {
		t.Fatalf("error %v", err)
	}
}

var errFull = errors.New("full")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFull }
