package claude_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
)

// TestSessionOutcomes reads the end signals of an on-disk session, in the
// record shapes Claude Code writes: the end of a turn (turn_duration, an
// end_turn stop reason), an API error message (isApiErrorMessage), an
// interrupt, and a retried API error (system api_error).
func TestSessionOutcomes(t *testing.T) {
	sid := "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"
	head := `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/w","sessionId":"` + sid + `","version":"2.1.20","timestamp":"2026-01-01T00:00:0`
	lines := []string{
		head + `1.000Z","type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`,
		head + `2.000Z","type":"assistant","uuid":"a1","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"hello"}],"stop_reason":"end_turn","usage":{"input_tokens":2,"output_tokens":3}}}`,
		head + `3.000Z","type":"system","subtype":"turn_duration","uuid":"s1","durationMs":1000,"isMeta":false}`,
		head + `4.000Z","type":"system","subtype":"api_error","level":"error","uuid":"s2","error":{"message":"overloaded"},"retryAttempt":1,"maxRetries":10}`,
		head + `5.000Z","type":"assistant","uuid":"a2","isApiErrorMessage":true,"error":"rate_limit","message":{"id":"m2","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"API Error: Rate limited"}],"stop_reason":"stop_sequence","usage":{"input_tokens":0,"output_tokens":0}}}`,
		head + `6.000Z","type":"user","uuid":"u2","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}`,
		head + `7.000Z","type":"assistant","uuid":"a3","requestId":"r3","message":{"id":"m3","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"stop_reason":"tool_use","usage":{"input_tokens":2,"output_tokens":3}}}`,
	}
	f := filepath.Join(t.TempDir(), sid+".jsonl")
	write(t, f, strings.Join(lines, "\n")+"\n")
	out := providertest.ParseClean(t, provider.Config{}, f)
	var got []string
	for _, ev := range providertest.Events(t, out) {
		if ev.Meta != nil && ev.Meta.Outcome != nil {
			got = append(got, ev.Kind+"="+ev.Meta.Outcome.Status+":"+ev.Meta.Outcome.Reason)
		}
	}
	want := []string{
		agt.KindAssistant + "=success:end_turn",
		agt.KindMeta + "=success:turn_duration",
		agt.KindSystem + "=error:overloaded",
		agt.KindAssistant + "=error:API Error: Rate limited",
		agt.KindSystem + "=interrupted:[Request interrupted by user]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("signals\n got  %q\n want %q", got, want)
	}
}

// TestResultAnswer reads `claude -p --output-format json` (one result
// record, the answer only in its result field): the answer is an
// assistant message; in stream-json, where assistant records carry the
// answer already, the result gives no second one.
func TestResultAnswer(t *testing.T) {
	result := `{"type":"result","subtype":"success","is_error":false,"duration_ms":293,"num_turns":1,"result":"Done: created hello.txt.","session_id":"bbf5e67c-0000-4000-8000-000000000001","total_cost_usd":0.01,"usage":{"input_tokens":5,"output_tokens":2}}`
	dir := t.TempDir()
	one := filepath.Join(dir, "one.json")
	write(t, one, result+"\n")
	var texts []string
	for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, one)) {
		if ev.Kind == agt.KindAssistant {
			texts = append(texts, ev.Text.Str())
		}
	}
	if len(texts) != 1 || texts[0] != "Done: created hello.txt." {
		t.Errorf("json result: assistant texts %q, want the answer once", texts)
	}
	stream := filepath.Join(dir, "stream.jsonl")
	write(t, stream, `{"type":"system","subtype":"init","session_id":"bbf5e67c-0000-4000-8000-000000000001","model":"claude-sonnet-4-5"}`+"\n"+
		`{"type":"assistant","session_id":"bbf5e67c-0000-4000-8000-000000000001","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Done: created hello.txt."}],"usage":{"input_tokens":5,"output_tokens":2}}}`+"\n"+
		result+"\n")
	texts = nil
	for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, stream)) {
		if ev.Kind == agt.KindAssistant {
			texts = append(texts, ev.Text.Str())
		}
	}
	if len(texts) != 1 {
		t.Errorf("stream-json: assistant texts %q, want the answer once", texts)
	}
}
