package copilot_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
)

func TestToolResults(t *testing.T) {
	req := func(n int, id, args string) string {
		return ev(n, "assistant.message", `{"messageId":"m`+id+`","content":"","model":"m1","toolRequests":[{"toolCallId":"`+id+`","name":"bash","arguments":`+args+`,"type":"function"}]}`)
	}
	cases := []struct {
		name     string
		args     string
		complete string
		input    string
		isError  bool
		exit     string // "" for none
		output   string
	}{
		{"success", `{"command":"ls"}`, `{"toolCallId":"c","success":true,"result":{"content":"a\nb","detailedContent":"x"}}`, `{"command":"ls"}`, false, "", `"a\nb"`},
		{"arguments as a JSON string", `"{\"command\": \"ls\"}"`, `{"toolCallId":"c","success":true,"result":{"content":"ok"}}`, `{"command":"ls"}`, false, "", `"ok"`},
		{"arguments as plain text", `"*** Begin Patch"`, `{"toolCallId":"c","success":true,"result":{"content":"ok"}}`, `{"raw":"*** Begin Patch"}`, false, "", `"ok"`},
		{"failure", `{}`, `{"toolCallId":"c","success":false,"error":{"message":"Path does not exist","code":"failure"},"result":{"detailedContent":null}}`, `{}`, true, "", `"Path does not exist"`},
		{"shell exit code, success true", `{}`, `{"toolCallId":"c","success":true,"shellExecution":{"exitCode":1},"result":{"content":"no such file\n<shellId: 1 completed with exit code 1>"}}`, `{}`, true, "1", `"no such file\n<shellId: 1 completed with exit code 1>"`},
		{"exit code in the output (older versions)", `{}`, `{"toolCallId":"c","success":true,"result":{"content":"x\n<shellId: 7 completed with exit code 2>"}}`, `{}`, true, "2", `"x\n<shellId: 7 completed with exit code 2>"`},
		{"exit code 0 in the output", `{}`, `{"toolCallId":"c","success":true,"result":{"content":"x\n<exited with exit code 0>"}}`, `{}`, false, "0", `"x\n<exited with exit code 0>"`},
		{"exit code text not on its own line", `{}`, `{"toolCallId":"c","success":true,"result":{"content":"grep: exit code 1>"}}`, `{}`, false, "", `"grep: exit code 1>"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, _, st := parse(t, write(t, "events.jsonl",
				ev(1, "session.start", start),
				req(2, "c", c.args),
				ev(3, "tool.execution_start", `{"toolCallId":"c","toolName":"bash","arguments":{}}`),
				ev(4, "tool.execution_complete", c.complete),
			))
			if st.Errors != 0 || st.Unknown != 0 {
				t.Errorf("errors %d unknown %d", st.Errors, st.Unknown)
			}
			var call, res *agt.Event
			for i := range evs {
				switch evs[i].Kind {
				case agt.KindToolCall:
					if call != nil {
						t.Fatalf("two tool calls")
					}
					call = &evs[i]
				case agt.KindToolResult:
					res = &evs[i]
				}
			}
			if call == nil || res == nil {
				t.Fatalf("call %v result %v", call, res)
			}
			if string(call.Tool.Input) != c.input || string(call.Tool.NativeInput) != c.input {
				t.Errorf("input %s, want %s", call.Tool.Input, c.input)
			}
			r := res.Result
			if r.Call != call.ID || r.ID != "c" {
				t.Errorf("result %s call %q, want c %q", r.ID, r.Call, call.ID)
			}
			if r.IsError != c.isError {
				t.Errorf("is_error %v", r.IsError)
			}
			exit := ""
			if r.ExitCode != nil {
				exit = strings.TrimSpace(string(agt.Marshal(*r.ExitCode)))
			}
			if exit != c.exit {
				t.Errorf("exit code %q, want %q", exit, c.exit)
			}
			if string(r.Output) != c.output {
				t.Errorf("output %s, want %s", r.Output, c.output)
			}
		})
	}
}

// TestCallWithoutRequest: a tool.execution_start with no tool request
// before it is the call; a result with no call stays unlinked.
func TestCallWithoutRequest(t *testing.T) {
	evs, _, _ := parse(t, write(t, "events.jsonl",
		ev(1, "session.start", start),
		ev(2, "tool.execution_start", `{"toolCallId":"c","toolName":"github-get_issue","arguments":{"n":1},"mcpServerName":"github","mcpToolName":"get_issue"}`),
		ev(3, "tool.execution_complete", `{"toolCallId":"c","success":true,"result":{"content":"ok"}}`),
		ev(4, "tool.execution_complete", `{"toolCallId":"gone","success":true,"result":{"content":"ok"}}`),
	))
	kinds := ""
	for _, e := range evs {
		kinds += e.Kind + " "
	}
	if kinds != "meta tool_call tool_result tool_result " {
		t.Fatalf("kinds %s", kinds)
	}
	if m := evs[1].Tool.MCP; m == nil || m.Server != "github" || m.Tool != "get_issue" {
		t.Errorf("mcp %+v", m)
	}
	if evs[2].Result.Call != evs[1].ID || evs[3].Result.Call != "" {
		t.Errorf("links %q %q", evs[2].Result.Call, evs[3].Result.Call)
	}
}

// TestBadRecords: a line that is not JSON is an error event and the run
// goes on; an unknown type is an unknown event with its raw record; a field
// of an unexpected type gives an error event and the rest of the record.
func TestBadRecords(t *testing.T) {
	path := write(t, "events.jsonl",
		ev(1, "session.start", start),
		`{"type":"user.message","data":{"content":"cut sh`,
		ev(3, "brand.new_type", `{"x":1}`),
		ev(4, "assistant.message", `{"messageId":"a","content":"hello","reasoningId":5}`),
		`2026-01-01T00:00:00Z ERROR something on stderr`,
		ev(6, "user.message", `{"content":"still here"}`),
	)
	evs, _, st := parse(t, path)
	checkLinesAllowUnknown(t, path, evs)
	var got []string
	for _, e := range evs {
		s := e.Kind
		if e.Text != nil {
			s += " " + e.Text.Str()
		}
		if e.Kind == agt.KindUnknown && !bytes.Contains(e.Raw, []byte("brand.new_type")) {
			t.Errorf("unknown event without its record: %s", e.Raw)
		}
		got = append(got, s)
	}
	want := "meta|error|unknown|error|assistant hello|error|user still here"
	if strings.Join(got, "|") != want {
		t.Errorf("events\n got  %s\n want %s", strings.Join(got, "|"), want)
	}
	if st.Errors != 3 || st.Unknown != 1 {
		t.Errorf("errors %d unknown %d", st.Errors, st.Unknown)
	}
}

func checkLinesAllowUnknown(t *testing.T, path string, evs []agt.Event) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, e := range evs {
		seen[e.Src.Line] = true
	}
	for i, line := range strings.Split(string(raw), "\n") {
		if strings.TrimSpace(line) != "" && !seen[int64(i+1)] {
			t.Errorf("line %d yields no event", i+1)
		}
	}
}

// TestProvisionalSession: in the live stream the session id comes on the
// last line; the events before it (errors included) go at once, in order,
// to a provisional session named after the first line, with their own src;
// the result line opens the named session with a session_named event that
// continues the provisional one (seq and parent links go on), and the
// result links to its call across it.
func TestProvisionalSession(t *testing.T) {
	first := ev(1, "user.message", `{"content":"hi"}`)
	path := write(t, "live.jsonl",
		first,
		`2026-01-01T00:00:01Z ERROR a line of stderr`,
		ev(2, "assistant.message", `{"messageId":"a","content":"","model":"m","toolRequests":[{"toolCallId":"c","name":"bash","arguments":{"command":"ls"}}]}`),
		ev(3, "tool.execution_complete", `{"toolCallId":"c","success":true,"result":{"content":"ok"}}`),
		`{"type":"result","timestamp":"2026-01-01T00:00:09.000Z","sessionId":"live-1","exitCode":0,"usage":{"premiumRequests":1}}`,
	)
	evs, _, _ := parse(t, path)
	checkLinesAllowUnknown(t, path, evs)
	prov := agt.ProvisionalSession([]byte(first))
	if len(evs) != 6 {
		t.Fatalf("%d events, want 6", len(evs))
	}
	for i, e := range evs {
		want, line := prov, int64(i+1)
		if i >= 4 {
			want, line = "live-1", 5
		}
		if e.NativeSession != want || e.Seq != int64(i) || e.Src.Line != line || (e.Kind == agt.KindError) != (i == 1) {
			t.Errorf("event %d: session %q seq %d line %d, want %q line %d", i, e.NativeSession, e.Seq, e.Src.Line, want, line)
		}
		if i > 0 && e.Parent != evs[i-1].ID {
			t.Errorf("event %d: parent %q, want %q", i, e.Parent, evs[i-1].ID)
		}
	}
	if tie := evs[4]; tie.Meta == nil || tie.Meta.Type != agt.MetaNamed || tie.Meta.Continues != prov || agt.Continued(&tie) != evs[0].Session || tie.TS != "2026-01-01T00:00:09.000Z" {
		t.Errorf("tie %+v", tie)
	}
	if evs[5].Meta == nil || evs[5].Meta.Type != "result" {
		t.Errorf("last %+v", evs[5])
	}
	if r := evs[3].Result; r == nil || r.Call != evs[2].ID {
		t.Errorf("result not linked to its call: %+v", r)
	}
	// without a result line the events stay in the provisional session
	path = write(t, "cut.jsonl", first, `{"type":"session.mcp_servers_loaded","ephemeral":true,"data":{"servers":[]},"id":"e2","timestamp":"2026-01-01T00:00:02.000Z"}`)
	evs, _, _ = parse(t, path)
	if len(evs) != 2 || evs[0].NativeSession != prov || evs[1].NativeSession != prov {
		t.Errorf("events %+v", evs)
	}
}

// TestTruncatedLegacy cuts a real legacy document in the middle of a
// record: the records before the cut are read and one error event names
// the cut record and keeps its text.
func TestTruncatedLegacy(t *testing.T) {
	full, err := os.ReadFile(providertest.Testdata(t, "copilot", "vibetracker__copilot-legacy-2025-10b.json"))
	if err != nil {
		t.Fatal(err)
	}
	whole, _, _ := parse(t, write(t, "doc.json", string(full)))
	cut := full[:len(full)*6/10]
	evs, _, st := parse(t, write(t, "doc.json", string(cut)))
	var errs []agt.Event
	records := 0
	for _, e := range evs {
		if e.Kind == agt.KindError {
			errs = append(errs, e)
			continue
		}
		records++
		if e.NativeSession != "0b2a81da-02cf-4cbb-ae14-07c597b84f4e" {
			t.Errorf("session %q", e.NativeSession)
		}
	}
	if len(errs) != 1 || st.Errors != 1 {
		t.Fatalf("%d error events, %d errors", len(errs), st.Errors)
	}
	e := errs[0]
	if !strings.HasPrefix(e.Src.Ptr, "/timeline/") || !strings.Contains(e.Error.Message, "ends early") || !strings.HasPrefix(e.Error.LineText, "{") {
		t.Errorf("error %+v at %v", e.Error, e.Src)
	}
	if records < 5 || records >= len(whole) {
		t.Errorf("%d events before the cut (whole document: %d)", records, len(whole))
	}
	// the events before the cut are those of the whole document
	for i := 0; i < records; i++ {
		if evs[i].ID != whole[i].ID || evs[i].Kind != whole[i].Kind {
			t.Fatalf("event %d differs from the whole document's", i)
		}
	}
}

// TestModel: events without a model of their own take the session's current
// model (session.start selectedModel, session.model_change,
// session.auto_mode_resolved); a sub-agent's model does not change it.
func TestModel(t *testing.T) {
	evs, _, _ := parse(t, write(t, "events.jsonl",
		ev(1, "session.start", `{"sessionId":"s","selectedModel":"m0"}`),
		ev(2, "assistant.message", `{"messageId":"a","content":"x"}`),
		ev(3, "session.model_change", `{"newModel":"m1"}`),
		ev(4, "assistant.message", `{"messageId":"b","content":"x"}`),
		ev(5, "subagent.completed", `{"toolCallId":"t","agentName":"explore","model":"m9"}`),
		ev(6, "assistant.message", `{"messageId":"c","content":"x"}`),
		ev(7, "session.auto_mode_resolved", `{"chosenModel":"m2"}`),
		ev(8, "assistant.message", `{"messageId":"d","content":"x","model":"m3"}`),
		ev(9, "assistant.reasoning", `{"reasoningId":"r","content":"hm"}`),
	))
	var got []string
	for _, e := range evs {
		if e.Kind == agt.KindAssistant || e.Kind == agt.KindReasoning {
			got = append(got, e.Model)
		}
	}
	if want := "m0 m1 m1 m3 m3"; strings.Join(got, " ") != want {
		t.Errorf("models %q, want %q", got, want)
	}
}

// TestLegacyOneLine: a legacy document on one line is read as a line, with
// the same events as the pretty-printed document, each with its pointer.
func TestLegacyOneLine(t *testing.T) {
	full, err := os.ReadFile(providertest.Testdata(t, "copilot", "vibetracker__copilot-legacy-2025-10b.json"))
	if err != nil {
		t.Fatal(err)
	}
	line := agt.Compact(full)
	if bytes.ContainsRune(line, '\n') {
		t.Fatal("not compacted")
	}
	pretty, _, _ := parse(t, write(t, "doc.json", string(full)))
	one, _, st := parse(t, write(t, "doc.json", string(line)))
	if len(one) != len(pretty) || st.Errors != 0 || st.Unknown != 0 {
		t.Fatalf("%d events (pretty %d), errors %d unknown %d", len(one), len(pretty), st.Errors, st.Unknown)
	}
	for i := range one {
		if one[i].Format != "copilot-legacy" || one[i].Src.Line != 1 || one[i].Src.Ptr != pretty[i].Src.Ptr || one[i].ID != pretty[i].ID {
			t.Fatalf("event %d: %+v vs %+v", i, one[i].Src, pretty[i].Src)
		}
	}
}
