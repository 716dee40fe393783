package claude_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/claude"
	"github.com/agt-project/agt/provider/providertest"
)

// TestGolden parses real session logs and live outputs and compares the
// events with reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "claude", false, "*.jsonl", "live/*.jsonl", "live/*.json")
}

func TestSniff(t *testing.T) {
	cases := []struct {
		name, line, want string
	}{
		{"user record", `{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}`, claude.FormatSession},
		{"snapshot first", `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}`, claude.FormatSession},
		{"summary first", `{"type":"summary","summary":"x","leafUuid":"l"}`, claude.FormatSession},
		{"stream init", `{"type":"system","subtype":"init","session_id":"s","model":"m"}`, claude.FormatStreamJSON},
		{"json result", `{"type":"result","subtype":"success","session_id":"s"}`, claude.FormatJSON},
		{"qwen parts", `{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","parts":[{"text":"x"}]}}`, ""},
		{"json-rpc", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}`, ""},
		{"codex", `{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}`, ""},
	}
	for _, c := range cases {
		if got := (claude.Provider{}).Sniff(agt.Head{Lines: [][]byte{[]byte(c.line)}}); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestTentative: a lone result line is claude-json only when nothing
// follows, so a stream's head waits for its next line; other heads are
// final.
func TestTentative(t *testing.T) {
	const result = `{"type":"result","subtype":"success","session_id":"s"}`
	cases := []struct {
		name string
		h    agt.Head
		want bool
	}{
		{"result alone", providertest.Head(result), true},
		{"result and more", providertest.Head(result, `{"type":"system","subtype":"init","session_id":"s","model":"m"}`), false},
		{"stream init", providertest.Head(`{"type":"system","subtype":"init","session_id":"s","model":"m"}`), false},
		{"session record", providertest.Head(`{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}`), false},
		{"result document", agt.Head{Doc: []byte(result)}, false},
	}
	for _, c := range cases {
		if got := (claude.Provider{}).Tentative(c.h); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSubagentGroup reads a 2.1.x session folder: the subagent file is read
// with its session and gives the subagent, text and tool calls of one model
// call together, in its order, with its usage (the largest output); the
// session file's progress mirrors of its records give a meta event each. A
// subagent with no file of its own is given by its mirrors.
func TestSubagentGroup(t *testing.T) {
	dir := t.TempDir()
	sid := "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f"
	usage := func(out int) string {
		return `"usage":{"input_tokens":3,"output_tokens":` + strconv.Itoa(out) + `,"cache_read_input_tokens":100,"cache_creation_input_tokens":10}`
	}
	toolUse := `"message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"toolu_s","name":"Bash","input":{"command":"ls"}}],`
	mirror := func(agent, uuid, msg string) string {
		return `{"type":"progress","uuid":"p-` + uuid + `","sessionId":"` + sid + `","timestamp":"2026-01-01T00:00:02.000Z","data":{"type":"agent_progress","agentId":"` + agent + `","message":{"type":"assistant","uuid":"` + uuid + `","timestamp":"2026-01-01T00:00:02.000Z","requestId":"r1",` + msg + `}},"parentToolUseID":"toolu_task"}` + "\n"
	}
	main := `{"type":"user","uuid":"u1","sessionId":"` + sid + `","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"go"}}
` + mirror("abc", "s2", toolUse+usage(5)+`}`) + mirror("def", "d1", strings.Replace(toolUse, `"m1"`, `"m9"`, 1)+usage(4)+`}`)
	side := func(uuid, ts, msg string) string {
		return `{"type":"assistant","uuid":"` + uuid + `","isSidechain":true,"agentId":"abc","sessionId":"` + sid + `","timestamp":"2026-01-01T00:00:0` + ts + `.000Z","requestId":"r1",` + msg + "}\n"
	}
	sub := side("s1", "1", `"message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"working"}],`+usage(7)+`}`) +
		side("s2", "2", toolUse+usage(7)+`}`)
	write(t, filepath.Join(dir, sid+".jsonl"), main)
	write(t, filepath.Join(dir, sid, "subagents", "agent-abc.jsonl"), sub)
	if got := (claude.Provider{}).Owner(filepath.Join(dir, sid, "subagents", "agent-abc.jsonl")); got != filepath.Join(dir, sid+".jsonl") {
		t.Fatalf("Owner = %q", got)
	}
	out, _, _ := providertest.Parse(t, provider.Config{}, filepath.Join(dir, sid, "subagents", "agent-abc.jsonl"), filepath.Join(dir, sid+".jsonl"))
	evs := providertest.Events(t, out)
	var kinds []string
	var usages []*agt.Usage
	for _, ev := range evs {
		k := ev.Kind + "@" + ev.Stream + ":" + strconv.FormatInt(ev.Src.Line, 10)
		if ev.Meta != nil && ev.Meta.Subtype != "" {
			k = ev.Meta.Subtype + "@" + ev.Stream + ":" + strconv.FormatInt(ev.Src.Line, 10)
		}
		kinds = append(kinds, k)
		if ev.Usage != nil {
			usages = append(usages, ev.Usage)
		}
		if ev.Session != evs[0].Session {
			t.Errorf("event in another session: %+v", ev)
		}
	}
	want := "user@main:1 mirrored@main:2 tool_call@sidechain:def:3 usage@sidechain:def:3 " + // the session file
		"assistant@sidechain:abc:1 usage@sidechain:abc:1 tool_call@sidechain:abc:2" // the subagent's file: each call's usage at its first line
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("events\n got  %s\n want %s", got, want)
	}
	if len(usages) != 2 || usages[1].Output != 7 || usages[1].Total != 120 || usages[0].Output != 4 {
		t.Errorf("usage = %+v, want the mirrored call with output 4, the file's with output 7, total 120", usages)
	}
}

// TestSubagentFileLacksCall: a model call mirrored in the session file but
// missing from the subagent's own file (a copy cut short) still counts,
// with the usage of its mirror and the mirror's src.
func TestSubagentFileLacksCall(t *testing.T) {
	dir := t.TempDir()
	sid := "1b2c3d4e-5f60-4172-8182-3b4c5d6e7f80"
	call := func(msg string, out int) string {
		return `"message":{"id":"` + msg + `","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"toolu_` + msg + `","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":1,"output_tokens":` + strconv.Itoa(out) + `,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}`
	}
	mirror := func(uuid, msg string, out int) string {
		return `{"type":"progress","uuid":"p-` + uuid + `","sessionId":"` + sid + `","timestamp":"2026-01-01T00:00:02.000Z","data":{"type":"agent_progress","agentId":"abc","message":{"type":"assistant","uuid":"` + uuid + `","timestamp":"2026-01-01T00:00:02.000Z","requestId":"r-` + msg + `",` + call(msg, out) + `}}}` + "\n"
	}
	main := `{"type":"user","uuid":"u1","sessionId":"` + sid + `","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"go"}}
` + mirror("s1", "m1", 5) + mirror("s2", "m2", 6)
	sub := `{"type":"assistant","uuid":"s1","isSidechain":true,"agentId":"abc","sessionId":"` + sid + `","timestamp":"2026-01-01T00:00:02.000Z","requestId":"r-m1",` + call("m1", 5) + "}\n"
	write(t, filepath.Join(dir, sid+".jsonl"), main)
	write(t, filepath.Join(dir, sid, "subagents", "agent-abc.jsonl"), sub)
	out, _, _ := providertest.Parse(t, provider.Config{}, dir)
	var got []string
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind == agt.KindUsage {
			got = append(got, ev.Usage.MessageID+"="+strconv.FormatInt(ev.Usage.Output, 10)+"@"+filepath.Base(ev.Src.Path)+":"+strconv.FormatInt(ev.Src.Line, 10)+" "+ev.Stream)
		}
	}
	want := "m1=5@agent-abc.jsonl:1 sidechain:abc, m2=6@" + sid + ".jsonl:3 sidechain:abc"
	if g := strings.Join(got, ", "); g != want {
		t.Errorf("usage events\n got  %s\n want %s", g, want)
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLiveCorpus checks every live Claude output in the shared corpus.
func TestLiveCorpus(t *testing.T) {
	dir := providertest.CorpusDir(t)
	var files []string
	for _, p := range []string{"live/claude-stream-json/*.jsonl", "live/claude-stream-json/real/*.json", "live/claude-json/*.json"} {
		m, _ := filepath.Glob(filepath.Join(dir, p))
		files = append(files, m...)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, diag, st := providertest.Parse(t, provider.Config{}, f)
			if st.Errors > 0 {
				t.Errorf("errors: %s", diag)
			}
			evs := providertest.Events(t, out)
			calls := map[string]string{}
			lines := map[int64]bool{}
			var runTotal int64
			for _, ev := range evs {
				if ev.Provider != "claude" || ev.Kind == agt.KindUnknown {
					t.Errorf("event %+v", ev)
				}
				lines[ev.Src.Line] = true
				switch ev.Kind {
				case agt.KindToolCall:
					calls[ev.Tool.ID] = ev.ID
				case agt.KindToolResult:
					if id, ok := calls[ev.Result.ID]; ok && ev.Result.Call != id {
						t.Errorf("result %s not linked", ev.Result.ID)
					}
				case agt.KindUsage:
					// a call's usage is provisional until the result
					// line's run usage settles it
					if ev.Usage.Scope != agt.ScopeRun && (ev.Usage.Scope != agt.ScopeCall || !ev.Usage.Provisional) {
						t.Errorf("live usage with scope %q, provisional %v", ev.Usage.Scope, ev.Usage.Provisional)
					}
					runTotal += ev.Usage.Total
				}
			}
			if strings.HasSuffix(f, ".jsonl") {
				n := int64(strings.Count(readFile(t, f), "\n"))
				for i := int64(1); i <= n; i++ {
					if !lines[i] {
						t.Errorf("line %d yields no event", i)
					}
				}
			}
			t.Logf("events %d, run usage total %d", len(evs), runTotal)
		})
	}
}

func readFile(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestUsageAtOnce checks that a call's usage is emitted with its first
// line, not when another call begins in its stream, and that a later line
// of the call that raises its output (in its run of lines, or coming back
// after another call: interleaved ids) adds the difference, so that the
// call's events add up to its largest line.
func TestUsageAtOnce(t *testing.T) {
	sid := "5e6f7a8b-0c1d-4e2f-8a3b-4c5d6e7f8a9b"
	line := func(uuid, side, msg, req string, out int) string {
		return `{"type":"assistant","uuid":"` + uuid + `","isSidechain":` + side + `,"sessionId":"` + sid +
			`","timestamp":"2026-01-01T00:00:00.000Z","requestId":"` + req + `","message":{"id":"` + msg +
			`","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"t"}],"usage":{"input_tokens":2,"output_tokens":` +
			strconv.Itoa(out) + `,"cache_read_input_tokens":10,"cache_creation_input_tokens":0}}}` + "\n"
	}
	in := line("a1", "false", "m1", "r1", 5) + // line 1
		line("a2", "false", "m1", "r1", 9) + // line 2: m1 grows
		line("a3", "false", "m1", "r1", 4) + // line 3: smaller, ignored
		line("a4", "false", "m2", "r2", 3) + // line 4: m2 begins, m1 is final
		line("a5", "false", "m1", "r1", 12) + // line 5: m1 comes back, +3
		line("a6", "false", "m1", "r1", 1) // line 6: smaller, nothing
	f := filepath.Join(t.TempDir(), sid+".jsonl")
	write(t, f, in)
	out, _, _ := providertest.Parse(t, provider.Config{}, f)
	var got []string
	total := map[string]int64{}
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind != agt.KindUsage {
			got = append(got, ev.Kind+":"+strconv.Itoa(int(ev.Src.Line)))
			continue
		}
		got = append(got, "usage:"+ev.Usage.MessageID+"="+strconv.Itoa(int(ev.Usage.Output))+"@"+strconv.Itoa(int(ev.Src.Line)))
		total[ev.Usage.MessageID] += ev.Usage.Output
		if ev.Usage.Input != 2 && ev.Usage.Input != 0 {
			t.Errorf("usage %+v: input counted twice", ev.Usage)
		}
	}
	want := "assistant:1 usage:m1=5@1 assistant:2 usage:m1=4@2 assistant:3 assistant:4 usage:m2=3@4 assistant:5 usage:m1=3@5 assistant:6"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("events\n got  %s\n want %s", s, want)
	}
	if total["m1"] != 12 || total["m2"] != 3 {
		t.Errorf("output per call = %v, want m1 12, m2 3", total)
	}
}

// TestLineage: a session log's lineage is the uuid and timestamp of its
// head's first record that has a uuid (metadata records before it left
// out); a sidechain file and live output have none.
func TestLineage(t *testing.T) {
	snapshot := `{"type":"file-history-snapshot","messageId":"m1","snapshot":{},"isSnapshotUpdate":false}`
	user := `{"type":"user","uuid":"u1","sessionId":"s2","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hi"}}`
	side := `{"type":"user","uuid":"c1","sessionId":"s1","isSidechain":true,"agentId":"a1","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hi"}}`
	for _, c := range []struct {
		format string
		lines  []string
		want   string
	}{
		{claude.FormatSession, []string{snapshot, user}, "u1\x002026-01-15T10:00:00Z"},
		{claude.FormatSession, []string{snapshot}, ""},
		{claude.FormatSession, []string{side}, ""},
		{claude.FormatStreamJSON, []string{user}, ""},
	} {
		if got := (claude.Provider{}).Lineage(c.format, providertest.Head(c.lines...)); got != c.want {
			t.Errorf("%s %q: lineage %q, want %q", c.format, c.lines, got, c.want)
		}
	}
}

// TestInlineSidechainLink reads a 1.0.x session whose subagent runs inline
// (isSidechain records without agentId, the first one's text the Task
// call's prompt): the Task result names the sidechain's agent, so that the
// transcript links the subagent to the call that started it.
func TestInlineSidechainLink(t *testing.T) {
	sid := "5c0375b4-0000-4000-8000-000000000002"
	head := `{"userType":"external","cwd":"/w","sessionId":"` + sid + `","version":"1.0.51","timestamp":"2025-07-01T00:00:0`
	lines := []string{
		head + `1.000Z","parentUuid":null,"isSidechain":false,"type":"user","uuid":"u1","message":{"role":"user","content":"look at the files"}}`,
		head + `2.000Z","parentUuid":"u1","isSidechain":false,"type":"assistant","uuid":"a1","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4","content":[{"type":"tool_use","id":"toolu_task1","name":"Task","input":{"description":"files","prompt":"List the files in /w."}}],"usage":{"input_tokens":2,"output_tokens":3}}}`,
		head + `3.000Z","parentUuid":null,"isSidechain":true,"type":"user","uuid":"6340ddef-0000-4000-8000-000000000003","message":{"role":"user","content":"List the files in /w."}}`,
		head + `4.000Z","parentUuid":"6340ddef-0000-4000-8000-000000000003","isSidechain":true,"type":"assistant","uuid":"s2","requestId":"r2","message":{"id":"m2","role":"assistant","model":"claude-sonnet-4","content":[{"type":"text","text":"a.txt"}],"usage":{"input_tokens":2,"output_tokens":3}}}`,
		head + `5.000Z","parentUuid":"a1","isSidechain":false,"type":"user","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_task1","content":[{"type":"text","text":"a.txt"}]}]}}`,
	}
	f := filepath.Join(t.TempDir(), sid+".jsonl")
	write(t, f, strings.Join(lines, "\n")+"\n")
	var link string
	streams := map[string]bool{}
	for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, f)) {
		streams[ev.Stream] = true
		if ev.Kind == agt.KindToolResult && ev.Meta != nil {
			link = ev.Meta.Agent
		}
	}
	if !streams["sidechain:6340ddef"] || link != "6340ddef" {
		t.Errorf("streams %v, Task result names agent %q, want 6340ddef", streams, link)
	}
}
