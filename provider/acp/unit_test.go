package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/acp"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// parse writes lines to a file and parses it with the acp provider forced.
func parse(t *testing.T, lines ...string) ([]agt.Event, provider.Stats) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "capture.jsonl")
	if err := os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, st := providertest.Parse(t, provider.Config{Config: stage.Config{Quiet: true}, Provider: "acp"}, f)
	evs := providertest.Events(t, out)
	seen := map[int64]bool{}
	for _, ev := range evs {
		seen[ev.Src.Line] = true
	}
	for i, l := range lines {
		if strings.TrimSpace(l) != "" && !seen[int64(i+1)] {
			t.Errorf("line %d yields no event", i+1)
		}
	}
	return evs, st
}

func kinds(evs []agt.Event) string {
	var k []string
	for _, ev := range evs {
		s := ev.Kind
		if ev.Meta != nil && ev.Kind == agt.KindMeta {
			s += ":" + ev.Meta.Subtype
		}
		k = append(k, s)
	}
	return strings.Join(k, " ")
}

func of(evs []agt.Event, kind string) []agt.Event {
	var out []agt.Event
	for _, ev := range evs {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

const (
	initRes  = `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{},"agentInfo":{"name":"%s","version":"1"}}}`
	newRes   = `{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`
	upd      = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":%s}}`
	promptOK = `{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"%s}}`
)

func u(update string) string { return strings.Replace(upd, "%s", update, 1) }
func initAs(name string) string {
	return strings.Replace(initRes, "%s", name, 1)
}
func prompt(extra string) string { return strings.Replace(promptOK, "%s", extra, 1) }

func TestSniff(t *testing.T) {
	cases := []struct {
		name, line string
		want       string
	}{
		{"initialize request", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`, "acp"},
		{"initialize result", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}`, "acp"},
		{"wrapped", `{"dir": "client->agent", "msg": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}}}`, "acp"},
		{"session/update", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk"}}}`, "acp"},
		{"session/new", `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`, "acp"},
		{"fs request", `{"jsonrpc":"2.0","id":0,"method":"fs/read_text_file","params":{"path":"/a","sessionId":"s"}}`, "acp"},
		{"mcp initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}`, ""},
		{"mcp result", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"x"}}}`, ""},
		{"other json-rpc", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","sessionId":"s"}}`, ""},
		{"no jsonrpc", `{"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan"}}}`, ""},
		{"unknown wrapper dir", `{"dir":"up","msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}}`, ""},
		{"pi rpc", `{"type":"response","command":"prompt","success":true}`, ""},
		{"not json", `hello`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := acp.Provider{}.Sniff(agt.Head{Lines: [][]byte{[]byte(c.line)}})
			if got != c.want {
				t.Errorf("Sniff = %q, want %q", got, c.want)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	cases := []struct {
		name  string
		agent string // agentInfo.name, "" for none
		res   string
		want  [6]int64 // input, cache_read, cache_write, output, reasoning, total
		n     int
	}{
		{"claude excludes cache", "@zed-industries/claude-agent-acp",
			`,"usage":{"inputTokens":5400,"outputTokens":190,"cachedReadTokens":4500,"cachedWriteTokens":500,"totalTokens":10590}`,
			[6]int64{5400, 4500, 500, 190, 0, 10590}, 1},
		{"copilot includes cache", "Copilot",
			`,"usage":{"inputTokens":7200,"outputTokens":120,"totalTokens":7320,"cachedReadTokens":3600,"cachedWriteTokens":0}`,
			[6]int64{3600, 3600, 0, 120, 0, 7320}, 1},
		{"unknown agent, total says included", "",
			`,"usage":{"inputTokens":1000,"outputTokens":10,"totalTokens":1010,"cachedReadTokens":600,"cachedWriteTokens":100}`,
			[6]int64{300, 600, 100, 10, 0, 1010}, 1},
		{"unknown agent, total says excluded", "",
			`,"usage":{"inputTokens":1000,"outputTokens":10,"totalTokens":1710,"cachedReadTokens":600,"cachedWriteTokens":100}`,
			[6]int64{1000, 600, 100, 10, 0, 1710}, 1},
		{"thought counted apart", "",
			`,"usage":{"inputTokens":100,"outputTokens":8,"thoughtTokens":3,"totalTokens":131,"cachedReadTokens":20}`,
			[6]int64{100, 20, 0, 11, 3, 131}, 1},
		{"thought inside output", "",
			`,"usage":{"inputTokens":100,"outputTokens":8,"thoughtTokens":3,"totalTokens":128,"cachedReadTokens":20}`,
			[6]int64{100, 20, 0, 8, 3, 128}, 1},
		{"everything inside input and output", "",
			`,"usage":{"inputTokens":13,"outputTokens":8,"thoughtTokens":3,"totalTokens":21,"cachedReadTokens":2,"cachedWriteTokens":1}`,
			[6]int64{10, 2, 1, 8, 3, 21}, 1},
		{"gemini quota per model", "gemini-cli",
			`,"_meta":{"quota":{"token_count":{"input_tokens":300,"output_tokens":30},"model_usage":[{"model":"a","token_count":{"input_tokens":100,"output_tokens":10}},{"model":"b","token_count":{"input_tokens":200,"output_tokens":20}}]}}`,
			[6]int64{300, 0, 0, 30, 0, 330}, 2},
		{"quota total without models", "gemini-cli",
			`,"_meta":{"quota":{"token_count":{"input_tokens":300,"output_tokens":30}}}`,
			[6]int64{300, 0, 0, 30, 0, 330}, 1},
		{"usage wins over quota", "",
			`,"usage":{"inputTokens":10,"outputTokens":5,"totalTokens":15},"_meta":{"quota":{"token_count":{"input_tokens":10,"output_tokens":5}}}`,
			[6]int64{10, 0, 0, 5, 0, 15}, 1},
		{"no usage", "gemini-cli", ``, [6]int64{}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var lines []string
			if c.agent != "" {
				lines = append(lines, initAs(c.agent))
			}
			lines = append(lines, newRes, prompt(c.res))
			evs, st := parse(t, lines...)
			if st.Errors != 0 || st.Unknown != 0 {
				t.Fatalf("errors %d unknown %d", st.Errors, st.Unknown)
			}
			us := of(evs, agt.KindUsage)
			if len(us) != c.n {
				t.Fatalf("%d usage events, want %d", len(us), c.n)
			}
			var sum agt.Usage
			for _, ev := range us {
				if ev.Usage.Scope != agt.ScopeRun {
					t.Errorf("scope %q", ev.Usage.Scope)
				}
				sum.Add(ev.Usage)
			}
			got := [6]int64{sum.Input, sum.CacheRead, sum.CacheWrite, sum.Output, sum.Reasoning, sum.Total}
			if got != c.want {
				t.Errorf("usage %v, want %v", got, c.want)
			}
		})
	}
}

// TestCost checks that the cumulative usage_update cost becomes per-turn
// differences, and that a cost no turn takes is emitted at the end.
func TestCost(t *testing.T) {
	cost := func(amount string) string {
		return u(`{"sessionUpdate":"usage_update","used":10,"size":200000,"cost":{"amount":` + amount + `,"currency":"USD"}}`)
	}
	usage := `,"usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}`
	evs, _ := parse(t,
		initAs("claude-agent-acp"), newRes,
		cost("0.25"), prompt(usage),
		cost("0.5"), cost("0.75"), prompt(usage),
		prompt(""), // a turn with no tokens and no new cost: nothing
		cost("1"),  // taken by no turn: emitted at the end
		u(`{"sessionUpdate":"usage_update","used":10,"size":200000,"cost":{"amount":3,"currency":"EUR"}}`),
	)
	var got []float64
	for _, ev := range of(evs, agt.KindUsage) {
		if ev.Usage.NativeCostUSD == nil {
			t.Fatalf("usage without cost: %+v", ev.Usage)
		}
		if ev.Usage.ContextWindow != 200000 {
			t.Errorf("context window %d", ev.Usage.ContextWindow)
		}
		got = append(got, *ev.Usage.NativeCostUSD)
	}
	want := []float64{0.25, 0.5, 0.25}
	if len(got) != len(want) {
		t.Fatalf("costs %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("costs %v, want %v", got, want)
		}
	}
}

// TestChunks checks the joining of message chunks into one event.
func TestChunks(t *testing.T) {
	chunk := func(kind, text string) string {
		return u(`{"sessionUpdate":"` + kind + `","content":{"type":"text","text":` + text + `}}`)
	}
	evs, st := parse(t,
		newRes,
		chunk("agent_thought_chunk", `""`),
		chunk("agent_thought_chunk", `"think \"hard\""`),
		chunk("agent_message_chunk", `"a\u00e9 "`),
		chunk("agent_message_chunk", `"b\nc"`),
		u(`{"sessionUpdate":"agent_message_chunk","messageId":"m2","content":{"type":"text","text":"new"}}`),
		u(`{"sessionUpdate":"agent_message_chunk","content":{"type":"image","mimeType":"image/png","data":"AAAA"}}`),
		chunk("agent_message_chunk", `""`),
		chunk("user_message_chunk", `"hi"`),
	)
	if st.Errors != 0 || st.Unknown != 0 {
		t.Fatalf("errors %d unknown %d", st.Errors, st.Unknown)
	}
	if k := kinds(evs); k != "meta:result meta:agent_thought_chunk reasoning meta:agent_message_chunk assistant assistant meta:agent_message_chunk meta:agent_message_chunk user" {
		t.Errorf("kinds %s", k)
	}
	var texts []string
	for _, ev := range evs {
		if len(ev.Text) > 0 {
			texts = append(texts, ev.Text.Str())
		}
	}
	if strings.Join(texts, "|") != "think \"hard\"|aé b\nc|new|hi" {
		t.Errorf("texts %q", texts)
	}
	// the joined event carries the src of its last chunk
	if r := of(evs, agt.KindReasoning)[0]; r.Src.Line != 3 {
		t.Errorf("reasoning at line %d, want 3", r.Src.Line)
	}
}

// TestTools checks tool call merging: Claude's placeholder input, a call
// first seen in a permission request, a call that never gets its input, a
// string input, and a reused toolCallId.
func TestTools(t *testing.T) {
	evs, st := parse(t,
		initAs("claude-agent-acp"), newRes,
		u(`{"sessionUpdate":"tool_call","toolCallId":"t1","status":"pending","rawInput":{},"title":"Terminal","kind":"execute","_meta":{"claudeCode":{"toolName":"Bash"}}}`),
		u(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","rawInput":{"command":"ls"}}`),
		u(`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"failed","rawOutput":"Exit code 2\nls: x"}`),
		`{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"ok","kind":"allow_once"}],"toolCall":{"toolCallId":"read_file__read_file_1_0","status":"pending","title":"a.txt","kind":"read","locations":[{"path":"/a.txt"}]}}}`,
		u(`{"sessionUpdate":"tool_call_update","toolCallId":"read_file__read_file_1_0","status":"completed","content":[{"type":"content","content":{"type":"text","text":"A"}}]}`),
		u(`{"sessionUpdate":"tool_call","toolCallId":"t2","status":"pending","rawInput":{},"kind":"edit"}`),
		u(`{"sessionUpdate":"tool_call","toolCallId":"t3","status":"in_progress","rawInput":"{\"a\": 1}"}`),
		u(`{"sessionUpdate":"tool_call_update","toolCallId":"t3","status":"completed"}`),
		u(`{"sessionUpdate":"tool_call","toolCallId":"t3","status":"in_progress","rawInput":"not json"}`),
	)
	if st.Errors != 0 || st.Unknown != 0 {
		t.Fatalf("errors %d unknown %d", st.Errors, st.Unknown)
	}
	calls := of(evs, agt.KindToolCall)
	var got []string
	for _, c := range calls {
		got = append(got, c.Tool.Name+" "+string(c.Tool.Input))
	}
	want := []string{
		`Bash {"command":"ls"}`,
		`read_file {"title":"a.txt","kind":"read","locations":[{"path":"/a.txt"}]}`,
		`other {"a":1}`,
		`other {"raw":"not json"}`,
		`edit {"kind":"edit"}`, // a placeholder never filled: emitted at the end
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	res := of(evs, agt.KindToolResult)
	if len(res) != 3 {
		t.Fatalf("%d results", len(res))
	}
	if r := res[0].Result; !r.IsError || r.ExitCode == nil || *r.ExitCode != 2 || r.Call != calls[0].ID {
		t.Errorf("first result %+v", r)
	}
	if r := res[1].Result; r.IsError || string(r.Output) != `[{"type":"content","content":{"type":"text","text":"A"}}]` || r.Call != calls[1].ID {
		t.Errorf("second result %+v", r)
	}
	ids := map[string]bool{}
	for _, ev := range evs {
		if ids[ev.ID] {
			t.Errorf("duplicate event id %s", ev.ID)
		}
		ids[ev.ID] = true
	}
}

// TestBadRecords checks that bad lines become error or unknown events and
// the stream goes on.
func TestBadRecords(t *testing.T) {
	evs, st := parse(t,
		newRes,
		`not json at all`,
		`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"`,
		`{"hello":"world"}`,
		u(`{"sessionUpdate":"brand_new_kind","x":1}`),
		`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","method":"_zed/custom","params":{"sessionId":"s1"}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":7}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}}}`,
	)
	if st.Errors != 2 {
		t.Errorf("errors %d, want 2 (two lines that are not JSON)", st.Errors)
	}
	if st.Unknown != 3 {
		t.Errorf("unknown %d, want 3 (not JSON-RPC, unknown update kind, unknown method)", st.Unknown)
	}
	want := "meta:result error error unknown unknown unknown meta:notification assistant meta:plan"
	if k := kinds(evs); k != want {
		t.Errorf("kinds\n%s\nwant\n%s", k, want)
	}
	for _, ev := range evs {
		if ev.Kind == agt.KindUnknown && len(ev.Raw) == 0 {
			t.Errorf("unknown event without raw at line %d", ev.Src.Line)
		}
		if ev.Kind == agt.KindAssistant && ev.Text.Str() != "7" {
			t.Errorf("text %s", ev.Text)
		}
	}
}

// TestProvider checks which provider the events carry.
func TestProvider(t *testing.T) {
	chunk := u(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}`)
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"gemini", []string{initAs("gemini-cli"), newRes, chunk}, "gemini"},
		{"claude", []string{initAs("@zed-industries/claude-agent-acp"), newRes, chunk}, "claude"},
		{"copilot", []string{initAs("Copilot"), newRes, chunk}, "copilot"},
		{"unknown agent", []string{initAs("some-agent"), newRes, chunk}, "acp"},
		{"no initialize", []string{chunk, newRes}, "acp"},
		{"initialize after the session", []string{chunk, initAs("gemini-cli")}, "acp"},
		{"wrapped, request first", []string{
			`{"dir":"client->agent","msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}}`,
			`{"dir":"agent->client","msg":` + initAs("gemini-cli") + `}`, chunk}, "gemini"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, _ := parse(t, c.lines...)
			sessions := map[string]bool{}
			for _, ev := range evs {
				if ev.Provider != c.want || ev.Format != "acp" {
					t.Errorf("line %d: %s/%s, want %s/acp", ev.Src.Line, ev.Provider, ev.Format, c.want)
				}
				sessions[ev.Session] = true
			}
			if len(sessions) != 1 {
				t.Errorf("%d sessions, want 1", len(sessions))
			}
		})
	}
}

// TestUnwrapped checks response matching in a two-way log without
// directions: ids of both sides collide, the latest request wins.
func TestUnwrapped(t *testing.T) {
	evs, st := parse(t,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		initAs("x"),
		`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"a"},{"type":"resource_link","uri":"file:///b","name":"b"},{"type":"text","text":"c"}]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/b"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"content":"B"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2}}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"boom"}}`,
	)
	if st.Errors != 0 || st.Unknown != 0 {
		t.Fatalf("errors %d unknown %d", st.Errors, st.Unknown)
	}
	var got []string
	for _, ev := range evs {
		if ev.Meta != nil {
			got = append(got, ev.Meta.Type+":"+ev.Meta.Subtype)
		} else {
			got = append(got, ev.Kind)
		}
	}
	want := "initialize:request initialize:result user session/prompt:attachments fs/read_text_file:request fs/read_text_file:result usage session/prompt:result response:error"
	if strings.Join(got, " ") != want {
		t.Errorf("events\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	if u := of(evs, agt.KindUser); len(u) != 1 || u[0].Text.Str() != "a\n\nc" {
		t.Errorf("user %+v", u)
	}
}
