package kiro_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/kiro"
	"github.com/agt-project/agt/provider/providertest"
)

const sample = "awsq__v2-basic_fs_tools-2.4.2.jsonl"

// TestGolden parses the real V2 session log and compares the events with
// the reviewed golden file.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "kiro", true, "*.jsonl", "kas/*/*.jsonl", "v1/*.json")
}

func TestSniff(t *testing.T) {
	const (
		prompt = `{"version":"v1","kind":"Prompt","data":{"message_id":"m1","content":[{"kind":"text","data":"hi"}],"meta":{"timestamp":1779905703}}}`
		clear  = `{"version":"v1","kind":"Clear"}`
		kas    = `{"id":"u1","timestamp":"2026-05-21T20:35:47.332Z","payload":{"type":"user","content":"hi","images":[],"documents":[]}}`
	)
	providertest.Sniff(t, kiro.Provider{}, []providertest.SniffCase{
		{"prompt", providertest.Head(prompt), kiro.FormatSession},
		{"unit kind", providertest.Head(clear, prompt), kiro.FormatSession},
		{"after noise", providertest.Head(`not json`, prompt), kiro.FormatSession},
		{"unknown kind", providertest.Head(`{"version":"v1","kind":"Teleport","data":{}}`), ""},
		{"no version", providertest.Head(`{"kind":"Prompt","data":{}}`), ""},
		{"opencode-like", providertest.Head(`{"version":"1.0","kind":"Prompt"}`), ""},
		{"document", agt.Head{Doc: []byte(prompt)}, ""},
		{"kas", providertest.Head(kas), kiro.FormatKAS},
		{"kas unknown payload", providertest.Head(`{"id":"x","timestamp":"2026-05-21T20:35:47.332Z","payload":{"type":"teleport"}}`), ""},
		{"codex envelope", providertest.Head(`{"timestamp":"2026-05-21T20:35:47.332Z","type":"response_item","payload":{"type":"message"}}`), ""},
		{"conversation document", agt.Head{Doc: []byte(`{"conversation_id":"c","history":[]}`)}, kiro.FormatConv},
		{"conversation on one line", providertest.Head(`{"conversation_id":"c","next_message":null,"history":[[{"content":{"Prompt":{"prompt":"hi"}}},{"Response":{"message_id":"m","content":"hello"}}]]}`), kiro.FormatConv},
		{"conversation without history", agt.Head{Doc: []byte(`{"conversation_id":"c"}`)}, ""},
		{"history not a list", agt.Head{Doc: []byte(`{"conversation_id":"c","history":{}}`)}, ""},
	})
	if p, f := provider.Detect(providertest.Head(prompt)); p == nil || p.Name() != "kiro" || f != kiro.FormatSession {
		t.Errorf("detected %v %q", p, f)
	}
}

// TestSession: the session is the file's name, the prompt's time is its
// epoch seconds, every result is linked to its call, the shell's exit
// status is its exit code, and no usage is made up.
func TestSession(t *testing.T) {
	path := providertest.Testdata(t, "kiro", sample)
	out, _, _ := providertest.Parse(t, provider.Config{}, path)
	var kinds []string
	exits := 0
	for _, ev := range providertest.Events(t, out) {
		kinds = append(kinds, ev.Kind)
		if ev.NativeSession != strings.TrimSuffix(sample, ".jsonl") {
			t.Errorf("event %d: session %q", ev.Seq, ev.NativeSession)
		}
		if ev.Kind == agt.KindUser && ev.TS != "2026-05-27T18:15:03.000Z" {
			t.Errorf("prompt at %q, want 2026-05-27T18:15:03.000Z", ev.TS)
		}
		if ev.Result != nil {
			if ev.Result.Call == "" || ev.Result.IsError {
				t.Errorf("result %s: call %q, error %v", ev.Result.ID, ev.Result.Call, ev.Result.IsError)
			}
			if ev.Result.ExitCode != nil {
				exits++
				if *ev.Result.ExitCode != 0 {
					t.Errorf("exit code %d, want 0", *ev.Result.ExitCode)
				}
			}
		}
		if ev.Tool != nil && ev.MessageID == "" {
			t.Errorf("tool call %s has no message id", ev.Tool.ID)
		}
	}
	want := "user" + strings.Repeat(" tool_call tool_result", 6) + " assistant"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("kinds %s, want %s", got, want)
	}
	if exits != 1 {
		t.Errorf("%d exit codes, want 1 (the shell's)", exits)
	}
}

// TestKAS: a KAS log's session is its folder, each result is linked to its
// call, run_command's exit code is read, and the errors the user saw are
// system events.
func TestKAS(t *testing.T) {
	dir := "sess_5e804080-466c-4f65-bde9-f6133b7068f6"
	path := providertest.Testdata(t, "kiro", "kas", dir, "messages.jsonl")
	out := providertest.ParseClean(t, provider.Config{}, path)
	count := map[string]int{}
	for _, ev := range providertest.Events(t, out) {
		count[ev.Kind]++
		if ev.NativeSession != dir || ev.Format != kiro.FormatKAS || ev.TS == "" {
			t.Errorf("event %d: session %q format %q ts %q", ev.Seq, ev.NativeSession, ev.Format, ev.TS)
		}
		if ev.Result != nil && ev.Result.Call == "" {
			t.Errorf("result %s not linked", ev.Result.ID)
		}
		if ev.Result != nil && ev.Result.ExitCode != nil {
			count["exit"]++
		}
	}
	want := map[string]int{"user": 1, "assistant": 5, "tool_call": 6, "tool_result": 6, "system": 4, "meta": 24, "exit": 1}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%d %s, want %d (all: %v)", count[k], k, n, count)
		}
	}
}

// TestConversation: a conversation of the legacy chat (real ones, saved by
// the CLI's authors) is one session named by its conversation_id; every
// history entry is accounted for by events pointing at it, every result is
// linked to its call (a cancelled call's result is an error), the shell's
// exit code is read and its output is what it printed, replies carry their
// message id and model, and no usage is made up.
func TestConversation(t *testing.T) {
	for _, name := range []string{"awsq__v1-basic_tool_use.json", "awsq__v1-with_cancelled_tool_uses.json", "awsq__v1-with_compaction_summary.json"} {
		t.Run(name, func(t *testing.T) {
			path := providertest.Testdata(t, "kiro", "v1", name)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				ID      string            `json:"conversation_id"`
				History []json.RawMessage `json:"history"`
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			errs := 0
			for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, path)) {
				seen[ev.Src.Ptr] = true
				if ev.NativeSession != doc.ID || ev.Format != kiro.FormatConv {
					t.Errorf("event %d: session %q format %q", ev.Seq, ev.NativeSession, ev.Format)
				}
				switch ev.Kind {
				case agt.KindUsage:
					t.Errorf("usage made up: %s", ev.Src.Ptr)
				case agt.KindToolResult:
					if ev.Result.Call == "" {
						t.Errorf("result %s not linked", ev.Result.ID)
					}
					if ev.Result.IsError {
						errs++
					}
					if ev.Result.ExitCode != nil && strings.Contains(string(ev.Result.Output), `"Json"`) {
						t.Errorf("result %s: a shell's output kept as blocks: %.80s", ev.Result.ID, ev.Result.Output)
					}
				case agt.KindSummary:
					if s := ev.Text.Str(); s == "" || strings.HasPrefix(s, "[") {
						t.Errorf("summary %.60q: not the text of latest_summary", s)
					}
				case agt.KindAssistant, agt.KindToolCall:
					if ev.MessageID == "" || ev.Model == "" || ev.TS == "" {
						t.Errorf("%s %s: message %q model %q ts %q", ev.Kind, ev.Src.Ptr, ev.MessageID, ev.Model, ev.TS)
					}
				}
			}
			for i := range doc.History {
				if p := "/history/" + strconv.Itoa(i); !seen[p] {
					t.Errorf("no event for %s", p)
				}
			}
			if want := map[string]int{"awsq__v1-with_cancelled_tool_uses.json": 1}[name]; errs != want {
				t.Errorf("%d error results, want %d", errs, want)
			}
		})
	}
}

// TestConversationMCP: a tool the document lists under an MCP server is
// that server's tool, canonical as mcp__<server>__<tool>; a built-in one
// keeps its row; --to kiro renders both back as they were.
func TestConversationMCP(t *testing.T) {
	doc := `{"conversation_id":"c1","history":[{"user":{"content":{"Prompt":{"prompt":"look it up"}},"timestamp":"2026-03-27T17:27:01.832941-07:00"},` +
		`"assistant":{"ToolUse":{"message_id":"m1","content":"","tool_uses":[{"id":"t1","name":"InternalSearch","orig_name":"InternalSearch","args":{"query":"acp"}},` +
		`{"id":"t2","name":"fs_read","orig_name":"fs_read","args":{"operations":[{"mode":"Line","path":"/w/a.go"}]}}]}},` +
		`"request_metadata":{"message_id":"m1","request_start_timestamp_ms":1774657621833,"stream_end_timestamp_ms":1774657625000,"model_id":"claude-sonnet-4.6"}}],` +
		`"tools":{"builder-mcp":[{"ToolSpecification":{"name":"InternalSearch"}}],"native___":[{"ToolSpecification":{"name":"fs_read"}}]}}`
	path := filepath.Join(t.TempDir(), "c1.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	evs := providertest.Events(t, providertest.ParseClean(t, provider.Config{}, path))
	want := map[string]string{"InternalSearch": "mcp__builder-mcp__InternalSearch", "fs_read": "Read"}
	n := 0
	for _, ev := range evs {
		if ev.Kind != agt.KindToolCall {
			continue
		}
		n++
		native := ev.Tool.NativeName
		(&provider.Normalizer{}).Event(&ev)
		if ev.Tool.Name != want[native] {
			t.Errorf("%s: %s, want %s", native, ev.Tool.Name, want[native])
		}
		(&provider.Normalizer{To: "kiro"}).Event(&ev)
		if ev.Tool.Name != native {
			t.Errorf("%s rendered for kiro as %s", native, ev.Tool.Name)
		}
	}
	if n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

// TestConversationPairs: the history entries of earlier versions are
// [user, assistant] pairs (a real conversation of Amazon Q Developer CLI
// has them), read as the objects are; an entry of neither shape is an
// error event at its place, and the run goes on.
func TestConversationPairs(t *testing.T) {
	doc := `{"conversation_id":"c2","history":[` +
		`[{"env_context":{"env_state":{"current_working_directory":"/w/app"}},"content":{"Prompt":{"prompt":"add an index"}},"images":null},` +
		`{"ToolUse":{"message_id":"m1","content":"Adding it.","tool_uses":[{"id":"t1","name":"fs_write","orig_name":"fs_write","args":{"command":"create","path":"/w/app/003.sql","file_text":"CREATE INDEX i ON t (c);"}}]}}],` +
		`[{"content":{"ToolUseResults":{"tool_use_results":[{"tool_use_id":"t1","content":[{"Text":""}],"status":"Success"}]}},"images":null},` +
		`{"Response":{"message_id":"m2","content":"Done."}}],` +
		`5]}`
	path := filepath.Join(t.TempDir(), "c2.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, st := providertest.Parse(t, provider.Config{}, path)
	var kinds []string
	for _, ev := range providertest.Events(t, out) {
		kinds = append(kinds, ev.Kind)
		if ev.Kind == agt.KindMeta && ev.Meta.Type == "conversation" && ev.Meta.Cwd != "/w/app" {
			t.Errorf("cwd %q", ev.Meta.Cwd)
		}
		if ev.Result != nil && ev.Result.Call == "" {
			t.Error("result not linked")
		}
	}
	if got, want := strings.Join(kinds, " "), "meta user assistant tool_call tool_result assistant error"; got != want || st.Errors != 1 {
		t.Errorf("kinds %s, want %s (errors %d)", got, want, st.Errors)
	}
}
