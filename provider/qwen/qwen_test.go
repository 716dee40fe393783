package qwen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/provider/qwen"
	"github.com/agt-project/agt/stage"
)

// TestGolden parses a real chat record file and compares the events with a
// reviewed golden file.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "qwen", true, "*.jsonl")
}

func TestSniff(t *testing.T) {
	const (
		user         = `{"uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-06-15T14:40:22.832Z","type":"user","cwd":"/w","version":"0.18.1","message":{"role":"user","parts":[{"text":"hi"}]}}`
		system       = `{"uuid":"u2","parentUuid":"u1","sessionId":"s","timestamp":"2026-06-15T14:40:22.842Z","type":"system","subtype":"custom_title","systemPayload":{"customTitle":"t"}}`
		claude       = `{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}`
		claudeSystem = `{"type":"system","sessionId":"s","uuid":"u","subtype":"compact_boundary","content":"x"}`
	)
	providertest.Sniff(t, qwen.Provider{}, []providertest.SniffCase{
		{"user record", providertest.Head(user), qwen.FormatSession},
		{"system record first", providertest.Head(system, user), qwen.FormatSession},
		{"after a bad line", providertest.Head(`{"uuid":`, user), qwen.FormatSession},
		{"claude session", providertest.Head(claude), ""},
		{"claude system", providertest.Head(claudeSystem), ""},
		{"no session id", providertest.Head(`{"uuid":"u","type":"user","message":{"parts":[]}}`), ""},
		{"document", agt.Head{Doc: []byte(user)}, ""},
	})
}

// TestUsage checks the usage of the sample against the figures the agent
// wrote in its own usageMetadata: prompt 500 + 600 (50 of them cached),
// candidates 20 + 5, totals 520 + 605.
func TestUsage(t *testing.T) {
	f := providertest.Testdata(t, "qwen", "Piebald-AI__splitrail__qwen_code.jsonl")
	out, _, st := providertest.Parse(t, provider.Config{}, f)
	if st.Lines != 8 || st.Unknown != 0 || st.Errors != 0 {
		t.Fatalf("lines %d unknown %d errors %d", st.Lines, st.Unknown, st.Errors)
	}
	var sum agt.Usage
	n := 0
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind == agt.KindUsage {
			n++
			sum.Add(ev.Usage)
		}
	}
	if n != 2 || sum.Input != 1050 || sum.CacheRead != 50 || sum.Output != 25 || sum.Total != 1125 {
		t.Errorf("%d usage events, sum %+v", n, sum)
	}
}

// TestThoughtsAndSubagent: thought parts are reasoning, counted in output;
// a subagent's records go to its own stream; an unknown record type is an
// unknown event.
func TestThoughtsAndSubagent(t *testing.T) {
	lines := `{"uuid":"a","sessionId":"s","timestamp":"2026-06-15T14:40:22.832Z","type":"assistant","agentId":"explore-1","model":"qwen3-coder","message":{"role":"model","parts":[{"text":"hmm","thought":true},{"text":"ok"}]},"usageMetadata":{"promptTokenCount":100,"candidatesTokenCount":10,"thoughtsTokenCount":7,"cachedContentTokenCount":40,"totalTokenCount":117}}
{"uuid":"b","sessionId":"s","timestamp":"2026-06-15T14:40:23.000Z","type":"checkpoint"}
`
	f := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(f, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, st := providertest.Parse(t, provider.Config{Config: stage.Config{Quiet: true}}, f)
	if st.Unknown != 1 {
		t.Errorf("unknown %d, want 1", st.Unknown)
	}
	var kinds []string
	for _, ev := range providertest.Events(t, out) {
		kinds = append(kinds, ev.Kind)
		if ev.Kind == agt.KindUsage {
			u := ev.Usage
			if u.Input != 60 || u.CacheRead != 40 || u.Output != 17 || u.Reasoning != 7 || u.Total != 117 {
				t.Errorf("usage %+v", u)
			}
		}
		if ev.Kind == agt.KindAssistant && ev.Stream != "subagent:explore-1" {
			t.Errorf("stream %q", ev.Stream)
		}
	}
	want := []string{"meta", "reasoning", "assistant", "usage", "unknown"}
	if len(kinds) != len(want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("kinds %v, want %v", kinds, want)
		}
	}
}

// TestTelemetryOnlyCalls: every model response counts once. An
// api_response telemetry event is the same response as the assistant
// record after it (same figures) and counts for nothing then; a response
// Qwen records only as telemetry (a sub-agent's call, a call inside a
// tool) is a usage event of its own. Qwen's OpenAI-compatible backend
// counts thoughts inside candidatesTokenCount (its total is prompt +
// candidates): they are not added again.
func TestTelemetryOnlyCalls(t *testing.T) {
	tel := func(uuid, resp string, in, out, cached, thoughts, total int) string {
		return fmt.Sprintf(`{"uuid":"%s","sessionId":"s","timestamp":"2026-06-15T14:40:22.900Z","type":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_response","response_id":"%s","model":"qwen3-coder-plus","input_token_count":%d,"output_token_count":%d,"cached_content_token_count":%d,"thoughts_token_count":%d,"total_token_count":%d}}}`, uuid, resp, in, out, cached, thoughts, total)
	}
	lines := strings.Join([]string{
		`{"uuid":"u1","sessionId":"s","timestamp":"2026-06-15T14:40:22.800Z","type":"user","message":{"role":"user","parts":[{"text":"go"}]}}`,
		tel("t1", "r1", 1000, 50, 200, 30, 1050),
		`{"uuid":"a1","parentUuid":"t1","sessionId":"s","timestamp":"2026-06-15T14:40:22.910Z","type":"assistant","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"hmm","thought":true},{"functionCall":{"id":"c1","name":"task","args":{}}}]},"usageMetadata":{"promptTokenCount":1000,"candidatesTokenCount":50,"thoughtsTokenCount":30,"cachedContentTokenCount":200,"totalTokenCount":1050}}`,
		tel("t2", "r2", 400, 20, 0, 0, 420), // the sub-agent's call: no assistant record
		tel("t3", "r3", 500, 10, 0, 0, 510),
		`{"uuid":"r","sessionId":"s","timestamp":"2026-06-15T14:40:23.000Z","type":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"task","response":{"output":"done"}}}]},"toolCallResult":{"callId":"c1","status":"success"}}`,
		tel("t4", "r4", 1100, 5, 1000, 0, 1105),
		`{"uuid":"a2","parentUuid":"t4","sessionId":"s","timestamp":"2026-06-15T14:40:23.100Z","type":"assistant","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"Done."}]},"usageMetadata":{"promptTokenCount":1100,"candidatesTokenCount":5,"thoughtsTokenCount":0,"cachedContentTokenCount":1000,"totalTokenCount":1105}}`,
		tel("t5", "r5", 300, 3, 0, 0, 303), // the last response, cut before its record
	}, "\n") + "\n"
	f := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(f, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out := providertest.ParseClean(t, provider.Config{}, f)
	var calls int
	var total, output, reasoning int64
	lines2 := map[int64]bool{}
	for _, ev := range providertest.Events(t, out) {
		lines2[ev.Src.Line] = true
		if ev.Kind == agt.KindUsage {
			calls++
			total += ev.Usage.Total
			output += ev.Usage.Output
			reasoning += ev.Usage.Reasoning
		}
	}
	// the agent's own totals: 1050 + 420 + 510 + 1105 + 303
	if calls != 5 || total != 3388 || output != 88 || reasoning != 30 {
		t.Errorf("%d calls, total %d, output %d, reasoning %d; want 5, 3388, 88, 30", calls, total, output, reasoning)
	}
	for i := int64(1); i <= 9; i++ {
		if !lines2[i] {
			t.Errorf("line %d has no event", i)
		}
	}
}
