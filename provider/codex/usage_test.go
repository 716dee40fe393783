package codex_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
)

// usageView is what a usage report reads of a parse: the usage events (id,
// session, stream, time, model, figures, line) in order, each session's
// first folder, and the lines that gave an error or unknown event (a
// skimmed line of a known type gives no event: it is counted in
// stats.Lines).
type usageView struct {
	usage, folders []string
	flagged        []string
	stats          provider.Stats
	diag           string
}

func parseUsageView(t *testing.T, opts agt.Options, paths ...string) usageView {
	t.Helper()
	out, diag, st := providertest.Parse(t, provider.Config{Provider: "codex", Opts: opts}, paths...)
	v := usageView{stats: st, diag: diag}
	folder := map[string]bool{}
	for _, l := range bytes.Split(out, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var ev agt.Event
		if err := json.Unmarshal(l, &ev); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		switch {
		case ev.Kind == agt.KindError || ev.Kind == agt.KindUnknown:
			v.flagged = append(v.flagged, fmt.Sprintf("%s:%d%s %s", ev.Src.Path, ev.Src.Line, ev.Src.Ptr, ev.Kind))
		case ev.Kind == agt.KindUsage:
			b, _ := json.Marshal([]any{ev.ID, ev.Session, ev.Stream, ev.TS, ev.Model, ev.Usage, ev.Src})
			v.usage = append(v.usage, string(b))
		case ev.Meta != nil && ev.Meta.Cwd != "" && !folder[ev.Session]:
			folder[ev.Session] = true
			v.folders = append(v.folders, ev.Session+" "+ev.Meta.Cwd)
		}
	}
	return v
}

// TestUsageOnly: parsed for a usage report (agt.Options.Usage: the lines
// without usage skimmed, see skim.go), every rollout gives the usage
// events of a full parse (same ids, sessions, streams, times, models,
// figures and lines), the same session folders, the same lines counted,
// and the same errors and unknown records on the same lines; forks
// and sub-agents included (their copied histories are placed by the
// skimmed lines' times and turns).
func TestUsageOnly(t *testing.T) {
	paths := providertest.TestdataAndCorpus(t, "codex")
	full, fast := parseUsageView(t, agt.Options{}, paths...), parseUsageView(t, agt.Options{Usage: true}, paths...)
	if len(full.usage) < 10 { // testdata alone holds 20
		t.Fatalf("%d usage events", len(full.usage))
	}
	if !slices.Equal(full.usage, fast.usage) {
		for i := range min(len(full.usage), len(fast.usage)) {
			if full.usage[i] != fast.usage[i] {
				t.Fatalf("usage event %d:\n full %s\n fast %s", i, full.usage[i], fast.usage[i])
			}
		}
		t.Fatalf("%d usage events in full, %d for a usage report", len(full.usage), len(fast.usage))
	}
	if !slices.Equal(full.folders, fast.folders) {
		t.Errorf("folders:\n full %q\n fast %q", full.folders, fast.folders)
	}
	if !slices.Equal(full.flagged, fast.flagged) {
		t.Errorf("error and unknown events:\n full %q\n fast %q", full.flagged, fast.flagged)
	}
	if full.stats.Errors != fast.stats.Errors || full.stats.Unknown != fast.stats.Unknown || full.stats.Lines != fast.stats.Lines {
		t.Errorf("full: %d lines, %d errors, %d unknown; usage report: %d, %d, %d",
			full.stats.Lines, full.stats.Errors, full.stats.Unknown, fast.stats.Lines, fast.stats.Errors, fast.stats.Unknown)
	}
}

// TestUsageOnlyBadLines: a skimmed line that is not JSON, or whose string
// holds a control character, is reported as in a full parse, PATH:LINE:
// why; a payload type no table knows is still an unknown record; and the
// usage of the lines around them still counts.
func TestUsageOnlyBadLines(t *testing.T) {
	const ts = `{"timestamp":"2026-01-01T00:00:0`
	lines := []string{
		ts + `0.000Z","type":"session_meta","payload":{"id":"019b88e0-0b0f-7bb0-a9ba-5cc2d8dffde9","cwd":"/p","source":"cli"}}`,
		ts + `1.000Z","type":"turn_context","payload":{"cwd":"/p","model":"gpt-5.2-codex"}}`,
		ts + `2.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi`, // cut short
		ts + `3.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"cmd\":\"ls\u0001\"}","call_id":"c1"}}`,
		ts + `3.500Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"a` + "\x01" + `b"}}`, // a raw control character
		ts + `4.000Z","type":"response_item","payload":{"type":"brand_new_item","x":1}}`,
		ts + `4.500Z","type":"event_msg","payload":{"type":"brand_new_event","turn_id":"x"}}`,
		ts + `4.700Z","type":"brand_new_line","payload":{"type":"x"}}`,
		// payloads that do not open with their type
		ts + `4.800Z","type":"response_item","payload":{"id":"rs_1","summary":[{"type":"summary_text","text":"a` + "\x01" + `b"}],"type":"reasoning"}}`,
		ts + `4.900Z","type":"response_item","payload":{"id":"x_1","type":"brand_new_later"}}`,
		ts + `4.950Z","type":"response_item","payload":{"id":"rs_2","summary":[{"type":"summary_text","text":"ok"}],"type":"reasoning"}}`,
		tokenCount(100, 20, 10, 5),
	}
	path := filepath.Join(t.TempDir(), "rollout-2026-01-01T00-00-00-019b88e0-0b0f-7bb0-a9ba-5cc2d8dffde9.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	full, fast := parseUsageView(t, agt.Options{}, path), parseUsageView(t, agt.Options{Usage: true}, path)
	if full.stats.Errors != 3 || full.stats.Unknown != 4 {
		t.Fatalf("full parse: %d errors, %d unknown, usage %q: %s", full.stats.Errors, full.stats.Unknown, full.usage, full.diag)
	}
	if full.diag != fast.diag || full.stats.Errors != fast.stats.Errors || full.stats.Unknown != fast.stats.Unknown {
		t.Errorf("full (%d errors, %d unknown):\n%s\nusage report (%d, %d):\n%s", full.stats.Errors, full.stats.Unknown, full.diag, fast.stats.Errors, fast.stats.Unknown, fast.diag)
	}
	if !strings.Contains(fast.diag, ":3: ") || !strings.Contains(fast.diag, ":5: ") || !strings.Contains(fast.diag, ":9: ") {
		t.Errorf("the bad lines are not told by their line:\n%s", fast.diag)
	}
	if len(fast.usage) != 1 || !slices.Equal(full.usage, fast.usage) {
		t.Errorf("usage:\n full %q\n fast %q", full.usage, fast.usage)
	}
	if len(fast.flagged) != 7 || !slices.Equal(full.flagged, fast.flagged) {
		t.Errorf("error and unknown events:\n full %q\n fast %q", full.flagged, fast.flagged)
	}
	if fast.stats.Lines != int64(len(lines)) {
		t.Errorf("%d lines counted, want %d", fast.stats.Lines, len(lines))
	}
}

// TestUsageOnlyLegacyMixed: a legacy rollout (bare header, state markers,
// bare items) that goes on in the envelope of current rollouts (a session
// a later version resumed; the bench generator writes them too): its
// envelope lines are read as a current rollout's, its token count counts,
// and a usage report, which skims the legacy lines, gives the usage,
// errors, unknown records and line count of a full parse.
func TestUsageOnlyLegacyMixed(t *testing.T) {
	const ts = `{"timestamp":"2026-01-01T00:00:0`
	lines := []string{
		`{"id":"0198c7a0-0000-7000-8000-000000000009","timestamp":"2025-08-20T13:20:47.060Z","instructions":null}`,
		`{"record_type":"state"}`,
		`{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"hi"}]}`,
		// bad legacy lines: cut short, a raw control character, an
		// unknown type, a type of the wrong JSON type
		`{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"cut`,
		`{"type":"function_call_output","call_id":"c1","output":"a` + "\x01" + `b"}`,
		`{"type":"brand_new_legacy_item","x":1}`,
		`{"type":5,"id":"x"}`,
		ts + `1.000Z","type":"turn_context","payload":{"cwd":"/p","model":"gpt-5.2-codex"}}`,
		ts + `2.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi`, // cut short
		ts + `3.000Z","type":"event_msg","payload":{"type":"agent_message","message":"a` + "\x01" + `b"}}`,                         // a raw control character
		tokenCount(100, 20, 10, 5),
		`{"type":"message","id":null,"role":"assistant","content":[{"type":"output_text","text":"done"}]}`,
	}
	path := filepath.Join(t.TempDir(), "rollout-2025-08-20T13-20-47-0198c7a0-0000-7000-8000-000000000009.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	full, fast := parseUsageView(t, agt.Options{}, path), parseUsageView(t, agt.Options{Usage: true}, path)
	if full.stats.Errors != 5 || full.stats.Unknown != 2 || len(full.usage) != 1 {
		t.Fatalf("full parse: %d errors, %d unknown, usage %q: %s", full.stats.Errors, full.stats.Unknown, full.usage, full.diag)
	}
	if full.diag != fast.diag || full.stats.Errors != fast.stats.Errors || full.stats.Unknown != fast.stats.Unknown {
		t.Errorf("full (%d errors, %d unknown):\n%s\nusage report (%d, %d):\n%s", full.stats.Errors, full.stats.Unknown, full.diag, fast.stats.Errors, fast.stats.Unknown, fast.diag)
	}
	if !slices.Equal(full.usage, fast.usage) || !slices.Equal(full.folders, fast.folders) {
		t.Errorf("usage:\n full %q %q\n fast %q %q", full.usage, full.folders, fast.usage, fast.folders)
	}
	if !slices.Equal(full.flagged, fast.flagged) || fast.stats.Lines != int64(len(lines)) {
		t.Errorf("%d lines counted, error and unknown events:\n full %q\n fast %q", fast.stats.Lines, full.flagged, fast.flagged)
	}
}

// TestUsageOnlyCopyEnd: a usage report places the lines after a
// sub-agent's copy of its parent's history as a full parse does, where
// what ends the copy is a skimmed line: the spawned output Codex gives the
// spawn call, or a line naming a turn started after the copy.
func TestUsageOnlyCopyEnd(t *testing.T) {
	const (
		pid    = "019b0500-0000-7000-8000-00000000000a"
		sid    = "019b0500-4e20-7000-8000-00000000000b" // 20 s later
		copyAt = "2025-12-09T21:00:20.000Z"
	)
	at := func(ts, typ, payload string) string {
		return `{"timestamp":"` + ts + `","type":"` + typ + `","payload":` + payload + `}`
	}
	total := func(in, out int) string {
		return `{"type":"token_count","info":{"total_token_usage":{"input_tokens":` + itoa(in) + `,"cached_input_tokens":0,"output_tokens":` + itoa(out) + `,"reasoning_output_tokens":0,"total_tokens":` + itoa(in+out) + `}}}`
	}
	head := []string{
		at(copyAt, "session_meta", `{"id":"`+sid+`","forked_from_id":"`+pid+`","timestamp":"`+copyAt+`","cwd":"/w","source":{"subagent":{"thread_spawn":{"parent_thread_id":"`+pid+`","depth":1,"agent_nickname":"Scout"}}}}`),
		at(copyAt, "session_meta", `{"id":"`+pid+`","timestamp":"2025-12-09T20:51:51.000Z","cwd":"/w","source":"cli"}`),
		at(copyAt, "response_item", `{"type":"function_call","name":"spawn_agent","arguments":"{}","call_id":"call_spawn"}`),
		at(copyAt, "event_msg", total(1000, 100)),
	}
	spawnedOut := at(copyAt, "response_item", `{"type":"function_call_output","call_id":"call_spawn","output":"You are the newly spawned agent. The prior conversation history was forked from your parent agent. Treat the next user message as your new task."}`)
	laterTurn := at(copyAt, "event_msg", `{"type":"task_started","turn_id":"019b0500-4e21-7000-8000-0000000000c1"}`)
	for name, tail := range map[string][]string{"spawned output": {spawnedOut}, "later turn": {laterTurn}} {
		t.Run(name, func(t *testing.T) {
			lines := append(append(slices.Clone(head), tail...), at(copyAt, "event_msg", total(1500, 150)))
			path := filepath.Join(t.TempDir(), "rollout-2025-12-09T21-00-20-"+sid+".jsonl")
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			full, fast := parseUsageView(t, agt.Options{}, path), parseUsageView(t, agt.Options{Usage: true}, path)
			if len(full.usage) != 2 || !strings.Contains(full.usage[1], agt.SessionID("codex", sid)) {
				t.Fatalf("full parse: the sub-agent's own call is not its: %q", full.usage)
			}
			if !slices.Equal(full.usage, fast.usage) {
				t.Errorf("usage:\n full %q\n fast %q", full.usage, fast.usage)
			}
		})
	}
}
