package kiro_test

import (
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/kiro"
	"github.com/agt-project/agt/provider/providertest"
)

const sample = "awsq__v2-basic_fs_tools-2.4.2.jsonl"

// TestGolden parses the real V2 session log and compares the events with
// the reviewed golden file.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "kiro", true, "*.jsonl", "kas/*/*.jsonl")
}

func TestSniff(t *testing.T) {
	const (
		prompt = `{"version":"v1","kind":"Prompt","data":{"message_id":"m1","content":[{"kind":"text","data":"hi"}],"meta":{"timestamp":1779905703}}}`
		clear  = `{"version":"v1","kind":"Clear"}`
		kas    = `{"id":"u1","timestamp":"2026-05-21T20:35:47.332Z","payload":{"type":"user","content":"hi","images":[],"documents":[]}}`
	)
	providertest.Sniff(t, kiro.Provider{}, []providertest.SniffCase{
		{"prompt", providertest.Head(prompt), kiro.FormatSession},
		{"unit kind", providertest.Head(clear, prompt), kiro.FormatSession},
		{"after noise", providertest.Head(`not json`, prompt), kiro.FormatSession},
		{"unknown kind", providertest.Head(`{"version":"v1","kind":"Teleport","data":{}}`), ""},
		{"no version", providertest.Head(`{"kind":"Prompt","data":{}}`), ""},
		{"opencode-like", providertest.Head(`{"version":"1.0","kind":"Prompt"}`), ""},
		{"document", agt.Head{Doc: []byte(prompt)}, ""},
		{"kas", providertest.Head(kas), kiro.FormatKAS},
		{"kas unknown payload", providertest.Head(`{"id":"x","timestamp":"2026-05-21T20:35:47.332Z","payload":{"type":"teleport"}}`), ""},
		{"codex envelope", providertest.Head(`{"timestamp":"2026-05-21T20:35:47.332Z","type":"response_item","payload":{"type":"message"}}`), ""},
	})
	if p, f := provider.Detect(providertest.Head(prompt)); p == nil || p.Name() != "kiro" || f != kiro.FormatSession {
		t.Errorf("detected %v %q", p, f)
	}
}

// TestSession: the session is the file's name, the prompt's time is its
// epoch seconds, every result is linked to its call, the shell's exit
// status is its exit code, and no usage is made up.
func TestSession(t *testing.T) {
	path := providertest.Testdata(t, "kiro", sample)
	out, _, _ := providertest.Parse(t, provider.Config{}, path)
	var kinds []string
	exits := 0
	for _, ev := range providertest.Events(t, out) {
		kinds = append(kinds, ev.Kind)
		if ev.NativeSession != strings.TrimSuffix(sample, ".jsonl") {
			t.Errorf("event %d: session %q", ev.Seq, ev.NativeSession)
		}
		if ev.Kind == agt.KindUser && ev.TS != "2026-05-27T18:15:03.000Z" {
			t.Errorf("prompt at %q, want 2026-05-27T18:15:03.000Z", ev.TS)
		}
		if ev.Result != nil {
			if ev.Result.Call == "" || ev.Result.IsError {
				t.Errorf("result %s: call %q, error %v", ev.Result.ID, ev.Result.Call, ev.Result.IsError)
			}
			if ev.Result.ExitCode != nil {
				exits++
				if *ev.Result.ExitCode != 0 {
					t.Errorf("exit code %d, want 0", *ev.Result.ExitCode)
				}
			}
		}
		if ev.Tool != nil && ev.MessageID == "" {
			t.Errorf("tool call %s has no message id", ev.Tool.ID)
		}
	}
	want := "user" + strings.Repeat(" tool_call tool_result", 6) + " assistant"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("kinds %s, want %s", got, want)
	}
	if exits != 1 {
		t.Errorf("%d exit codes, want 1 (the shell's)", exits)
	}
}

// TestKAS: a KAS log's session is its folder, each result is linked to its
// call, run_command's exit code is read, and the errors the user saw are
// system events.
func TestKAS(t *testing.T) {
	dir := "sess_5e804080-466c-4f65-bde9-f6133b7068f6"
	path := providertest.Testdata(t, "kiro", "kas", dir, "messages.jsonl")
	out := providertest.ParseClean(t, provider.Config{}, path)
	count := map[string]int{}
	for _, ev := range providertest.Events(t, out) {
		count[ev.Kind]++
		if ev.NativeSession != dir || ev.Format != kiro.FormatKAS || ev.TS == "" {
			t.Errorf("event %d: session %q format %q ts %q", ev.Seq, ev.NativeSession, ev.Format, ev.TS)
		}
		if ev.Result != nil && ev.Result.Call == "" {
			t.Errorf("result %s not linked", ev.Result.ID)
		}
		if ev.Result != nil && ev.Result.ExitCode != nil {
			count["exit"]++
		}
	}
	want := map[string]int{"user": 1, "assistant": 5, "tool_call": 6, "tool_result": 6, "system": 4, "meta": 24, "exit": 1}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%d %s, want %d (all: %v)", count[k], k, n, count)
		}
	}
}
