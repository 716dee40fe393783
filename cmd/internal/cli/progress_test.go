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

// TestProgressDiagnostics: a diagnostic written through the bar clears the
// bar's line first and draws it again after; none once the bar is cleared.
func TestProgressDiagnostics(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, nil)
	p.Write([]byte("a.jsonl:1: not JSON\n"))
	if buf.String() != "a.jsonl:1: not JSON\n" {
		t.Errorf("no bar yet: %q", buf.String())
	}
	p.start = p.start.Add(-time.Second)
	p.update(provider.Stats{Units: 1, Bytes: 100})
	bar := buf.String()[len("a.jsonl:1: not JSON\n"):]
	buf.Reset()
	p.Write([]byte("a.jsonl:2: not JSON\n"))
	if want := "\r\x1b[K" + "a.jsonl:2: not JSON\n" + bar; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	p.clear()
	buf.Reset()
	p.Write([]byte("done\n"))
	if buf.String() != "done\n" {
		t.Errorf("after clear: %q", buf.String())
	}
}
