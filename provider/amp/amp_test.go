package amp_test

import (
	"bufio"
	"fmt"
	"os"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/amp"
	"github.com/agt-project/agt/provider/providertest"
)

const (
	sample = "toolpath__stream-json-0.0.1785170481.jsonl"
	thread = "toolpath__thread-export-0.0.1785170481.json" // the same run's thread
)

// TestGolden parses the real capture and compares the events with the
// reviewed golden file.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "amp", true, "*.jsonl", "*.json")
}

func TestSniff(t *testing.T) {
	const (
		init   = `{"type":"system","subtype":"init","cwd":"/w","session_id":"T-019fa4db-29cf-70c9-8d9b-81524df70e52","tools":["Bash"],"mcp_servers":[]}`
		result = `{"type":"result","subtype":"success","duration_ms":2442,"is_error":false,"num_turns":1,"result":"4","session_id":"T-019e47a8-5090-7538-9035-f2fde26859b7"}`
		claude = `{"type":"system","subtype":"init","cwd":"/w","session_id":"45bbe60f-6271-4029-beab-d05c6fdcca4b","tools":["Bash"],"model":"claude-opus-4-5-20251101"}`
	)
	providertest.Sniff(t, amp.Provider{}, []providertest.SniffCase{
		{"init", providertest.Head(init), amp.FormatStreamJSON},
		{"lone result", providertest.Head(result), amp.FormatStreamJSON},
		{"after noise", providertest.Head(`not json`, init), amp.FormatStreamJSON},
		{"claude stream", providertest.Head(claude), ""},
		{"short thread id", providertest.Head(`{"type":"result","session_id":"T-1"}`), ""},
		{"other type", providertest.Head(`{"type":"stream_event","session_id":"T-019fa4db-29cf-70c9-8d9b-81524df70e52"}`), ""},
		{"init as a document", agt.Head{Doc: []byte(init)}, ""},
		{"thread", agt.Head{Doc: []byte(`{"v":73,"id":"T-019fa4db-29cf-70c9-8d9b-81524df70e52","messages":[]}`)}, amp.FormatThread},
		{"thread without version", agt.Head{Doc: []byte(`{"id":"T-019fa4db-29cf-70c9-8d9b-81524df70e52","messages":[]}`)}, ""},
		{"other document", agt.Head{Doc: []byte(`{"v":1,"id":"s1","messages":[]}`)}, ""},
	})
	// the registry picks Amp before Claude Code, whose stream it imitates
	if p, f := provider.Detect(providertest.Head(init)); p == nil || p.Name() != "amp" || f != amp.FormatStreamJSON {
		t.Errorf("detected %v %q", p, f)
	}
	if p, _ := provider.Detect(providertest.Head(claude)); p == nil || p.Name() != "claude" {
		t.Errorf("claude stream detected as %v", p)
	}
}

// TestUsage: one call usage per assistant line, equal to the line's own
// figures (Amp's reference: the same figures its thread export keeps per
// message), and the exit codes Amp's stringified shell results hold.
func TestUsage(t *testing.T) {
	path := providertest.Testdata(t, "amp", sample)
	var want []agt.Usage
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Type    string `json:"type"`
			Message struct {
				Usage *struct {
					In  int64 `json:"input_tokens"`
					CW  int64 `json:"cache_creation_input_tokens"`
					CR  int64 `json:"cache_read_input_tokens"`
					Out int64 `json:"output_tokens"`
				} `json:"usage"`
			} `json:"message"`
		}
		if agt.API.Unmarshal(sc.Bytes(), &l) != nil || l.Type != "assistant" || l.Message.Usage == nil {
			continue
		}
		u := l.Message.Usage
		want = append(want, agt.Usage{Input: u.In, CacheRead: u.CR, CacheWrite: u.CW, Output: u.Out, Total: u.In + u.CR + u.CW + u.Out})
	}
	out, _, _ := providertest.Parse(t, provider.Config{}, path)
	var got []agt.Usage
	exits := map[int]int{}
	for _, ev := range providertest.Events(t, out) {
		if ev.Usage != nil {
			if ev.Usage.Scope != agt.ScopeCall || ev.Usage.ContextWindow != 272000 {
				t.Errorf("usage %+v: want scope call, context window 272000", ev.Usage)
			}
			got = append(got, agt.Usage{Input: ev.Usage.Input, CacheRead: ev.Usage.CacheRead, CacheWrite: ev.Usage.CacheWrite, Output: ev.Usage.Output, Total: ev.Usage.Total})
		}
		if ev.Result != nil && ev.Result.ExitCode != nil {
			exits[*ev.Result.ExitCode]++
			if ev.Result.Call == "" {
				t.Errorf("result %s not linked to its call", ev.Result.ID)
			}
		}
	}
	if len(want) != 12 || len(got) != len(want) {
		t.Fatalf("%d usage events, %d assistant usages in the file (want 12)", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("usage %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if exits[0] != 5 || exits[1] != 1 {
		t.Errorf("exit codes %v, want five 0 and one 1 (cat does-not-exist.txt)", exits)
	}
}

// TestThread: the thread export of the same run gives the same calls as
// its stream (usage, tool calls and their results), and adds what the
// stream lacks: the model and the time of each call.
func TestThread(t *testing.T) {
	type call struct {
		u     agt.Usage
		tools string
	}
	read := func(name string) ([]call, []agt.Event) {
		out, diag, st := providertest.Parse(t, provider.Config{}, providertest.Testdata(t, "amp", name))
		if st.Errors != 0 || st.Unknown != 0 || diag != "" {
			t.Fatalf("%s: errors %d, unknown %d: %s", name, st.Errors, st.Unknown, diag)
		}
		evs := providertest.Events(t, out)
		var calls []call
		tools := ""
		for _, ev := range evs {
			switch {
			case ev.Tool != nil:
				tools += ev.Tool.Name + " "
			case ev.Result != nil:
				tools += fmt.Sprintf("->%v/%v ", ev.Result.IsError, ev.Result.ExitCode != nil)
			case ev.Usage != nil:
				u := *ev.Usage
				u.MessageID = ""
				calls = append(calls, call{u, tools})
				tools = ""
			}
		}
		return calls, evs
	}
	stream, _ := read(sample)
	threadCalls, evs := read(thread)
	if len(threadCalls) != 12 || len(threadCalls) != len(stream) {
		t.Fatalf("%d calls in the thread, %d in the stream (want 12)", len(threadCalls), len(stream))
	}
	for i := range stream {
		// a call's results come after its usage: compare usage and tools
		if stream[i].u != threadCalls[i].u {
			t.Errorf("call %d: thread %+v, stream %+v", i, threadCalls[i].u, stream[i].u)
		}
		if stream[i].tools != threadCalls[i].tools {
			t.Errorf("call %d: thread %q, stream %q", i, threadCalls[i].tools, stream[i].tools)
		}
	}
	for _, ev := range evs {
		if ev.Usage != nil && (ev.Model != "gpt-5.6-sol" || ev.TS == "" || ev.Usage.MessageID == "") {
			t.Errorf("usage %d: model %q, ts %q, message %q", ev.Seq, ev.Model, ev.TS, ev.Usage.MessageID)
		}
		if ev.Result != nil && ev.Result.Call == "" {
			t.Errorf("result %s not linked", ev.Result.ID)
		}
	}
}
