package cursor_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/cursor"
	"github.com/agt-project/agt/provider/providertest"
)

// TestGolden parses real captures of cursor-agent --output-format
// stream-json --stream-partial-output and compares the events with
// reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "cursor", true, "*.ndjson")
}

func TestSniff(t *testing.T) {
	const (
		init       = `{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/w","session_id":"s","model":"GPT-5","permissionMode":"default"}`
		user       = `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"session_id":"s"}`
		delta      = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"He"}]},"session_id":"s","timestamp_ms":1770787139442}`
		whole      = `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Hello"}]},"session_id":"s"}`
		result     = `{"type":"result","subtype":"success","duration_ms":4400,"duration_api_ms":4400,"is_error":false,"result":"Hello","session_id":"s","request_id":"r"}`
		claudeInit = `{"type":"system","subtype":"init","cwd":"/w","session_id":"s","tools":["Bash"],"model":"claude-sonnet-4-5","uuid":"u"}`
		claudeRes  = `{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"num_turns":1,"result":"x","session_id":"s","total_cost_usd":0.1}`
		tmsg       = `{"role":"user","message":{"content":[{"type":"text","text":"<user_query>hi</user_query>"}]}}`
		tend       = `{"type":"turn_ended","status":"success"}`
	)
	providertest.Sniff(t, cursor.Provider{}, []providertest.SniffCase{
		{"partial output", providertest.Head(init, user, delta), cursor.FormatStreamJSON},
		{"whole messages", providertest.Head(init, user, whole, result), cursor.FormatStreamJSON},
		{"json", providertest.Head(result), cursor.FormatJSON},
		{"init and user only", providertest.Head(init, user), cursor.FormatStreamJSON},
		{"user only", providertest.Head(user, whole), ""},
		{"claude init", providertest.Head(claudeInit, user), ""},
		{"claude json", providertest.Head(claudeRes), ""},
		{"transcript", providertest.Head(tmsg, tend), cursor.FormatTranscript},
		{"transcript with more members", providertest.Head(`{"role":"user","message":{"content":[]},"id":"x"}`), ""},
		{"document", agt.Head{Doc: []byte(result)}, ""},
	})
}

// TestDeltas: text deltas that no whole line follows become one assistant
// event before the next line of another kind; thinking deltas one reasoning
// event; a run's usage is a run-scope usage event.
func TestDeltas(t *testing.T) {
	lines := `{"type":"system","subtype":"init","cwd":"/w","session_id":"s","model":"GPT-5"}
{"type":"thinking","subtype":"delta","text":"let me ","session_id":"s","timestamp_ms":1770787139000}
{"type":"thinking","subtype":"delta","text":"see","session_id":"s","timestamp_ms":1770787139100}
{"type":"thinking","subtype":"completed","session_id":"s","timestamp_ms":1770787139200}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Run"}]},"session_id":"s","timestamp_ms":1770787139442}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"ning"}]},"session_id":"s","timestamp_ms":1770787139443}
{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"false"}}},"session_id":"s","timestamp_ms":1770787139500}
{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"false"},"result":{"success":{"exitCode":1,"stdout":"","stderr":"no\n"}}}},"session_id":"s","timestamp_ms":1770787139600}
{"type":"result","subtype":"success","is_error":false,"result":"Running","session_id":"s","request_id":"r","usage":{"inputTokens":10,"outputTokens":5,"cacheReadTokens":100,"cacheWriteTokens":7}}
`
	f := filepath.Join(t.TempDir(), "run.ndjson")
	if err := os.WriteFile(f, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	out := providertest.ParseClean(t, provider.Config{}, f)
	var got []string
	for _, ev := range providertest.Events(t, out) {
		switch ev.Kind {
		case agt.KindReasoning, agt.KindAssistant:
			got = append(got, ev.Kind+":"+ev.Text.Str())
		case agt.KindToolResult:
			if !ev.Result.IsError || ev.Result.ExitCode == nil || *ev.Result.ExitCode != 1 || ev.Result.Output.Str() != "no\n" || ev.Result.Call == "" {
				t.Errorf("result %+v", ev.Result)
			}
		case agt.KindUsage:
			u := ev.Usage
			if u.Scope != agt.ScopeRun || u.Input != 10 || u.CacheRead != 100 || u.CacheWrite != 7 || u.Output != 5 || u.Total != 122 {
				t.Errorf("usage %+v", u)
			}
		}
	}
	want := []string{"reasoning:let me see", "assistant:Running"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestTranscript reads the corpus's real agent transcript (not
// redistributable, so read in place): every line one event, none unknown.
func TestTranscript(t *testing.T) {
	f := filepath.Join(providertest.CorpusDir(t), "other", "cmtest-cursor__b8-b6fbd5f55f-0.jsonl")
	if _, err := os.Stat(f); err != nil {
		t.Skip(err)
	}
	out := providertest.ParseClean(t, provider.Config{}, f)
	n := map[string]int{}
	for _, ev := range providertest.Events(t, out) {
		if ev.Format != cursor.FormatTranscript {
			t.Fatalf("format %s", ev.Format)
		}
		n[ev.Kind]++
	}
	if n[agt.KindUser] != 5 || n[agt.KindAssistant] != 51 || len(n) != 2 {
		t.Errorf("kinds %v", n)
	}
}
