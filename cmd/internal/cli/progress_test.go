package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
)

func TestProgressLine(t *testing.T) {
	f := testdataFile(t, "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	var buf bytes.Buffer
	p := newProgress(&buf, []stage.Input{stage.FileInput(f), stage.FileInput(f + ".missing")})
	p.start = p.start.Add(-time.Second)
	p.update(provider.Stats{Units: 1, Bytes: 11698})
	got := buf.String()
	for _, want := range []string{"\r[##########..........] 1/2 files", "0.0/0.0 MB", "MB/s", "ETA"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress line %q lacks %q", got, want)
		}
	}
	if isTerminal(&buf) {
		t.Error("a buffer is not a terminal")
	}
}
