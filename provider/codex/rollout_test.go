package codex_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
)

func tokenCount(in, cached, out, reasoning int) string {
	return `{"timestamp":"2026-01-01T00:00:05.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":` +
		itoa(in) + `,"cached_input_tokens":` + itoa(cached) + `,"output_tokens":` + itoa(out) + `,"reasoning_output_tokens":` + itoa(reasoning) +
		`,"total_tokens":` + itoa(in+out) + `},"model_context_window":1000},"rate_limits":null}}`
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func meta(id, extra string) string {
	return `{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"` + id + `","cwd":"/w","cli_version":"0.140.0","source":"cli"` + extra + `}}`
}

// copied is line as a fork's copy writes it: at the time of the copy,
// here that of meta.
func copied(line string) string {
	return strings.Replace(line, `"timestamp":"2026-01-01T00:00:05.000Z"`, `"timestamp":"2026-01-01T00:00:00.000Z"`, 1)
}

const turnContext = `{"timestamp":"2026-01-01T00:00:01Z","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5.5"}}`

func TestRolloutUsage(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  agt.Usage // Input, CacheRead, Output, Reasoning, Total
		n     int       // usage events
	}{
		{"differences, repeats once, null info", []string{
			meta("a", ""), turnContext,
			`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{}}}`,
			tokenCount(100, 40, 10, 5), tokenCount(100, 40, 10, 5), tokenCount(250, 140, 30, 5),
		}, agt.Usage{Input: 110, CacheRead: 140, Output: 30, Reasoning: 5, Total: 280}, 2},
		{"resumed thread continues", []string{
			meta("a", ""), tokenCount(100, 0, 10, 0), meta("a", ""), tokenCount(150, 0, 20, 0),
		}, agt.Usage{Input: 150, Output: 20, Total: 170}, 2},
		{"fork seeded from copied parent", []string{
			meta("child", `,"forked_from_id":"parent"`), meta("parent", ""),
			copied(tokenCount(100, 0, 10, 0)), copied(tokenCount(200, 0, 20, 0)), copied(tokenCount(250, 0, 25, 0)),
			meta("child", `,"forked_from_id":"parent"`), tokenCount(300, 0, 30, 0),
		}, agt.Usage{Input: 300, Output: 30, Total: 330}, 4},
		{"other thread counts from zero", []string{
			meta("a", ""), copied(tokenCount(1000, 0, 100, 0)), meta("b", ""), copied(tokenCount(500, 0, 50, 0)), meta("a", ""), tokenCount(1100, 0, 110, 0),
		}, agt.Usage{Input: 1600, Output: 160, Total: 1760}, 3},
		{"smaller total: a counter started again, counted in full", []string{
			meta("a", ""), tokenCount(1000, 0, 100, 0), tokenCount(10, 0, 1, 0), tokenCount(20, 0, 2, 0),
		}, agt.Usage{Input: 1020, Output: 102, Total: 1122}, 3},
		{"a counter reset to zero gives no event", []string{
			meta("a", ""), tokenCount(1000, 0, 100, 0), tokenCount(0, 0, 0, 0), tokenCount(20, 0, 2, 0),
		}, agt.Usage{Input: 1020, Output: 102, Total: 1122}, 2},
		{"cache writes", []string{
			meta("a", ""),
			`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":30,"cache_write_input_tokens":20,"output_tokens":7,"reasoning_output_tokens":2,"total_tokens":107}}}}`,
		}, agt.Usage{Input: 50, CacheRead: 30, CacheWrite: 20, Output: 7, Reasoning: 2, Total: 107}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, _ := parse(t, "rollout.jsonl", lines(c.lines...))
			got := sum(evs)
			want := c.want
			want.Scope = got.Scope
			got.ContextWindow = 0
			if got != want {
				t.Errorf("usage\n got  %+v\n want %+v", got, want)
			}
			if n := count(evs, agt.KindUsage); n != c.n {
				t.Errorf("%d usage events, want %d", n, c.n)
			}
			for _, ev := range evs {
				if ev.Kind == agt.KindUsage && (ev.Usage.Scope != agt.ScopeCall || ev.NativeSession != evs[0].NativeSession && !strings.Contains(c.name, "thread") && !strings.Contains(c.name, "fork")) {
					t.Errorf("usage event %+v", ev)
				}
			}
		})
	}
}

func TestRolloutUsageModel(t *testing.T) {
	evs, _ := parse(t, "rollout.jsonl", lines(meta("a", ""), turnContext, tokenCount(10, 0, 1, 0)))
	for _, ev := range evs {
		if ev.Kind == agt.KindUsage && (ev.Model != "gpt-5.5" || ev.Usage.ContextWindow != 1000) {
			t.Errorf("usage event: model %q, context window %d", ev.Model, ev.Usage.ContextWindow)
		}
	}
}

func TestRolloutStreams(t *testing.T) {
	cases := []struct {
		source, extra, stream, parent, agent string
	}{
		{`"cli"`, "", "main", "", ""},
		{`{"subagent":"review"}`, "", "subagent:review", "", ""},
		{`{"subagent":"compact"}`, "", "subagent:compact", "", ""},
		{`{"subagent":{"thread_spawn":{"parent_thread_id":"p","depth":1,"agent_nickname":"scout","agent_role":"explorer"}}}`, "", "subagent:scout", "p", "scout"},
		{`{"subagent":{"thread_spawn":{"parent_thread_id":"p","depth":1,"agent_nickname":null,"agent_role":"explorer"}}}`, `,"forked_from_id":"f"`, "subagent:explorer", "f", "explorer"},
		{`{"subagent":{"other":"guardian"}}`, `,"parent_thread_id":"q"`, "subagent:guardian", "q", ""},
	}
	for _, c := range cases {
		l := `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s","source":` + c.source + c.extra + `}}`
		evs, _ := parse(t, "rollout.jsonl", lines(l, `{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"hi"}}`))
		if len(evs) != 2 {
			t.Fatalf("%s: %d events", c.source, len(evs))
		}
		m := evs[0].Meta
		if evs[0].Stream != c.stream || evs[1].Stream != c.stream || m.ParentSession != c.parent || m.Agent != c.agent {
			t.Errorf("%s: stream %q/%q parent %q agent %q", c.source, evs[0].Stream, evs[1].Stream, m.ParentSession, m.Agent)
		}
	}
}

// TestRolloutText checks the choice of the event_msg stream for text.
func TestRolloutText(t *testing.T) {
	evs, _ := parse(t, "rollout.jsonl", lines(
		meta("a", ""),
		`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>"},{"type":"input_text","text":"two"}]}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>x</environment_context>"}]}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"do it"}]}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"do it","images":[]}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"agent_reasoning","text":"thinking"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"thinking"}],"encrypted_content":"x"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"done"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}}`,
		`{"timestamp":"t","type":"compacted","payload":{"message":"summary of it","replacement_history":[]}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"error","message":"boom"}}`,
	))
	var got []string
	for _, ev := range evs {
		s := ev.Kind
		if ev.Text != nil {
			s += ":" + ev.Text.Str()
		}
		got = append(got, s)
	}
	want := "meta system:<permissions instructions>\n\ntwo system:<environment_context>x</environment_context> meta user:do it reasoning:thinking meta assistant:done meta summary:summary of it system:boom"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestRolloutTools checks names, inputs, exit codes and the pairing of end
// events with outputs.
func TestRolloutTools(t *testing.T) {
	evs, _ := parse(t, "rollout.jsonl", lines(
		meta("a", ""),
		// 1: namespaced MCP function, its end event, then its output
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"_fetch_pr","namespace":"mcp__codex_apps__github","arguments":"{\"pr_number\":1}","call_id":"c1"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"mcp_tool_call_end","call_id":"c1","invocation":{"server":"codex_apps","tool":"github.fetch_pr","arguments":{}},"result":{"Ok":{"content":[],"isError":true}}}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"failed"}}`,
		// 5: unified exec with its exit code in the output
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"false\"}","call_id":"c2"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"Chunk ID: 1\nWall time: 0 seconds\nProcess exited with code 2\nOriginal token count: 1\nOutput:\nProcess exited with code 0\n"}}`,
		// 7: shell 0.39, JSON-encoded output
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c3"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c3","output":"{\"output\":\"x \\\"metadata\\\":{\\\"exit_code\\\":0}\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.1}}"}}`,
		// 9: apply_patch: raw input, failure from patch_apply_end
		`{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** End Patch","call_id":"c4","status":"completed"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"patch_apply_end","call_id":"c4","success":false,"stdout":"","stderr":"bad"}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c4","output":"bad patch"}}`,
		// 12: a user shell command: the end event is the call and the result
		`{"timestamp":"t","type":"event_msg","payload":{"type":"exec_command_end","call_id":"u1","command":["bash","-lc","ls"],"cwd":"/w","aggregated_output":"a\n","exit_code":0,"source":"user_shell"}}`,
		// 13: web_search_end before its id-less web_search_call
		`{"timestamp":"t","type":"event_msg","payload":{"type":"web_search_end","call_id":"ws_1","query":"go","action":{"type":"search","query":"go"}}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"web_search_call","status":"completed","action":{"type":"search","query":"go"}}}`,
		// 15: id-less web_search_call, then its end
		`{"timestamp":"t","type":"response_item","payload":{"type":"web_search_call","status":"completed","action":{"type":"search","query":"rust"}}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"web_search_end","call_id":"ws_2","query":"rust"}}`,
		// 17: local shell, non-JSON arguments
		`{"timestamp":"t","type":"response_item","payload":{"type":"local_shell_call","call_id":"c5","status":"completed","action":{"type":"exec","command":["ls","-l"]}}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"odd","arguments":"not json","call_id":"c6"}}`,
		// 19: a call whose output never comes, closed by its end event
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell_command","arguments":"{}","call_id":"c7"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"exec_command_end","call_id":"c7","aggregated_output":"x","exit_code":5}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"end"}}`,
		// 22: id-less searches that no end event follows: failed, completed, still searching
		`{"timestamp":"t","type":"response_item","payload":{"type":"web_search_call","status":"failed","action":{"type":"search","query":"zig"}}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"web_search_call","status":"completed","action":{"type":"search","query":"odin"}}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"web_search_call","status":"in_progress","action":{"type":"search","query":"hare"}}}`,
		// 25: a search whose end names it by another id (0.146): one call, the end's results
		`{"timestamp":"t","type":"response_item","payload":{"type":"web_search_call","id":"ws-9","status":"completed","action":{"type":"search","query":"nim"}}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"web_search_end","call_id":"call-9","query":"nim","results":[{"title":"Nim"}]}}`,
	))
	checkLinks(t, evs)
	calls := map[string]*agt.Tool{}
	results := map[string]*agt.Result{}
	src := map[string]int64{}
	for _, ev := range evs {
		switch ev.Kind {
		case agt.KindToolCall:
			calls[ev.Tool.ID] = ev.Tool
		case agt.KindToolResult:
			if results[ev.Result.ID] != nil {
				t.Errorf("two results for %s", ev.Result.ID)
			}
			results[ev.Result.ID] = ev.Result
			src[ev.Result.ID] = ev.Src.Line
		}
	}
	exit := func(r *agt.Result) int {
		if r == nil || r.ExitCode == nil {
			return -100
		}
		return *r.ExitCode
	}
	checks := []struct {
		id, name, input string
		isError         bool
		exit            int
	}{
		{"c1", "mcp__codex_apps__github_fetch_pr", `{"pr_number":1}`, true, -100},
		{"c2", "exec_command", `{"cmd":"false"}`, true, 2},
		{"c3", "shell", `{"command":["ls"]}`, true, 1},
		{"c4", "apply_patch", `{"raw":"*** Begin Patch\n*** End Patch"}`, true, -100},
		{"u1", "exec_command", `{"command":["bash","-lc","ls"],"cwd":"/w","source":"user_shell"}`, false, 0},
		{"ws_1", "web_search", `{"type":"search","query":"go"}`, false, -100},
		{"c5", "local_shell", `{"type":"exec","command":["ls","-l"]}`, false, -100},
		{"c6", "odd", `{"raw":"not json"}`, false, -100},
		{"c7", "shell_command", `{}`, true, 5},
	}
	for _, c := range checks {
		tool, r := calls[c.id], results[c.id]
		if tool == nil {
			t.Errorf("%s: no call", c.id)
			continue
		}
		if tool.Name != c.name || string(tool.Input) != c.input || string(tool.NativeInput) != c.input {
			t.Errorf("%s: call %s %s", c.id, tool.Name, tool.Input)
		}
		if c.id == "c5" || c.id == "c6" {
			continue
		}
		if r == nil || r.IsError != c.isError || exit(r) != c.exit {
			t.Errorf("%s: result %+v (exit %d)", c.id, r, exit(r))
		}
	}
	if src["c7"] != 20 {
		t.Errorf("result of c7 from line %d, want the end event's line 20", src["c7"])
	}
	if n := count(evs, agt.KindToolCall); n != 14 {
		t.Errorf("%d calls, want 14", n)
	}
	// id-less searches get an id derived from their line; the one of line
	// 15 gets the result of line 16, those of lines 22 and 23 a result from
	// their own status, the one still searching none
	byLine := map[int64]*agt.Tool{}
	for _, ev := range evs {
		if ev.Kind == agt.KindToolCall {
			byLine[ev.Src.Line] = ev.Tool
		}
	}
	for _, c := range []struct {
		line    int64
		out     string // "" no result
		isError bool
		from    int64
	}{
		{15, "null", false, 16},
		{22, `{"status":"failed"}`, true, 22},
		{23, `{"status":"completed"}`, false, 23},
		{24, "", false, 0},
		{25, `[{"title":"Nim"}]`, false, 26},
	} {
		tool := byLine[c.line]
		if tool == nil || !strings.HasPrefix(tool.ID, "ws") || len(tool.ID) < 4 {
			t.Errorf("line %d: call %+v", c.line, tool)
			continue
		}
		r := results[tool.ID]
		switch {
		case c.out == "" && r != nil:
			t.Errorf("line %d: a search still running has result %+v", c.line, r)
		case c.out == "":
		case r == nil:
			t.Errorf("line %d (%s): no result", c.line, tool.ID)
		case string(r.Output) != c.out && !(c.out == "null" && r.Output == nil) || r.IsError != c.isError || src[tool.ID] != c.from:
			t.Errorf("line %d: result %s error %v from line %d, want %s %v from %d", c.line, r.Output, r.IsError, src[tool.ID], c.out, c.isError, c.from)
		}
	}
	if byLine[22].ID == byLine[23].ID || byLine[25].ID != "ws-9" {
		t.Errorf("ids %q %q %q", byLine[22].ID, byLine[23].ID, byLine[25].ID)
	}
	if results[""] != nil {
		t.Errorf("a result with an empty id")
	}
}

func TestRolloutBadRecords(t *testing.T) {
	evs, diag := parse(t, "rollout.jsonl", lines(
		meta("a", ""),
		`not json at all`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":"oops"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"brand_new_event"}}`,
		`{"timestamp":"t","type":"brand_new_line","payload":{}}`,
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"nowhere","output":"x"}}`,
	))
	kinds := map[int64]string{}
	for _, ev := range evs {
		kinds[ev.Src.Line] += ev.Kind + " "
	}
	want := map[int64]string{1: "meta ", 2: "error ", 3: "error meta ", 4: "unknown ", 5: "unknown ", 6: "tool_result "}
	for l, k := range want {
		if kinds[l] != k {
			t.Errorf("line %d: %q, want %q", l, kinds[l], k)
		}
	}
	if !strings.Contains(diag, ":2: not JSON") {
		t.Errorf("diagnostics: %s", diag)
	}
}

func TestLegacyDocumentPretty(t *testing.T) {
	doc := `{
  "session": {"timestamp": "2025-05-05T19:24:54Z", "id": "s1", "instructions": ""},
  "items": [
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
    {"type": "function_call", "call_id": "c1", "name": "shell", "arguments": "{\"command\": [\"ls\"]}"},
    {"type": "function_call_output", "call_id": "c1", "output": {"content": "x", "success": true}},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}
  ]
}
`
	evs, _ := parse(t, "rollout-2025-05-05-s1.json", doc)
	var got []string
	for _, ev := range evs {
		got = append(got, ev.Kind+"@"+ev.Src.Ptr)
		if ev.Src.Line != 0 || ev.NativeSession != "s1" || ev.Format != "codex-legacy-json" {
			t.Errorf("event %+v", ev)
		}
		if ev.Kind == agt.KindToolResult && string(ev.Result.Output) != `{"content":"x","success":true}` {
			t.Errorf("output not compact: %s", ev.Result.Output)
		}
		if ev.Kind == agt.KindToolCall && string(ev.Tool.Input) != `{"command":["ls"]}` {
			t.Errorf("input not compact: %s", ev.Tool.Input)
		}
	}
	want := "meta@/session user@/items/0 tool_call@/items/1 tool_result@/items/2 assistant@/items/3"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	checkLinks(t, evs)
}

// TestCounterReset splices a real rollout as a resumed session writes it:
// the whole file, then its first turns again after a new session_meta of the
// same thread, their totals counting from zero again (the counter of a new
// process). The usage events must add up to the last total before the reset
// plus the last total after it: no interval is lost.
func TestCounterReset(t *testing.T) {
	real, err := os.ReadFile(providertest.Testdata(t, "codex", "agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	recs := strings.Split(strings.TrimRight(string(real), "\n"), "\n")
	type total struct {
		Payload struct {
			Type string `json:"type"`
			Info *struct {
				Total map[string]int64 `json:"total_token_usage"`
			} `json:"info"`
		} `json:"payload"`
	}
	last := func(recs []string) (map[string]int64, int) {
		var tot map[string]int64
		n := 0
		for _, r := range recs {
			var v total
			if agt.API.Unmarshal([]byte(r), &v) == nil && v.Payload.Type == "token_count" && v.Payload.Info != nil {
				tot, n = v.Payload.Info.Total, n+1
			}
		}
		return tot, n
	}
	// the replay: the first 30 records, which hold several totals
	replay := recs[:30]
	before, n1 := last(recs)
	after, n2 := last(replay)
	if n1 < 4 || n2 < 2 || after["total_tokens"] >= before["total_tokens"] {
		t.Fatalf("the file no longer has the totals this test needs: %d, %d", n1, n2)
	}
	spliced := append(append([]string{}, recs...), replay...)
	evs, _ := parse(t, "rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl", lines(spliced...))
	var sum agt.Usage
	for _, ev := range evs {
		if ev.Kind == agt.KindUsage {
			sum.Add(ev.Usage)
		}
	}
	want := before["total_tokens"] + after["total_tokens"]
	if sum.Total != want || sum.Output != before["output_tokens"]+after["output_tokens"] ||
		sum.CacheRead != before["cached_input_tokens"]+after["cached_input_tokens"] ||
		sum.Reasoning != before["reasoning_output_tokens"]+after["reasoning_output_tokens"] {
		t.Errorf("usage after a counter reset: total %d output %d cache_read %d reasoning %d; want %d (%d before the reset + %d after)",
			sum.Total, sum.Output, sum.CacheRead, sum.Reasoning, want, before["total_tokens"], after["total_tokens"])
	}
}
