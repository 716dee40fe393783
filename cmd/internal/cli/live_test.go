package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agt-project/agt/provider/providertest"
)

// hangGuard only ends a live test that would otherwise hang (output that
// never comes): it is no measure of latency, which the test does not bound.
const hangGuard = 60 * time.Second

// liveInputs are the inputs the live test feeds line by line: live
// captures of several providers' --json output, and Claude Code session logs
// of the repository. Corpus captures are skipped without the corpus.
func liveInputs(t *testing.T) map[string]string {
	ins := map[string]string{}
	claude, _ := filepath.Glob(filepath.Join(providertest.RepoRoot(t), "testdata", "claude", "*.jsonl"))
	for _, p := range claude {
		ins["session/"+filepath.Base(p)] = p
	}
	return ins
}

func liveCorpus(t *testing.T) map[string]string {
	ins := map[string]string{}
	for _, f := range []string{"claude-stream-json", "codex-exec-json", "gemini-stream-json", "copilot-json", "opencode-run-json", "pi-json", "pi-rpc", "acp"} {
		ps, _ := filepath.Glob(filepath.Join(providertest.CorpusDir(t), "live", f, "*.jsonl"))
		for _, p := range ps {
			ins[f+"/"+filepath.Base(p)] = p
		}
	}
	return ins
}

// notYetLive are inputs that do not yet stream line by line, and why: the
// issue's remaining work. They are left out of the live test.
var notYetLive = map[string]string{
	"copilot-json": "line 1's events do not come out alone (not yet investigated)",
	"pi-json":      "line 1's events do not come out alone, or the output differs (not yet investigated)",
	"gemini-stream-json/gen__gemini-cli-0.61.0__tools.jsonl": "an event held until a later line (not yet investigated)",
	"acp":    "its first line alone does not tell the provider: detection waits for more lines",
	"pi-rpc": "its first line alone does not tell the provider: detection waits for more lines",
	"gemini-stream-json/gen__gemini-cli-0.61.0__tool-errors.jsonl": "line 3's event is held until a later line (cause not yet found)",
	"session/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl":  "its first line alone does not tell the provider: detection waits for more lines",
	"session/codeinsights__malformed.jsonl":                        "its first line alone does not tell the provider: detection waits for more lines",
	"session/entirecli__32-2452abbddc-0.jsonl":                     "its first line alone does not tell the provider: detection waits for more lines",
}

// liveEvent is what the live test reads of an output event.
type liveEvent struct {
	Kind string `json:"kind"`
	Src  struct {
		Line int64 `json:"line"`
	} `json:"src"`
}

// waited counts, per input line, the events a live run must have written
// once that line is in, before the next one is sent: the events whose
// src.line is the line, but usage events, which wait until their model call
// is final (a Claude Code session names a call's usage when the next call
// starts). The counts come from the run over the whole input; the last line
// is not waited for (what the end of input completes is checked by
// comparing the whole outputs).
func waited(t *testing.T, out []byte) map[int64]int {
	n := map[int64]int{}
	for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		var ev liveEvent
		if err := json.Unmarshal(l, &ev); err != nil {
			t.Fatalf("output line %.200s: %v", l, err)
		}
		if ev.Kind != "usage" {
			n[ev.Src.Line]++
		}
	}
	return n
}

// TestLiveLineByLine: a filter fed through a pipe one line at a time writes
// the events of each line before it is given the next, and writes in the
// end the same bytes as when it reads the whole input at once. The writer
// of the input sends a line, then waits until the reader of the output has
// seen that line's events (see waited): a filter that holds its output
// until more input comes never gets it, and the test fails on the hang
// guard.
func TestLiveLineByLine(t *testing.T) {
	filters := []struct {
		name string
		app  App
		args []string
	}{
		{"agt-parse", Parse, nil},
		{"agt-normalize", Normalize, nil},
		{"agt-streamlog-raw", Streamlog, []string{"--mode", "raw"}},
	}
	run := func(t *testing.T, ins map[string]string) {
		for name, p := range ins {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			why, skip := notYetLive[name]
			if !skip {
				why, skip = notYetLive[filepath.Dir(name)]
			}
			for _, f := range filters {
				t.Run(f.name+"/"+name, func(t *testing.T) {
					if skip {
						t.Skip("not yet live: " + why)
					}
					args := append([]string{"-q"}, f.args...)
					whole := runApp(t, f.app, data, args...)
					liveOut := runLive(t, f.app, data, waited(t, whole), args...)
					if !bytes.Equal(liveOut, whole) {
						t.Errorf("fed line by line, the output differs from the whole input's:\n live  %.300s\n whole %.300s", liveOut, whole)
					}
				})
			}
		}
	}
	t.Run("session", func(t *testing.T) { run(t, liveInputs(t)) })
	t.Run("live", func(t *testing.T) { run(t, liveCorpus(t)) })
}

// runLive runs app on a pipe fed one line of data at a time: after line k
// (but the last) it waits until want[k] events of line k (not counting
// usage) have been read from the app's stdout. It returns the whole output.
func runLive(t *testing.T, app App, data []byte, want map[int64]int, args ...string) []byte {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	code := make(chan int, 1)
	go func() {
		c := Run(context.Background(), app(IO{In: inR, Out: outW, Err: &errb}), append([]string{"agt"}, args...))
		outW.Close()
		code <- c
	}()
	// the reader of stdout: counts each line's events and keeps the output
	type progress struct {
		line int64
		out  []byte
		err  error
	}
	seen := make(chan progress, 1024)
	go func() {
		r := bufio.NewReader(outR)
		var all []byte
		for {
			l, err := r.ReadBytes('\n')
			all = append(all, l...)
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				seen <- progress{-1, all, err}
				return
			}
			var ev liveEvent
			if err := json.Unmarshal(l, &ev); err != nil {
				seen <- progress{-1, all, err}
				return
			}
			if ev.Kind != "usage" {
				seen <- progress{ev.Src.Line, nil, nil}
			}
		}
	}()
	guard := time.NewTimer(hangGuard)
	defer guard.Stop()
	got := map[int64]int{}
	var final *progress
	wait := func(k int64) {
		for got[k] < want[k] {
			select {
			case p := <-seen:
				if p.line < 0 {
					t.Fatalf("output ended before the events of line %d (%d of %d read): %v %s", k, got[k], want[k], p.err, errb.String())
				}
				got[p.line]++
			case <-guard.C:
				inW.Close()
				t.Fatalf("line %d sent: %d of its %d events came out before the hang guard (%v): the filter holds its output back", k, got[k], want[k], hangGuard)
			}
		}
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if _, err := inW.Write(l); err != nil {
			t.Fatal(err)
		}
		if i < len(lines)-1 {
			wait(int64(i + 1))
		}
	}
	inW.Close()
	for final == nil {
		select {
		case p := <-seen:
			if p.line < 0 {
				final = &p
			}
		case <-guard.C:
			t.Fatalf("the output did not end after the input did")
		}
	}
	if final.err != nil {
		t.Fatal(final.err)
	}
	if c := <-code; c != ExitOK {
		t.Fatalf("exit %d: %s", c, errb.String())
	}
	return final.out
}
