package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// eventSeeds are real events to start from: the first events agt-parse
// writes for a session of each provider (named relative to the repository,
// as a user would).
var eventSeeds = []string{
	"testdata/claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
	"testdata/claude/agentsessions__subagent-parent-0a1b2c3d.jsonl",
	"testdata/codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl",
	"testdata/gemini/agentsessions__gemini-jsonl-v040.jsonl",
	"testdata/copilot/agentv__db-325365b92c-0.jsonl",
	"testdata/pi/pimono__before-compaction.excerpt.jsonl",
	"testdata/opencode/bestcodes__0c-360aa9943d-0.json",
}

// FuzzEvents feeds any agt.event/1 input to agt-normalize, agt-transcript
// and agt-streamlog in-process: no panic, exit 0; every event agt-normalize
// writes is one per input line (for event input) and passes agt.CheckEvent,
// so that the next filter takes it, and agt-normalize | agt-transcript ==
// agt-transcript; transcripts are JSON with no negative count or token
// figure; summary lines hold no control character but the line end.
func FuzzEvents(f *testing.F) {
	root := providertest.RepoRoot(f)
	for _, rel := range eventSeeds {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		in := stage.Input{Path: rel, Open: func() (io.ReadCloser, error) { return os.Open(abs) }}
		var out bytes.Buffer
		if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Quiet: true}}, []stage.Input{in}, &out, io.Discard); err != nil {
			f.Fatal(err)
		}
		lines := bytes.SplitAfter(out.Bytes(), []byte("\n"))
		f.Add(bytes.Join(lines[:min(len(lines), 12)], nil))
	}
	f.Add([]byte(`{"schema":"agt.event/1","session":"s","kind":"tool_call","src":{"path":"a","line":1}}` + "\n"))
	f.Add([]byte(`{"schema":"agt.event/1","id":"e","session":"s","stream":"main","kind":"usage","model":"claude-sonnet-4-5","usage":{"scope":"call","input":9007199254740992,"cache_read":0,"cache_write":0,"cache_write_1h":0,"output":0,"reasoning":0,"total":9007199254740992},"src":{"path":"a","line":1}}` + "\n"))
	f.Add([]byte(`{"schema":"agt.event/1","id":"e","session":"s","stream":"main","kind":"user","text":"\u001b[2J\u009b\u202e","src":{"path":"a\n\u001b","line":1}}` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		runIn := func(in []byte, app App, args ...string) []byte {
			var out, errb bytes.Buffer
			code := Run(context.Background(), app(IO{In: bytes.NewReader(in), Out: &out, Err: &errb}), append([]string{"agt", "-q"}, args...))
			if code != ExitOK {
				t.Fatalf("%v: exit %d: %s", args, code, errb.String())
			}
			return out.Bytes()
		}
		run := func(app App, args ...string) []byte { return runIn(b, app, args...) }
		norm := run(Normalize)
		n := 0
		for _, line := range lines(norm) {
			n++
			var ev agt.Event
			if !json.Valid(line) || agt.API.Unmarshal(line, &ev) != nil {
				t.Fatalf("agt-normalize wrote a line that is not an event: %.300q", line)
			}
			if err := agt.CheckEvent(&ev); err != nil {
				t.Fatalf("agt-normalize wrote an event the filters refuse: %v: %.300q", err, line)
			}
		}
		if eventInput(b) {
			if want := nonBlank(b); n != want {
				t.Fatalf("%d events out of agt-normalize for %d lines", n, want)
			}
		}
		trs := run(Transcript)
		if eventInput(b) {
			if piped := runIn(norm, Transcript); !bytes.Equal(piped, trs) {
				t.Fatalf("agt-normalize | agt-transcript differs from agt-transcript:\n piped %.400q\n fused %.400q", piped, trs)
			}
		}
		for _, line := range lines(trs) {
			var tr struct {
				Usage  agt.Usage      `json:"usage"`
				Counts map[string]int `json:"counts"`
			}
			if !json.Valid(line) || json.Unmarshal(line, &tr) != nil {
				t.Fatalf("not a transcript: %.300q", line)
			}
			u := tr.Usage
			for _, v := range []int64{u.Input, u.CacheRead, u.CacheWrite, u.Output, u.Reasoning, u.Total} {
				if v < 0 {
					t.Fatalf("negative usage %+v", u)
				}
			}
			for k, v := range tr.Counts {
				if v < 0 {
					t.Fatalf("negative count %s %d", k, v)
				}
			}
		}
		sum := run(Streamlog)
		if !utf8.Valid(sum) {
			t.Fatalf("summary lines are not UTF-8: %.300q", sum)
		}
		for _, r := range string(sum) {
			if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
				t.Fatalf("control character %U in summary lines: %.300q", r, sum)
			}
		}
		for _, line := range lines(run(Streamlog, "--mode", "raw")) {
			if !json.Valid(line) {
				t.Fatalf("raw stream log line is not JSON: %.300q", line)
			}
		}
	})
}

func lines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

// eventInput tells input read as agt.event/1 lines: its first non-blank
// line is an object whose schema is agt.event/1.
func eventInput(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	for _, l := range bytes.Split(b, []byte("\n")) {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			var p struct {
				Schema string `json:"schema"`
			}
			return agt.API.Unmarshal(l, &p) == nil && p.Schema == agt.Schema
		}
	}
	return false
}

func nonBlank(b []byte) int {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	n := 0
	for _, l := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			n++
		}
	}
	return n
}
