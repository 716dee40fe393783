package gemini_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/gemini"
	"github.com/agt-project/agt/provider/providertest"
)

// parse runs the pipeline over files and returns its events, with the
// folder of the first file cut from src paths.
func parse(t *testing.T, files ...string) ([]agt.Event, []byte, provider.Stats) {
	t.Helper()
	out, _, st := providertest.Parse(t, provider.Config{}, files...)
	out = []byte(strings.ReplaceAll(string(out), filepath.Dir(files[0])+string(filepath.Separator), ""))
	return providertest.Events(t, out), out, st
}

// TestGolden parses real session logs and generated live outputs and
// compares the events with reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "gemini", false, "*.json", "*.jsonl", "live/*.json", "live/*.jsonl")
}

func TestSniff(t *testing.T) {
	doc := "{\n  \"sessionId\": \"s\",\n  \"projectHash\": \"h\",\n  \"messages\": [\n    {\"id\": \"1\", \"timestamp\": \"t\", \"type\": \"user\", \"content\": \"hi\"}\n  ]\n}\n"
	sortedDoc := "{\n  \"kind\": \"main\",\n  \"messages\": [\n    {\"id\": \"1\", \"timestamp\": \"t\", \"type\": \"user\", \"content\": \"hi\"}\n  ],\n  \"projectHash\": \"h\",\n  \"sessionId\": \"s\"\n}\n"
	cases := []struct {
		name, in, want string
		doc            bool
	}{
		{"session document", doc, gemini.FormatSession, true},
		{"session document, keys sorted, cut in messages", sortedDoc[:len(sortedDoc)-40], gemini.FormatSession, true},
		{"session document on one line", `{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","messages":[]}`, gemini.FormatSession, false},
		{"jsonl header", `{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","kind":"main"}`, gemini.FormatSession, false},
		{"jsonl message first", `{"id":"m","timestamp":"t","type":"gemini","content":"","tokens":{"input":1}}`, gemini.FormatSession, false},
		{"jsonl $set first", `{"$set":{"lastUpdated":"t"}}`, gemini.FormatSession, false},
		{"stream init", `{"type":"init","timestamp":"t","session_id":"s","model":"m"}`, gemini.FormatStreamJSON, false},
		{"stream message", `{"type":"message","timestamp":"t","role":"user","content":"hi"}`, gemini.FormatStreamJSON, false},
		{"json output", "{\n  \"session_id\": \"s\",\n  \"response\": \"done\",\n  \"stats\": {\"models\": {}}\n}\n", gemini.FormatJSON, true},
		{"json error on stderr", "{\n  \"session_id\": \"s\",\n  \"error\": {\"type\": \"Error\", \"message\": \"x\", \"code\": 400}\n}\n", gemini.FormatJSON, true},
		{"json output, old (no session id)", `{"response":"done","stats":{"models":{"m":{"tokens":{"prompt":1}}}}}`, gemini.FormatJSON, false},
		// other providers
		{"claude user", `{"type":"user","sessionId":"s","uuid":"u","timestamp":"t","message":{"role":"user","content":"hi"}}`, "", false},
		{"claude stream init", `{"type":"system","subtype":"init","session_id":"s","model":"m"}`, "", false},
		{"claude json", "{\n  \"type\": \"result\",\n  \"subtype\": \"success\",\n  \"session_id\": \"s\",\n  \"result\": \"x\"\n}\n", "", true},
		{"qwen parts", `{"uuid":"u","parentUuid":null,"sessionId":"s","timestamp":"t","type":"user","message":{"role":"user","parts":[{"text":"x"}]}}`, "", false},
		{"opencode run tool_use", `{"type":"tool_use","timestamp":1,"sessionID":"ses_1","part":{"callID":"c"}}`, "", false},
		{"copilot legacy", "{\n  \"sessionId\": \"s\",\n  \"startTime\": \"t\",\n  \"chatMessages\": [],\n  \"timeline\": []\n}\n", "", true},
		{"opencode export", "{\n  \"info\": {\"id\": \"ses_1\"},\n  \"messages\": [{\"info\": {\"id\": \"msg_1\", \"role\": \"user\"}, \"parts\": []}]\n}\n", "", true},
		{"pi header", `{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/"}`, "", false},
		{"json-rpc", `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}`, "", false},
	}
	for _, c := range cases {
		h := agt.Head{Lines: [][]byte{[]byte(c.in)}}
		if c.doc {
			h = agt.Head{Doc: []byte(c.in)}
		}
		if got := (gemini.Provider{}).Sniff(h); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func write(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func sumUsage(evs []agt.Event) (n int, u agt.Usage) {
	for _, ev := range evs {
		if ev.Kind == agt.KindUsage {
			n++
			u.Add(ev.Usage)
		}
	}
	return n, u
}

func kinds(evs []agt.Event) map[string]int {
	m := map[string]int{}
	for _, ev := range evs {
		m[ev.Kind]++
	}
	return m
}

// TestUsageArithmetic checks the conversion of each format's token counts.
func TestUsageArithmetic(t *testing.T) {
	cases := []struct {
		name, file, text string
		want             agt.Usage
	}{
		{"session tokens", "s.jsonl",
			`{"sessionId":"s","projectHash":"h"}
{"id":"m","timestamp":"2026-01-01T00:00:00Z","type":"gemini","content":"x","model":"g","tokens":{"input":1000,"output":50,"cached":600,"thoughts":30,"tool":7,"total":1087}}`,
			agt.Usage{Scope: agt.ScopeCall, Input: 407, CacheRead: 600, Output: 80, Reasoning: 30, Total: 1087, MessageID: "m"}},
		{"stream-json stats per model", "s.jsonl",
			`{"type":"init","timestamp":"2026-01-01T00:00:00Z","session_id":"s","model":"g"}
{"type":"result","timestamp":"2026-01-01T00:00:01Z","status":"success","stats":{"total_tokens":13680,"input_tokens":13500,"output_tokens":100,"cached":6000,"input":7500,"models":{"g":{"total_tokens":13680,"input_tokens":13500,"output_tokens":100,"cached":6000,"input":7500}}}}`,
			agt.Usage{Scope: agt.ScopeRun, Input: 7500, CacheRead: 6000, Output: 180, Reasoning: 80, Total: 13680}},
		{"stream-json stats without models", "s.jsonl",
			`{"type":"init","timestamp":"2026-01-01T00:00:00Z","session_id":"s","model":"g"}
{"type":"result","timestamp":"2026-01-01T00:00:01Z","status":"success","stats":{"total_tokens":300,"input_tokens":200,"output_tokens":100,"cached":50}}`,
			agt.Usage{Scope: agt.ScopeRun, Input: 150, CacheRead: 50, Output: 100, Total: 300}},
		{"json tokens", "o.json",
			"{\n  \"session_id\": \"s\",\n  \"response\": \"ok\",\n  \"stats\": {\"models\": {\"g\": {\"tokens\": {\"input\": 7500, \"prompt\": 13500, \"candidates\": 100, \"total\": 13680, \"cached\": 6000, \"thoughts\": 80, \"tool\": 0}}}}\n}\n",
			agt.Usage{Scope: agt.ScopeRun, Input: 7500, CacheRead: 6000, Output: 180, Reasoning: 80, Total: 13680}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, _, _ := parse(t, write(t, c.file, c.text))
			var got []agt.Usage
			for _, ev := range evs {
				if ev.Kind == agt.KindUsage {
					got = append(got, *ev.Usage)
				}
			}
			if len(got) != 1 || got[0] != c.want {
				t.Errorf("got %+v, want [%+v]", got, c.want)
			}
		})
	}
}

// TestSessionLogFold checks a JSONL log whose records are updated: a
// re-appended message counts once with its last tokens, tool calls and
// results are emitted once (the result when it arrives), a checkpoint adds
// only new messages (a new user turn there is context), a rewound message still counts, and a subagent chat
// has its own stream.
func TestSessionLogFold(t *testing.T) {
	log := `{"sessionId":"sub-1","projectHash":"h","startTime":"2026-01-01T00:00:00.000Z","lastUpdated":"2026-01-01T00:00:00.000Z","kind":"subagent"}
{"id":"u1","timestamp":"2026-01-01T00:00:01.000Z","type":"user","content":[{"text":"go"}]}
{"id":"g1","timestamp":"2026-01-01T00:00:02.000Z","type":"gemini","content":"","model":"m","thoughts":[{"subject":"Plan","description":"look","timestamp":"2026-01-01T00:00:02.000Z"}]}
{"id":"g1","timestamp":"2026-01-01T00:00:02.000Z","type":"gemini","content":"","model":"m","thoughts":[{"subject":"Plan","description":"look","timestamp":"2026-01-01T00:00:02.000Z"}],"tokens":{"input":100,"output":10,"cached":0,"thoughts":5,"tool":0,"total":115},"toolCalls":[{"id":"c1","name":"read_file","args":{"file_path":"a"},"status":"executing","timestamp":"2026-01-01T00:00:02.500Z"}]}
{"id":"g1","timestamp":"2026-01-01T00:00:02.000Z","type":"gemini","content":"","model":"m","thoughts":[{"subject":"Plan","description":"look","timestamp":"2026-01-01T00:00:02.000Z"}],"tokens":{"input":120,"output":10,"cached":20,"thoughts":5,"tool":0,"total":135},"toolCalls":[{"id":"c1","name":"read_file","args":{"file_path":"a"},"status":"error","timestamp":"2026-01-01T00:00:03.000Z","result":[{"functionResponse":{"id":"c1","name":"read_file","response":{"error":"no such file"}}}]}]}
{"id":"g1","timestamp":"2026-01-01T00:00:02.000Z","type":"gemini","content":"","model":"m","tokens":{"input":120,"output":10,"cached":20,"thoughts":5,"tool":0,"total":135}}
{"id":"g2","timestamp":"2026-01-01T00:00:04.000Z","type":"gemini","content":"abandoned","model":"m","tokens":{"input":200,"output":3,"cached":0,"thoughts":0,"tool":0,"total":203}}
{"$rewindTo":"g2"}
{"$set":{"messages":[{"id":"u1","timestamp":"2026-01-01T00:00:01.000Z","type":"user","content":[{"text":"go"}]},{"id":"s1","timestamp":"2026-01-01T00:00:05.000Z","type":"user","content":[{"text":"summary of the chat"}]}],"lastUpdated":"2026-01-01T00:00:05.000Z"}}
{"id":"g3","timestamp":"2026-01-01T00:00:06.000Z","type":"gemini","content":"done","model":"m","tokens":{"input":300,"output":4,"cached":0,"thoughts":0,"tool":0,"total":304}}
`
	evs, _, st := parse(t, write(t, "sub.jsonl", log))
	k := kinds(evs)
	want := map[string]int{"meta": 3, "system": 2, "user": 1, "reasoning": 1, "tool_call": 1, "tool_result": 1, "assistant": 2, "usage": 3}
	for kind, n := range want {
		if k[kind] != n {
			t.Errorf("%s events: got %d, want %d (%v)", kind, k[kind], n, k)
		}
	}
	if st.Errors != 0 || st.Unknown != 0 {
		t.Errorf("errors %d unknown %d", st.Errors, st.Unknown)
	}
	n, u := sumUsage(evs)
	if n != 3 || u.Total != 135+203+304 || u.CacheRead != 20 || u.Input != 100+200+300 {
		t.Errorf("usage: %d events, %+v", n, u)
	}
	var call string
	for _, ev := range evs {
		if ev.Stream != "subagent:sub-1" || ev.NativeSession != "sub-1" {
			t.Errorf("%s event in stream %q session %q", ev.Kind, ev.Stream, ev.NativeSession)
		}
		switch ev.Kind {
		case agt.KindToolCall:
			call = ev.ID
		case agt.KindToolResult:
			if ev.Result.Call != call || !ev.Result.IsError || string(ev.Result.Output) != `"no such file"` || ev.Src.Line != 5 {
				t.Errorf("result: %+v at %v", ev.Result, ev.Src)
			}
		case agt.KindUsage:
			if ev.Usage.MessageID == "g1" && ev.Src.Line != 6 {
				t.Errorf("g1 usage from line %d, want 6 (its last version)", ev.Src.Line)
			}
		case agt.KindSystem:
			// the checkpoint's new user turn (a summary) is context
			if ev.Src.Line == 9 && ev.Src.Ptr != "/$set/messages/1" {
				t.Errorf("checkpoint message at %v", ev.Src)
			}
		}
	}
}

// TestStreamDeltas checks that consecutive assistant chunks become one
// assistant event while every line keeps an event.
func TestStreamDeltas(t *testing.T) {
	text := `{"type":"init","timestamp":"2026-01-01T00:00:00.000Z","session_id":"s","model":"g"}
{"type":"message","timestamp":"2026-01-01T00:00:01.000Z","role":"user","content":"hi"}
{"type":"message","timestamp":"2026-01-01T00:00:02.000Z","role":"assistant","content":"Hel","delta":true}
{"type":"message","timestamp":"2026-01-01T00:00:02.100Z","role":"assistant","content":"lo, ","delta":true}
{"type":"message","timestamp":"2026-01-01T00:00:02.200Z","role":"assistant","content":"world","delta":true}
{"type":"tool_use","timestamp":"2026-01-01T00:00:03.000Z","tool_name":"ls","tool_id":"t1","parameters":{}}
{"type":"tool_result","timestamp":"2026-01-01T00:00:03.100Z","tool_id":"t1","status":"success","output":"a"}
{"type":"error","timestamp":"2026-01-01T00:00:03.200Z","severity":"warning","message":"loop detected"}
{"type":"message","timestamp":"2026-01-01T00:00:04.000Z","role":"assistant","content":"bye","delta":true}
`
	evs, _, _ := parse(t, write(t, "s.jsonl", text))
	var texts []string
	lines := map[int64]bool{}
	for _, ev := range evs {
		lines[ev.Src.Line] = true
		if ev.Kind == agt.KindAssistant {
			texts = append(texts, ev.Text.Str()+"@"+ev.TS)
		}
	}
	if strings.Join(texts, "|") != "Hello, world@2026-01-01T00:00:02.000Z|bye@2026-01-01T00:00:04.000Z" {
		t.Errorf("assistant texts %q", texts)
	}
	for i := int64(1); i <= 9; i++ {
		if !lines[i] {
			t.Errorf("line %d yields no event", i)
		}
	}
	if k := kinds(evs); k["meta"] != 3 || k["system"] != 1 {
		t.Errorf("kinds %v", k)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Src.Line < evs[i-1].Src.Line {
			t.Errorf("event %d (line %d) after line %d", i, evs[i].Src.Line, evs[i-1].Src.Line)
		}
	}
}

// TestTruncatedDocument cuts a real session document at many places: every
// cut yields the events of the complete messages and exactly one error.
func TestTruncatedDocument(t *testing.T) {
	full, err := os.ReadFile(providertest.Testdata(t, "gemini", "agtrace__session-2025-12-09T19-50-f0a689a6.json"))
	if err != nil {
		t.Fatal(err)
	}
	whole, _, _ := parse(t, providertest.Testdata(t, "gemini", "agtrace__session-2025-12-09T19-50-f0a689a6.json"))
	dir := t.TempDir()
	for cut := 200; cut < len(full)-2; cut += 1499 {
		path := filepath.Join(dir, "cut.json")
		if err := os.WriteFile(path, full[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		evs, _, st := parse(t, path)
		errs := 0
		for _, ev := range evs {
			if ev.Kind == agt.KindError {
				errs++
			}
		}
		if errs != 1 || st.Errors != 1 {
			t.Errorf("cut at %d: %d error events, %d errors", cut, errs, st.Errors)
		}
		if len(evs) < 2 {
			t.Errorf("cut at %d: %d events", cut, len(evs))
		}
		if cut > len(full)/2 && len(evs) < len(whole)/3 {
			t.Errorf("cut at %d: only %d of %d events", cut, len(evs), len(whole))
		}
	}
	// Cut in the middle of the messages: the messages before the cut are all there.
	cut := len(full) * 2 / 3
	path := filepath.Join(dir, "cut.json")
	if err := os.WriteFile(path, full[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	evs, _, _ := parse(t, path)
	var doc struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(full, &doc); err != nil {
		t.Fatal(err)
	}
	ptrs := map[string]bool{}
	for _, ev := range evs {
		ptrs[ev.Src.Ptr] = true
		if ev.NativeSession != "f0a689a6-b0ac-407f-afcc-4fafa9e14e8a" {
			t.Errorf("session %q", ev.NativeSession)
			break
		}
	}
	read := 0
	for i := range doc.Messages {
		if ptrs["/messages/"+itoa(i)] {
			read++
		}
	}
	if read < 2 || read == len(doc.Messages) {
		t.Errorf("read %d of %d messages from two thirds of the document", read, len(doc.Messages))
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// TestBadRecords checks records that cannot be read: a broken line is an
// error event and the rest goes on; a field of the wrong type keeps the
// record's other fields.
func TestBadRecords(t *testing.T) {
	log := `{"sessionId":"s","projectHash":"h"}
{"id":"u1","timestamp":"2026-01-01T00:00:01.000Z","type":"user","content":"hi"
{"id":"g1","timestamp":"2026-01-01T00:00:02.000Z","type":"gemini","content":"ok","model":"m","tokens":{"input":"many","output":1}}
{"id":"x1","timestamp":"2026-01-01T00:00:03.000Z","type":"novel","content":"?"}
{"unexpected":true}
`
	evs, _, st := parse(t, write(t, "bad.jsonl", log))
	k := kinds(evs)
	if k["error"] != 2 || k["assistant"] != 1 || k["unknown"] != 2 || st.Errors != 2 {
		t.Errorf("kinds %v, errors %d", k, st.Errors)
	}
	lines := map[int64]bool{}
	for _, ev := range evs {
		lines[ev.Src.Line] = true
	}
	for i := int64(1); i <= 5; i++ {
		if !lines[i] {
			t.Errorf("line %d yields no event", i)
		}
	}
}

// TestLiveCorpus reads every generated live output: detected format, every
// line accounted for, no unknown record, results linked to their calls, and
// usage that adds up to the tokens the CLI reports for the run.
func TestLiveCorpus(t *testing.T) {
	dir := providertest.CorpusDir(t)
	for _, format := range []string{gemini.FormatStreamJSON, gemini.FormatJSON} {
		files, _ := filepath.Glob(filepath.Join(dir, "live", format, "*"))
		if len(files) == 0 {
			t.Errorf("no %s files", format)
		}
		for _, f := range files {
			t.Run(format+"/"+filepath.Base(f), func(t *testing.T) {
				evs, _, st := parse(t, f)
				raw, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if st.Unknown != 0 || st.Errors != 0 {
					t.Errorf("unknown %d errors %d", st.Unknown, st.Errors)
				}
				calls := map[string]string{}
				lines := map[int64]bool{}
				for _, ev := range evs {
					if ev.Format != format {
						t.Fatalf("format %q", ev.Format)
					}
					lines[ev.Src.Line] = true
					if ev.Kind == agt.KindToolCall {
						calls[ev.Tool.ID] = ev.ID
					}
					if ev.Kind == agt.KindToolResult && (ev.Result.Call == "" || ev.Result.Call != calls[ev.Result.ID]) {
						t.Errorf("result %s not linked", ev.Result.ID)
					}
				}
				var want int64
				if format == gemini.FormatStreamJSON {
					for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
						if !lines[int64(i+1)] {
							t.Errorf("line %d yields no event", i+1)
						}
						var r struct {
							Type  string `json:"type"`
							Stats struct {
								Total int64 `json:"total_tokens"`
							} `json:"stats"`
						}
						_ = json.Unmarshal([]byte(line), &r)
						if r.Type == "result" {
							want += r.Stats.Total
						}
					}
				} else {
					var d struct {
						Stats struct {
							Models map[string]struct {
								Tokens struct {
									Total int64 `json:"total"`
								} `json:"tokens"`
							} `json:"models"`
						} `json:"stats"`
					}
					if err := json.Unmarshal(raw, &d); err != nil {
						t.Fatal(err)
					}
					for _, m := range d.Stats.Models {
						want += m.Tokens.Total
					}
				}
				_, u := sumUsage(evs)
				if u.Total != want || u.Total != u.Input+u.CacheRead+u.CacheWrite+u.Output {
					t.Errorf("usage %+v, want total %d", u, want)
				}
				t.Logf("%d events, %v, usage total %d", len(evs), kinds(evs), u.Total)
			})
		}
	}
}

// TestBadDocumentMessage checks a complete document with one unreadable
// message: an error event at that message's pointer, the others read.
func TestBadDocumentMessage(t *testing.T) {
	doc := `{
  "sessionId": "s",
  "projectHash": "h",
  "messages": [
    {"id": "u1", "timestamp": "2026-01-01T00:00:01.000Z", "type": "user", "content": "hi"},
    {"id": "g1", "timestamp": "2026-01-01T00:00:02.000Z", "type": "gemini", "content": tru},
    {"id": "g2", "timestamp": "2026-01-01T00:00:03.000Z", "type": "gemini", "content": "ok", "model": "m",
     "tokens": {"input": 10, "output": 2, "cached": 4, "thoughts": 1, "tool": 0, "total": 13}}
  ]
}
`
	evs, _, st := parse(t, write(t, "doc.json", doc))
	var got []string
	for _, ev := range evs {
		got = append(got, ev.Kind+ev.Src.Ptr)
	}
	want := "meta user/messages/0 error/messages/1 assistant/messages/2 usage/messages/2"
	if strings.Join(got, " ") != want || st.Errors != 1 {
		t.Errorf("got %q (%d errors), want %q", strings.Join(got, " "), st.Errors, want)
	}
}

// TestStrayBracket: a session document whose messages array holds a stray
// '}' (once read for ever, an empty element at a time) gives the messages
// before it and one error.
func TestStrayBracket(t *testing.T) {
	doc := `{"sessionId": "s",
"messages": [{"id": "u1", "timestamp": "2026-01-01T00:00:01.000Z", "type": "user", "content": "hi"}}]}
`
	done := make(chan struct{})
	var evs []agt.Event
	var st provider.Stats
	go func() {
		defer close(done)
		evs, _, st = parse(t, write(t, "doc.json", doc))
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the document is still being read after 10s")
	}
	var got []string
	for _, ev := range evs {
		got = append(got, ev.Kind+ev.Src.Ptr)
	}
	if want := "error meta user/messages/0"; strings.Join(got, " ") != want || st.Errors != 1 {
		t.Errorf("got %q (%d errors), want %q", strings.Join(got, " "), st.Errors, want)
	}
}

// TestMigratedPair reads a legacy document with the JSONL log its resumption
// wrote beside it: the repeated messages count once.
func TestMigratedPair(t *testing.T) {
	dir := t.TempDir()
	doc := `{
  "sessionId": "s1",
  "projectHash": "h",
  "messages": [
    {"id": "u1", "timestamp": "2026-01-01T00:00:01.000Z", "type": "user", "content": "hi"},
    {"id": "g1", "timestamp": "2026-01-01T00:00:02.000Z", "type": "gemini", "content": "hello", "model": "m",
     "tokens": {"input": 10, "output": 2, "cached": 0, "thoughts": 0, "tool": 0, "total": 12}}
  ]
}
`
	log := `{"sessionId":"s1","projectHash":"h","startTime":"2026-01-01T00:00:00.000Z","lastUpdated":"2026-01-01T00:00:02.000Z"}
{"id":"u1","timestamp":"2026-01-01T00:00:01.000Z","type":"user","content":"hi"}
{"id":"g1","timestamp":"2026-01-01T00:00:02.000Z","type":"gemini","content":"hello","model":"m","tokens":{"input":10,"output":2,"cached":0,"thoughts":0,"tool":0,"total":12}}
{"id":"u2","timestamp":"2026-01-02T00:00:01.000Z","type":"user","content":"again"}
{"id":"g2","timestamp":"2026-01-02T00:00:02.000Z","type":"gemini","content":"back","model":"m","tokens":{"input":20,"output":3,"cached":0,"thoughts":0,"tool":0,"total":23}}
`
	jsonPath := filepath.Join(dir, "session-2026-01-01T00-00-s1.json")
	for path, text := range map[string]string{jsonPath: doc, jsonPath + "l": log} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := (gemini.Provider{}).Owner(jsonPath + "l"); got != jsonPath {
		t.Fatalf("Owner = %q", got)
	}
	evs, _, _ := parse(t, jsonPath+"l", jsonPath)
	n, u := sumUsage(evs)
	k := kinds(evs)
	if n != 2 || u.Total != 35 || k["user"] != 2 || k["assistant"] != 2 {
		t.Errorf("%d usage events, total %d, kinds %v", n, u.Total, k)
	}
	if evs[0].Src.Path != filepath.Base(jsonPath) {
		t.Errorf("first event from %s, want the document", evs[0].Src.Path)
	}
}
