package codex_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
)

// The fork tests build forks of a real rollout (0.66.0) the way Codex
// writes one: the new thread's session_meta (forked_from_id), then the
// parent's rollout items up to the cut (its session_meta first), each line
// written again at the time of the copy, then the fork's own turns.

const (
	parentID = "019b04ae-b1c6-7c72-a134-a4c2de66058c"
	forkID   = "019b04c0-9000-7000-8000-000000000001" // a UUIDv7 of 20:15:00 UTC, the fork's creation
	fork2ID  = "019b04d4-a000-7000-8000-000000000002" // forked from the fork at 20:37
	oldID    = "0f0a6a31-3f0e-4c55-9d1a-000000000003" // an older Codex's thread id
)

// forkMeta is the session_meta of a thread forked from parent at ts.
func forkMeta(t *testing.T, parentMeta, id, parent, ts string) string {
	t.Helper()
	var l struct {
		Timestamp string         `json:"timestamp"`
		Type      string         `json:"type"`
		Payload   map[string]any `json:"payload"`
	}
	if err := json.Unmarshal([]byte(parentMeta), &l); err != nil {
		t.Fatal(err)
	}
	l.Timestamp = ts
	l.Payload["id"], l.Payload["timestamp"], l.Payload["forked_from_id"] = id, ts, parent
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// restamp is line written again at ts (Codex stamps each line it writes).
func restamp(t *testing.T, line, ts string) string {
	t.Helper()
	const p = `{"timestamp":"`
	i := strings.Index(line[len(p):], `"`)
	if !strings.HasPrefix(line, p) || i < 0 {
		t.Fatalf("not a rollout line: %.80s", line)
	}
	return p + ts + line[len(p)+i:]
}

// ownTurn is a turn of the fork itself: a user message, an answer and the
// thread's total after it (Codex seeds a fork's counter from the copy's
// last total). A current Codex opens it with task_started and names it
// with a UUIDv7 turn id; an older one writes no turn id.
func ownTurn(ts, turnID, text string, total [4]int) []string {
	var l []string
	tc := `{"timestamp":"` + ts + `","type":"turn_context","payload":{"cwd":"/w","approval_policy":"on-request","model":"gpt-5.1-codex-max"`
	if turnID != "" {
		l = append(l, `{"timestamp":"`+ts+`","type":"event_msg","payload":{"type":"task_started","turn_id":"`+turnID+`","model_context_window":272000}}`)
		tc += `,"turn_id":"` + turnID + `"`
	}
	tc += `}}`
	return append(l,
		`{"timestamp":"`+ts+`","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"`+text+`"}]}}`,
		`{"timestamp":"`+ts+`","type":"event_msg","payload":{"type":"user_message","message":"`+text+`","images":[]}}`,
		tc,
		`{"timestamp":"`+ts+`","type":"event_msg","payload":{"type":"agent_message","message":"Done: `+text+`"}}`,
		`{"timestamp":"`+ts+`","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done: `+text+`"}]}}`,
		`{"timestamp":"`+ts+`","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":`+itoa(total[0])+
			`,"cached_input_tokens":`+itoa(total[1])+`,"output_tokens":`+itoa(total[2])+`,"reasoning_output_tokens":`+itoa(total[3])+
			`,"total_tokens":`+itoa(total[0]+total[2])+`},"model_context_window":272000},"rate_limits":null}}`,
	)
}

// forks writes the parent and three forks: fork, cut before the parent's
// second user message, whose own turn comes after a pause; fork2, a copy
// of the whole fork, whose own turn starts in the same millisecond as the
// copy (as a sub-agent spawned with its parent's context does), told apart
// by its turn id; old, cut like fork by a Codex that writes no turn ids,
// its own turn after a pause.
func forks(t *testing.T) (dir, parent, fork, fork2, old string) {
	t.Helper()
	b, err := os.ReadFile(providertest.Testdata(t, "codex", "agtrace__rollout-2025-12-10T04-55-16-"+parentID+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(src) != 55 || !strings.Contains(src[24], `"cd to myapp and run python hoge.py"`) {
		t.Fatalf("parent: %d lines", len(src))
	}
	dir = t.TempDir()
	parent = filepath.Join(dir, "rollout-2025-12-10T04-55-16-"+parentID+".jsonl")
	fork = filepath.Join(dir, "rollout-2025-12-10T05-15-00-"+forkID+".jsonl")
	fork2 = filepath.Join(dir, "rollout-2025-12-10T05-37-00-"+fork2ID+".jsonl")
	old = filepath.Join(t.TempDir(), "rollout-2025-12-10T05-15-00-"+oldID+".jsonl")

	// backtrack to before the second user message (line 25)
	copyOf := func(id, from string, l []string, ts string) []string {
		out := []string{forkMeta(t, src[0], id, from, ts)}
		for _, l := range l {
			out = append(out, restamp(t, l, ts[:20]+"001Z"))
		}
		return out
	}
	f := append(copyOf(forkID, parentID, src[:24], "2025-12-09T20:15:00.000Z"),
		ownTurn("2025-12-09T20:15:20.000Z", "019b04c0-dc00-7000-8000-0000000000a1", "run it with python3 -O", [4]int{15031, 12728, 267, 74})...)
	g := append(copyOf(fork2ID, forkID, f, "2025-12-09T20:37:00.000Z"),
		ownTurn("2025-12-09T20:37:00.001Z", "019b04d4-a001-7000-8000-0000000000b1", "add a test", [4]int{17031, 13728, 367, 80})...)
	o := append(copyOf(oldID, parentID, src[:24], "2025-12-09T20:15:00.000Z"),
		ownTurn("2025-12-09T20:15:20.000Z", "", "run it with python3 -O", [4]int{15031, 12728, 267, 74})...)

	for name, l := range map[string][]string{parent: src, fork: f, fork2: g, old: o} {
		if err := os.WriteFile(name, []byte(strings.Join(l, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, parent, fork, fork2, old
}

// usageBy sums usage events by native session.
func usageBy(evs []agt.Event) map[string]int64 {
	m := map[string]int64{}
	for _, ev := range evs {
		if ev.Kind == agt.KindUsage {
			m[ev.NativeSession] += ev.Usage.Total
		}
	}
	return m
}

// TestForkAlone: a fork read alone shows every token its file holds (its
// last total), the copied calls in the parent's session.
func TestForkAlone(t *testing.T) {
	_, parent, fork, fork2, old := forks(t)
	cases := []struct {
		path string
		want map[string]int64
	}{
		{parent, map[string]int64{parentID: 27148}},
		{fork, map[string]int64{parentID: 11198, forkID: 15298 - 11198}},
		{fork2, map[string]int64{parentID: 11198, forkID: 15298 - 11198, fork2ID: 17398 - 15298}},
		{old, map[string]int64{parentID: 11198, oldID: 15298 - 11198}},
	}
	for _, c := range cases {
		out, _, _ := providertest.Parse(t, provider.Config{}, c.path)
		evs := providertest.Events(t, out)
		got := usageBy(evs)
		if len(got) != len(c.want) {
			t.Errorf("%s: usage by session %v, want %v", filepath.Base(c.path), got, c.want)
		}
		for s, n := range c.want {
			if got[s] != n {
				t.Errorf("%s: usage of %s %d, want %d", filepath.Base(c.path), s, got[s], n)
			}
		}
		// the user messages of each thread are in its own session
		for _, ev := range evs {
			if ev.Kind == agt.KindUser && strings.HasPrefix(string(ev.Text), `"run it`) != (ev.NativeSession == forkID || ev.NativeSession == oldID) {
				t.Errorf("%s: user message %s in session %s", filepath.Base(c.path), ev.Text, ev.NativeSession)
			}
		}
	}
}

// TestForkIDs: a copied record has the id its original has in the parent.
func TestForkIDs(t *testing.T) {
	_, parent, fork, _, _ := forks(t)
	ids := func(path, session string) map[string]bool {
		out, _, _ := providertest.Parse(t, provider.Config{}, path)
		m := map[string]bool{}
		for _, ev := range providertest.Events(t, out) {
			if ev.NativeSession == session {
				m[ev.ID] = true
			}
		}
		return m
	}
	inParent, copied := ids(parent, parentID), ids(fork, parentID)
	if len(copied) < 20 {
		t.Fatalf("%d copied events", len(copied))
	}
	for id := range copied {
		if !inParent[id] {
			t.Errorf("copied event %s is not in the parent", id)
		}
	}
}

// TestForkTranscripts: the parent and its forks read together, in any
// order, give one transcript per thread; the copied calls and messages
// count once.
func TestForkTranscripts(t *testing.T) {
	dir, parent, fork, fork2, old := forks(t)
	type want struct {
		usage int64
		users int
	}
	p, f, f2, o := want{27148, 2}, want{15298 - 11198, 1}, want{17398 - 15298, 1}, want{15298 - 11198, 1}
	cases := []struct {
		paths []string
		want  map[string]want
	}{
		{[]string{parent, fork, fork2}, map[string]want{parentID: p, forkID: f, fork2ID: f2}},
		{[]string{fork2, fork, parent}, map[string]want{parentID: p, forkID: f, fork2ID: f2}},
		{[]string{fork, parent}, map[string]want{parentID: p, forkID: f}},
		{[]string{parent, old}, map[string]want{parentID: p, oldID: o}},
		{[]string{dir}, map[string]want{parentID: p, forkID: f, fork2ID: f2}},
	}
	for i, c := range cases {
		got := map[string]want{}
		for _, tr := range consolidate(t, c.paths...) {
			if _, dup := got[tr.NativeSession]; dup {
				t.Errorf("case %d: two transcripts of %s", i, tr.NativeSession)
			}
			w := want{usage: tr.Usage.Total}
			for _, m := range tr.Messages {
				if m.Role == transcript.RoleUser {
					w.users++
				}
			}
			got[tr.NativeSession] = w
		}
		if len(got) != len(c.want) {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
		for s, w := range c.want {
			if got[s] != w {
				t.Errorf("case %d: %s: %+v, want %+v", i, s, got[s], w)
			}
		}
	}
}

// consolidate parses paths in-process and returns their transcripts.
func consolidate(t *testing.T, paths ...string) []*transcript.Transcript {
	t.Helper()
	ins, errs := stage.Expand(paths, nil, provider.Claim)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var ts []*transcript.Transcript
	cons := transcript.NewConsolidator(provider.UnitKey, false, func(_ string, tr *transcript.Transcript, _ []agt.Event) error {
		c := *tr
		ts = append(ts, &c)
		return nil
	})
	cfg := provider.Config{Config: stage.Config{Quiet: true}, Sink: cons.Add}
	if _, err := provider.Parse(context.Background(), cfg, ins, nil, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if err := cons.Close(); err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestForkSpawned: a sub-agent spawned with its parent's context copies the
// parent's history up to the spawn call, then gives that call the output
// Codex writes for it: that output is the sub-agent's, and the parent's
// call keeps its own output when both are read together.
func TestForkSpawned(t *testing.T) {
	const (
		pid = "019b0500-0000-7000-8000-00000000000a"
		sid = "019b0500-4e20-7000-8000-00000000000b" // 20 s later
	)
	at := func(ts, typ, payload string) string {
		return `{"timestamp":"2025-12-09T21:` + ts + `Z","type":"` + typ + `","payload":` + payload + `}`
	}
	head := `{"id":"` + pid + `","timestamp":"2025-12-09T20:51:51.000Z","cwd":"/w","cli_version":"0.146.0","source":"cli"}`
	call := `{"type":"function_call","name":"spawn_agent","arguments":"{\"message\":\"check the tests\",\"fork_context\":true}","call_id":"call_spawn"}`
	parentLines := []string{
		at("00:00.000", "session_meta", head),
		at("00:01.000", "event_msg", `{"type":"user_message","message":"fix the build"}`),
		at("00:05.000", "response_item", call),
		at("00:05.100", "event_msg", `{"type":"token_count","info":{"total_token_usage":{"input_tokens":1000,"cached_input_tokens":0,"output_tokens":100,"reasoning_output_tokens":0,"total_tokens":1100}}}`),
		at("00:06.000", "response_item", `{"type":"function_call_output","call_id":"call_spawn","output":"{\"agent_id\":\"`+sid+`\"}"}`),
	}
	copyAt := "00:20.000"
	subLines := []string{
		at(copyAt, "session_meta", `{"id":"`+sid+`","forked_from_id":"`+pid+`","timestamp":"2025-12-09T21:00:20.000Z","cwd":"/w","cli_version":"0.146.0","source":{"subagent":{"thread_spawn":{"parent_thread_id":"`+pid+`","depth":1,"agent_nickname":"Scout"}}}}`),
	}
	for _, l := range parentLines[:4] {
		subLines = append(subLines, restamp(t, l, "2025-12-09T21:"+copyAt+"Z"))
	}
	subLines = append(subLines,
		at(copyAt, "response_item", `{"type":"function_call_output","call_id":"call_spawn","output":"`+"You are the newly spawned agent. The prior conversation history was forked from your parent agent. Treat the next user message as your new task, and use the forked history only as background context."+`"}`),
		at(copyAt, "event_msg", `{"type":"task_started","turn_id":"019b0500-4e21-7000-8000-0000000000c1"}`),
		at(copyAt, "event_msg", `{"type":"user_message","message":"check the tests"}`),
		at(copyAt, "event_msg", `{"type":"token_count","info":{"total_token_usage":{"input_tokens":1500,"cached_input_tokens":0,"output_tokens":150,"reasoning_output_tokens":0,"total_tokens":1650}}}`),
	)
	dir := t.TempDir()
	pf, sf := filepath.Join(dir, "rollout-p-"+pid+".jsonl"), filepath.Join(dir, "rollout-s-"+sid+".jsonl")
	for name, l := range map[string][]string{pf: parentLines, sf: subLines} {
		if err := os.WriteFile(name, []byte(strings.Join(l, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, paths := range [][]string{{pf, sf}, {sf, pf}} {
		got := map[string]*transcript.Transcript{}
		for _, tr := range consolidate(t, paths...) {
			got[tr.NativeSession] = tr
		}
		p, s := got[pid], got[sid]
		if p == nil || s == nil || len(got) != 2 {
			t.Fatalf("transcripts %v", got)
		}
		if p.Usage.Total != 1100 || s.Usage.Total != 550 {
			t.Errorf("usage: parent %d, sub-agent %d", p.Usage.Total, s.Usage.Total)
		}
		var out string
		for _, m := range p.Messages {
			for _, c := range m.ToolCalls {
				out += string(c.Output)
			}
		}
		if !strings.Contains(out, "agent_id") || strings.Contains(out, "newly spawned") {
			t.Errorf("the parent's spawn call has output %s", out)
		}
	}
}
