package codex_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
)

// TestExecItems covers the item shapes of `codex exec --json`: the doubled
// web_search id, ids restarting on resume, completions without a start, MCP
// errors, todo updates, cumulative usage and interleaved stderr.
func TestExecItems(t *testing.T) {
	evs, diag := parse(t, "exec.jsonl", lines(
		`{"type":"thread.started","thread_id":"T1"}`,
		`{"type":"turn.started"}`,
		`{"type":"item.started","item":{"id":"item_0","type":"web_search","id":"ws_abc","query":"","action":{"type":"other"}}}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"web_search","id":"ws_abc","query":"go","action":{"type":"search","query":"go"}}}`,
		`{"type":"item.started","item":{"id":"item_1","type":"todo_list","items":[{"text":"a","completed":false}]}}`,
		`{"type":"item.updated","item":{"id":"item_1","type":"todo_list","items":[{"text":"a","completed":true}]}}`,
		`2026-10-03T02:33:06Z ERROR codex_core::tools::router: something`,
		`{"type":"item.completed","item":{"id":"item_2","type":"mcp_tool_call","server":"calc","tool":"add","arguments":{"a":2},"result":null,"error":{"message":"nope"},"status":"failed"}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"todo_list","items":[{"text":"a","completed":true}]}}`,
		`{"type":"turn.completed","usage":{"input_tokens":1000,"cached_input_tokens":400,"output_tokens":50,"reasoning_output_tokens":10}}`,
		`{"type":"thread.started","thread_id":"T1"}`,
		`{"type":"turn.started"}`,
		`{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"bash -lc false","aggregated_output":"","exit_code":null,"status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"bash -lc false","aggregated_output":"","exit_code":1,"status":"failed"}}`,
		`{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"done"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":1500,"cached_input_tokens":900,"cache_write_input_tokens":0,"output_tokens":80,"reasoning_output_tokens":10}}`,
	))
	checkLinks(t, evs)
	var got []string
	for _, ev := range evs {
		s := ev.Kind
		switch ev.Kind {
		case agt.KindToolCall:
			s += ":" + ev.Tool.ID + ":" + ev.Tool.Name
		case agt.KindToolResult:
			s += ":" + ev.Result.ID
			if ev.Result.IsError {
				s += ":error"
			}
		case agt.KindUsage:
			s += ":" + ev.Usage.Scope + ":" + itoa(int(ev.Usage.Total))
		case agt.KindMeta:
			if ev.Meta.Data != nil {
				s += ":" + string(ev.Meta.Data)
			}
		}
		if ev.NativeSession != "T1" {
			t.Errorf("session %q at %v", ev.NativeSession, ev.Src)
		}
		got = append(got, s)
	}
	want := []string{
		"meta", "meta",
		"tool_call:item_0:web_search", "tool_result:item_0",
		"tool_call:item_1:todo_list", `meta:{"items":[{"text":"a","completed":true}]}`,
		"error",
		"tool_call:item_2:mcp__calc__add", "tool_result:item_2:error",
		"tool_result:item_1",
		"usage:run:1050",
		"meta", "meta",
		"tool_call:item_0#2:command_execution", "tool_result:item_0#2:error",
		"assistant",
		"usage:run:530",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	u := sum(evs)
	if u.Input != 600 || u.CacheRead != 900 || u.Output != 80 || u.Reasoning != 10 || u.Total != 1580 {
		t.Errorf("usage %+v", u)
	}
	if !strings.Contains(diag, ":7: not JSON") {
		t.Errorf("diagnostics: %s", diag)
	}
}

// TestExecOldShapes reads the 0.41–0.43 spelling (session.created,
// item_type, assistant_message) and the ≤0.41 protocol events.
func TestExecOldShapes(t *testing.T) {
	evs, _ := parse(t, "exec.jsonl", lines(
		`{"type":"session.created","session_id":"S"}`,
		`{"type":"item.completed","item":{"id":"itm_0","item_type":"assistant_message","text":"hello"}}`,
	))
	if len(evs) != 2 || evs[1].Kind != agt.KindAssistant || evs[1].Text.Str() != "hello" || evs[1].NativeSession != "S" {
		t.Errorf("0.42 shapes: %+v", evs)
	}
	evs, _ = parse(t, "exec.jsonl", lines(
		`{"model":"gpt-5","provider":"openai","sandbox":"read-only"}`,
		`{"prompt":"list files"}`,
		`{"id":"0","msg":{"type":"session_configured","session_id":"S2","model":"gpt-5"}}`,
		`{"id":"0","msg":{"type":"task_started"}}`,
		`{"id":"0","msg":{"type":"exec_command_begin","call_id":"c1","command":["bash","-lc","ls"],"cwd":"/w"}}`,
		`{"id":"0","msg":{"type":"exec_command_end","call_id":"c1","stdout":"a\n","stderr":"","exit_code":0}}`,
		`{"id":"0","msg":{"type":"agent_message","message":"one file"}}`,
		`{"id":"0","msg":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":5,"reasoning_output_tokens":0,"total_tokens":105}}}}`,
		`{"id":"0","msg":{"type":"task_complete","last_agent_message":"one file"}}`,
	))
	checkLinks(t, evs)
	var got []string
	for _, ev := range evs {
		got = append(got, ev.Kind)
		if ev.NativeSession != "S2" {
			t.Errorf("session %q", ev.NativeSession)
		}
		if ev.Kind == agt.KindUsage && (ev.Usage.Total != 105 || ev.Model != "gpt-5") {
			t.Errorf("usage %+v", ev)
		}
	}
	want := "meta user meta meta tool_call tool_result assistant usage meta"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestExecCorpus checks every generated exec capture: each line yields an
// event, nothing is unknown, results link to their calls, and the usage of
// a file is its last cumulative total.
func TestExecCorpus(t *testing.T) {
	files := providertest.LiveFiles(t, "codex-exec-json", "*.jsonl")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, _, st := providertest.Parse(t, provider.Config{}, f)
			evs := providertest.Events(t, out)
			if st.Unknown != 0 || st.Errors != 0 {
				t.Errorf("%d unknown, %d errors", st.Unknown, st.Errors)
			}
			seen := map[int64]bool{}
			var last *agt.Usage
			for _, ev := range evs {
				seen[ev.Src.Line] = true
				if ev.Format != "codex-exec-json" {
					t.Errorf("format %q", ev.Format)
				}
			}
			raw, _ := os.ReadFile(f)
			for i, l := range strings.Split(string(raw), "\n") {
				if strings.TrimSpace(l) != "" && !seen[int64(i+1)] {
					t.Errorf("line %d yields no event", i+1)
				}
				if strings.Contains(l, `"turn.completed"`) {
					evs2, _ := parse(t, "one.jsonl", l)
					last = evs2[0].Usage
				}
			}
			checkLinks(t, evs)
			if got := sum(evs); last != nil && (got.Input != last.Input || got.CacheRead != last.CacheRead || got.Output != last.Output || got.Total != last.Total) {
				t.Errorf("usage %+v, want the last total %+v", got, last)
			}
		})
	}
}
