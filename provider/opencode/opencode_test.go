package opencode_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/opencode"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// TestGolden parses real exports and live outputs and compares the events
// with reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "opencode", true, "*.json", "live/*.jsonl")
}

// parse runs the pipeline over content written to a file of that name.
func parse(t *testing.T, name, content string) ([]agt.Event, provider.Stats) {
	t.Helper()
	return parseWith(t, provider.Config{}, name, content)
}

func parseWith(t *testing.T, cfg provider.Config, name, content string) ([]agt.Event, provider.Stats) {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, st := providertest.Parse(t, cfg, f)
	return providertest.Events(t, out), st
}

func kinds(evs []agt.Event) string {
	var k []string
	for _, ev := range evs {
		k = append(k, ev.Kind)
	}
	return strings.Join(k, " ")
}

func TestSniff(t *testing.T) {
	providertest.Sniff(t, opencode.Provider{}, []providertest.SniffCase{
		{"export document", agt.Head{Doc: []byte("{\n  \"info\": {\n    \"id\": \"ses_1\",\n    \"slug\": \"x\"")}, opencode.FormatExport},
		{"export document, id later", agt.Head{Doc: []byte(`{"info":{"slug":"x","time":{"created":1},"id":"ses_1"},"messages":[`)}, opencode.FormatExport},
		{"export on one line", providertest.Head(`{"info":{"id":"ses_1","slug":"x"},"messages":[]}`), opencode.FormatExport},
		{"export, other id", agt.Head{Doc: []byte(`{"info":{"id":"abc"},"messages":[]}`)}, ""},
		{"messages first", agt.Head{Doc: []byte(`{"messages":[],"info":{"id":"ses_1"}}`)}, ""},
		{"gemini document", agt.Head{Doc: []byte(`{"sessionId":"x","messages":[{"id":"1","type":"user"}]}`)}, ""},
		{"storage part file", agt.Head{Doc: []byte(`{"id":"prt_1","sessionID":"ses_1","messageID":"msg_1","type":"text","text":"hi"}`)}, ""},
		{"run step_start", providertest.Head(`{"type":"step_start","timestamp":1,"sessionID":"ses_1","part":{"id":"prt_1","type":"step-start"}}`), opencode.FormatRunJSON},
		{"run text", providertest.Head(`{"type":"text","timestamp":1,"sessionID":"ses_1","part":{"type":"text","text":"hi"}}`), opencode.FormatRunJSON},
		{"run tool_use", providertest.Head(`{"type":"tool_use","timestamp":1,"sessionID":"ses_1","part":{"type":"tool","tool":"bash"}}`), opencode.FormatRunJSON},
		{"run error", providertest.Head(`{"type":"error","timestamp":1,"sessionID":"ses_1","error":{"name":"APIError"}}`), opencode.FormatRunJSON},
		{"run after notice", providertest.Head("! permission requested: bash (ls); auto-rejecting", `{"type":"step_finish","timestamp":1,"sessionID":"ses_1","part":{"type":"step-finish"}}`), opencode.FormatRunJSON},
		{"run, part of other type", providertest.Head(`{"type":"text","sessionID":"ses_1","part":{"type":"tool"}}`), ""},
		{"run, no session", providertest.Head(`{"type":"text","part":{"type":"text","text":"hi"}}`), ""},
		{"pi text event", providertest.Head(`{"type":"text","sessionId":"x","text":"hi"}`), ""},
		{"claude", providertest.Head(`{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}`), ""},
		{"json-rpc", providertest.Head(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"ses_1"}}`), ""},
		{"sqlite", providertest.Head("SQLite format 3\x00\x10\x00"), ""},
	})
}

// TestSniffCorpus: every file of the corpus is claimed by this provider
// exactly when it is an OpenCode export or live output.
func TestSniffCorpus(t *testing.T) {
	dir := providertest.CorpusDir(t)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".tsv") || strings.HasSuffix(p, ".md") || filepath.Base(p) == "reference.json" {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		want := ""
		switch {
		case strings.HasPrefix(rel, "opencode/") && strings.HasSuffix(rel, ".json") && !strings.Contains(rel, "/storage/"):
			want = opencode.FormatExport
		case strings.HasPrefix(rel, "live/opencode-run-json/"):
			want = opencode.FormatRunJSON
		}
		if got := (opencode.Provider{}).Sniff(head(t, p)); got != want {
			t.Errorf("%s: sniffed %q, want %q", rel, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// head builds what the pipeline's detection sees of a file.
func head(t *testing.T, path string) agt.Head {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var h agt.Head
	for _, l := range bytes.Split(b, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		if len(h.Lines) == 0 && (l[0] == '{' || l[0] == '[') && !agt.API.Valid(l) {
			return agt.Head{Doc: agt.Compact(b)}
		}
		if h.Lines = append(h.Lines, l); len(h.Lines) == 5 {
			break
		}
	}
	return h
}

// TestLiveCorpus checks every `opencode run --format json` capture: every
// line accounted for, no unknown records, results linked, and one usage per
// step_finish adding up to the steps' tokens and costs.
func TestLiveCorpus(t *testing.T) {
	files := providertest.LiveFiles(t, "opencode-run-json", "*")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out, _, st := providertest.Parse(t, provider.Config{}, f)
			evs := providertest.Events(t, out)
			if st.Unknown != 0 || st.Errors != 0 {
				t.Errorf("unknown %d, errors %d", st.Unknown, st.Errors)
			}
			seen := map[int64]bool{}
			calls := map[string]string{}
			var got, want agt.Usage
			var gotCost, wantCost float64
			for _, ev := range evs {
				seen[ev.Src.Line] = true
				switch ev.Kind {
				case agt.KindToolCall:
					calls[ev.Tool.ID] = ev.ID
				case agt.KindToolResult:
					if ev.Result.Call == "" || calls[ev.Result.ID] != ev.Result.Call {
						t.Errorf("result %s not linked", ev.Result.ID)
					}
				case agt.KindUsage:
					got.Add(ev.Usage)
					if ev.Usage.NativeCostUSD != nil {
						gotCost += *ev.Usage.NativeCostUSD
					}
				}
			}
			for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
				if !seen[int64(i+1)] {
					t.Errorf("line %d yields no event", i+1)
				}
				var l struct {
					Type string `json:"type"`
					Part struct {
						Tokens struct {
							Input, Output, Reasoning int64
							Cache                    struct{ Read, Write int64 }
						} `json:"tokens"`
						Cost float64 `json:"cost"`
					} `json:"part"`
				}
				if err := agt.API.UnmarshalFromString(line, &l); err != nil || l.Type != "step_finish" {
					continue
				}
				tk := l.Part.Tokens
				want.Add(&agt.Usage{Input: tk.Input, CacheRead: tk.Cache.Read, CacheWrite: tk.Cache.Write,
					Output: tk.Output + tk.Reasoning, Reasoning: tk.Reasoning,
					Total: tk.Input + tk.Cache.Read + tk.Cache.Write + tk.Output + tk.Reasoning})
				wantCost += l.Part.Cost
			}
			got.NativeCostUSD = nil
			if got != want || gotCost != wantCost {
				t.Errorf("usage\n got  %+v $%v\n want %+v $%v", got, gotCost, want, wantCost)
			}
		})
	}
}

const usageDoc = `{"info":{"id":"ses_u","directory":"/w","title":"t","version":"1.18.0","time":{"created":1}},"messages":[` +
	`{"info":{"id":"msg_1","sessionID":"ses_u","role":"user","time":{"created":2},"agent":"build","model":{"providerID":"p","modelID":"m"}},"parts":[{"type":"text","text":"hi","id":"prt_1","sessionID":"ses_u","messageID":"msg_1"}]},` +
	`{"info":{"id":"msg_2","sessionID":"ses_u","role":"assistant","parentID":"msg_1","modelID":"m","providerID":"p","cost":%s,"tokens":%s,"time":{"created":3,"completed":4}%s},"parts":[` +
	`{"type":"step-finish","reason":"stop","cost":0.25,"tokens":{"input":1,"output":1,"reasoning":0,"cache":{"read":0,"write":0}},"id":"prt_2","sessionID":"ses_u","messageID":"msg_2"}]}]}`

// TestUsage checks the token arithmetic on assistant messages.
func TestUsage(t *testing.T) {
	cases := []struct {
		name, cost, tokens, extra string
		want                      *agt.Usage
		kinds                     string
	}{
		{
			name: "reasoning apart from output (current releases)", cost: "0.5",
			tokens: `{"total":1630,"input":100,"output":20,"reasoning":10,"cache":{"read":1500,"write":0}}`,
			want:   &agt.Usage{Scope: "call", Input: 100, CacheRead: 1500, Output: 30, Reasoning: 10, Total: 1630},
		},
		{
			name: "reasoning inside output (1.2.x: total has no room for it)", cost: "0.5",
			tokens: `{"total":1620,"input":100,"output":20,"reasoning":10,"cache":{"read":1500,"write":0}}`,
			want:   &agt.Usage{Scope: "call", Input: 100, CacheRead: 1500, Output: 20, Reasoning: 10, Total: 1620},
		},
		{
			name: "no total", cost: "0.5",
			tokens: `{"input":100,"output":20,"reasoning":10,"cache":{"read":1500,"write":7}}`,
			want:   &agt.Usage{Scope: "call", Input: 100, CacheRead: 1500, CacheWrite: 7, Output: 30, Reasoning: 10, Total: 1637},
		},
		{
			name: "cache write, no reasoning", cost: "0",
			tokens: `{"total":60,"input":5,"output":5,"reasoning":0,"cache":{"read":0,"write":50}}`,
			want:   &agt.Usage{Scope: "call", Input: 5, CacheWrite: 50, Output: 5, Total: 60},
		},
		{
			name: "aborted before any token", cost: "0", extra: `,"error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}`,
			tokens: `{"input":0,"output":0,"reasoning":0,"cache":{"read":0,"write":0}}`,
			kinds:  "meta meta user meta system",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, st := parse(t, "u.json", strings.Replace(strings.Replace(strings.Replace(usageDoc, "%s", c.cost, 1), "%s", c.tokens, 1), "%s", c.extra, 1))
			if st.Errors != 0 {
				t.Fatalf("errors: %d", st.Errors)
			}
			var us []*agt.Usage
			for _, ev := range evs {
				if ev.Kind == agt.KindUsage {
					us = append(us, ev.Usage)
					if ev.Model != "m" {
						t.Errorf("usage model %q", ev.Model)
					}
				}
			}
			if c.want == nil {
				if len(us) != 0 {
					t.Errorf("usage events: %+v", us)
				}
				if got := kinds(evs); got != c.kinds {
					t.Errorf("kinds %q, want %q", got, c.kinds)
				}
				return
			}
			if len(us) != 1 {
				t.Fatalf("%d usage events, want 1 (the step-finish part is not usage): %s", len(us), kinds(evs))
			}
			u := us[0]
			if u.NativeCostUSD == nil || *u.NativeCostUSD != atof(c.cost) || u.MessageID != "msg_2" {
				t.Errorf("cost %v, message %q", u.NativeCostUSD, u.MessageID)
			}
			u.NativeCostUSD, u.MessageID = nil, ""
			if *u != *c.want {
				t.Errorf("got  %+v\nwant %+v", *u, *c.want)
			}
		})
	}
}

func atof(s string) float64 {
	var f float64
	_ = agt.API.UnmarshalFromString(s, &f)
	return f
}

// TestTruncated: an export cut short yields the records that end before the
// cut and one error event, at the pointer where the document breaks off.
func TestTruncated(t *testing.T) {
	full, err := os.ReadFile(providertest.Testdata(t, "opencode", "pidev__30-80b1955cc9-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := parse(t, "whole.json", string(full))
	for _, cut := range []int{len(full) / 3, len(full) * 2 / 3, len(full) - 3} {
		evs, st := parse(t, "whole.json", string(full[:cut]))
		var errs []agt.Event
		for _, ev := range evs {
			if ev.Kind == agt.KindError {
				errs = append(errs, ev)
			}
		}
		if len(errs) != 1 || st.Errors != 1 {
			t.Fatalf("cut at %d: %d error events, %d errors", cut, len(errs), st.Errors)
		}
		e := errs[0]
		if !strings.HasPrefix(e.Error.Message, "truncated document") || (e.Src.Ptr == "") != (cut == len(full)-3) || evs[len(evs)-1].ID != e.ID {
			t.Errorf("cut at %d: error %q at %q", cut, e.Error.Message, e.Src.Ptr)
		}
		rest := evs[:len(evs)-1]
		if len(rest) < 2 || len(rest) > len(whole) || (len(rest) == len(whole)) != (cut == len(full)-3) {
			t.Fatalf("cut at %d: %d events of %d", cut, len(rest), len(whole))
		}
		// the records read give the events they give in the whole document
		// (but for seq and parent: an assistant message's usage, emitted
		// after its parts, comes earlier when its parts are cut short)
		byID := map[string][]byte{}
		for _, w := range whole {
			w.Src.Path, w.Seq, w.Parent = "", 0, ""
			byID[w.ID] = agt.Marshal(w)
		}
		for i, ev := range rest {
			ev.Src.Path, ev.Seq, ev.Parent = "", 0, ""
			if w, ok := byID[ev.ID]; !ok || !bytes.Equal(agt.Marshal(ev), w) {
				t.Fatalf("cut at %d: event %d (%s %s) is not one of the whole document's", cut, i, ev.Kind, ev.Src.Ptr)
			}
		}
		t.Logf("cut at %d: %d events, then %q at %s", cut, len(rest), e.Error.Message, e.Src.Ptr)
	}
	// a one-line document cut short is a line of its own
	line := string(agt.Compact(full))
	evs, st := parse(t, "line.json", line[:len(line)/2]+"\n")
	if st.Errors != 1 || len(evs) < 2 || evs[len(evs)-1].Kind != agt.KindError {
		t.Errorf("one-line document cut short: %d errors, %s", st.Errors, kinds(evs))
	}
}

// TestBadRecords: records of the wrong shape become error events; the rest
// of the document is read.
func TestBadRecords(t *testing.T) {
	doc := `{"info":{"id":"ses_b","time":{"created":1}},"messages":[` +
		`{"info":{"id":"msg_1","sessionID":"ses_b","role":"user","time":{"created":2}},"parts":[` +
		`{"type":"text","text":"hi","id":"prt_1"},` +
		`[1,2],` +
		`{"type":"tool","callID":7,"tool":"bash","state":{"status":"completed","input":"{\"command\":\"ls\"}","output":"x"},"id":"prt_3"},` +
		`{"type":"hologram","id":"prt_4"}]}]}`
	evs, st := parse(t, "bad.json", doc+"\n")
	if got, want := kinds(evs), "meta meta user error error tool_call tool_result unknown"; got != want {
		t.Errorf("kinds\n got  %s\n want %s", got, want)
	}
	if st.Errors != 2 || st.Unknown != 1 {
		t.Errorf("errors %d unknown %d", st.Errors, st.Unknown)
	}
	for _, ev := range evs {
		if ev.Kind == agt.KindToolCall && string(ev.Tool.Input) != `{"command":"ls"}` {
			t.Errorf("tool input given as a JSON string: %s", ev.Tool.Input)
		}
		if ev.Kind == agt.KindError && ev.Src.Ptr != "/messages/0/parts/1" && ev.Src.Ptr != "/messages/0/parts/2" {
			t.Errorf("error at %q", ev.Src.Ptr)
		}
	}
	for _, c := range []struct{ name, doc string }{
		{"not an object", `{"info":{"id":"ses_b"},"messages":{"x":1}}`},
		{"garbage after the document", `{"info":{"id":"ses_b"},"messages":[]} xyz`},
		{"not a session", `{"data":{"id":"x"}}`},
	} {
		// forced: the last one is not recognised as OpenCode's
		evs, st := parseWith(t, provider.Config{Provider: "opencode"}, "bad.json", c.doc+"\n")
		if st.Errors == 0 || evs[len(evs)-1].Kind != agt.KindError {
			t.Errorf("%s: %s", c.name, kinds(evs))
		}
	}
}

// TestToolIDs: call ids that repeat in a session (kimi restarts them with
// each message) are made unique, so that each result pairs with its call.
func TestToolIDs(t *testing.T) {
	evs, _ := parse(t, "t.json", `{"info":{"id":"ses_t"},"messages":[`+
		`{"info":{"id":"msg_1","sessionID":"ses_t","role":"assistant"},"parts":[{"type":"tool","callID":"functions.bash:0","tool":"bash","state":{"status":"completed","input":{},"output":"a","metadata":{"exit":0}},"id":"prt_1"}]},`+
		`{"info":{"id":"msg_2","sessionID":"ses_t","role":"assistant"},"parts":[{"type":"tool","callID":"functions.bash:0","tool":"bash","state":{"status":"completed","input":{},"output":"b","metadata":{"exit":2}},"id":"prt_2"},`+
		`{"type":"tool","callID":"c3","tool":"read","state":{"status":"error","input":{},"error":"no such file"},"id":"prt_3"},`+
		`{"type":"tool","callID":"c4","tool":"read","state":{"status":"running","input":{"filePath":"x"}},"id":"prt_4"}]}]}`+"\n")
	var got []string
	calls := map[string]string{}
	for _, ev := range evs {
		switch ev.Kind {
		case agt.KindToolCall:
			calls[ev.Tool.ID] = ev.ID
			got = append(got, "call "+ev.Tool.ID)
		case agt.KindToolResult:
			r := ev.Result
			if r.Call != calls[r.ID] {
				t.Errorf("result %s not linked", r.ID)
			}
			s := "result " + r.ID + " " + string(r.Output)
			if r.IsError {
				s += " error"
			}
			if r.ExitCode != nil {
				s += " exit " + string(agt.Marshal(*r.ExitCode))
			}
			got = append(got, s)
		}
	}
	want := []string{
		"call functions.bash:0", `result functions.bash:0 "a" exit 0`,
		"call functions.bash:0#2", `result functions.bash:0#2 "b" error exit 2`,
		"call c3", `result c3 "no such file" error`,
		"call c4",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSubagent: a child session keeps its own id and names its parent; the
// parent's task tool names the child.
func TestSubagent(t *testing.T) {
	dir := filepath.Join(providertest.CorpusDir(t), "opencode")
	parent, child := filepath.Join(dir, "dhcdash__0b-2da37a6826-2.json"), filepath.Join(dir, "dhcdash__0b-2da37a6826-0.json")
	out, _, _ := providertest.Parse(t, provider.Config{}, child)
	evs := providertest.Events(t, out)
	if m := evs[0].Meta; m == nil || m.Type != "session" || m.ParentSession != "ses_fd4e13d58ffetoIsfha64XDWNj" || evs[0].NativeSession != "ses_fd4c895f0ffe6gKgxHiEgiQCcd" {
		t.Errorf("child session event: %+v %+v", evs[0], evs[0].Meta)
	}
	out, _, _ = providertest.Parse(t, provider.Config{}, parent)
	found := false
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind == agt.KindMeta && ev.Meta.Type == "subagent" && strings.Contains(string(ev.Meta.Data), `"session":"ses_fd4c895f0ffe6gKgxHiEgiQCcd"`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no subagent event naming the child session")
	}
}

// TestStored reads the storage folder and the database derived from an
// export: each gives one session whose events are those of the export, with
// src naming the file or row of each record.
func TestStored(t *testing.T) {
	dir := filepath.Join(providertest.CorpusDir(t), "opencode")
	export := filepath.Join(dir, "bestcodes__bf-cfcff0517c-0.json")
	raw, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	out, _, _ := providertest.Parse(t, provider.Config{}, export)
	want := providertest.Events(t, out)

	storage := filepath.Join(dir, "derived__storage-bf-cfcff0517c")
	db := filepath.Join(dir, "derived__opencode-bf-cfcff0517c.db")
	cases := []struct {
		name string
		read func() ([]opencode.Stored, error)
		src  func(agt.Src) bool
	}{
		{"storage", func() ([]opencode.Stored, error) {
			s, errs := opencode.ReadStorage(storage)
			if len(errs) > 0 {
				return s, errs[0]
			}
			return s, nil
		}, func(s agt.Src) bool {
			return strings.HasPrefix(s.Path, storage+string(filepath.Separator)) && strings.HasSuffix(s.Path, ".json") && s.Ptr == ""
		}},
		{"database", func() ([]opencode.Stored, error) { return opencode.ReadDB(db) }, func(s agt.Src) bool {
			return s.Path == db && (strings.HasPrefix(s.Ptr, "/session/ses_") || strings.HasPrefix(s.Ptr, "/message/msg_") || strings.HasPrefix(s.Ptr, "/part/prt_"))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sessions, err := c.read()
			if err != nil {
				t.Fatal(err)
			}
			if len(sessions) != 1 || sessions[0].ID != "ses_00e640058ffeRdo8h1GxaXmmlc" {
				t.Fatalf("sessions: %d", len(sessions))
			}
			s := sessions[0]
			if bytes.ContainsAny(s.Doc, "\n") || !agt.API.Valid(s.Doc) {
				t.Fatalf("document is not one line of JSON")
			}
			// the derived corpus escapes non-ASCII text (\u2014) where the
			// export has it as it is: compare values, not bytes
			var got, exp map[string]any
			if agt.API.Unmarshal(s.Doc, &got) != nil || agt.API.Unmarshal(raw, &exp) != nil {
				t.Fatal("documents are not JSON")
			}
			if !reflect.DeepEqual(got["messages"], exp["messages"]) {
				t.Errorf("messages differ from the export's")
			}
			if c.name == "storage" && !reflect.DeepEqual(got["info"], exp["info"]) {
				t.Errorf("info differs from the export's")
			}
			in := append(s.Line(), '\n')
			if !opencode.IsDB(mustRead(t, db)) || opencode.StorageRoot(storage) == "" {
				t.Errorf("IsDB / StorageRoot do not recognise the corpus")
			}
			evs, st := parse(t, "stored.jsonl", string(in))
			if st.Errors != 0 || st.Unknown != 0 {
				t.Errorf("errors %d unknown %d", st.Errors, st.Unknown)
			}
			if len(evs) != len(want) {
				t.Fatalf("%d events, want %d", len(evs), len(want))
			}
			for i := range evs {
				if !c.src(evs[i].Src) {
					t.Fatalf("event %d src %+v", i, evs[i].Src)
				}
				g, w := evs[i], want[i]
				g.Src, w.Src = agt.Src{}, agt.Src{}
				if gb, wb := agt.Marshal(g), agt.Marshal(w); !sameJSON(gb, wb) {
					t.Fatalf("event %d\n got  %.600s\n want %.600s", i, gb, wb)
				}
			}
		})
	}
}

func sameJSON(a, b []byte) bool {
	var x, y any
	return agt.API.Unmarshal(a, &x) == nil && agt.API.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

func mustRead(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStoredBroken: a storage file that is not JSON is an error event at its
// path; the session's other records are read.
func TestStoredBroken(t *testing.T) {
	root := filepath.Join(t.TempDir(), "storage")
	files := map[string]string{
		"session/proj/ses_1.json":             `{"id":"ses_1","title":"t","time":{"created":1}}`,
		"message/ses_1/msg_1.json":            `{"id":"msg_1","sessionID":"ses_1","role":"user","time":{"created":2}}`,
		"part/msg_1/prt_1.json":               "{\n  \"id\": \"prt_1\",\n  \"type\": \"text\",\n  \"text\": \"hi\"\n}",
		"part/msg_1/prt_2.json":               `{"id":"prt_2","type":"te`,
		"part/msg_9/prt_9.json":               `{"id":"prt_9"}`,
		"message/ses_2/msg_5.json":            `{"id":"msg_5","sessionID":"ses_2","role":"user","time":{"created":2}}`,
		"session/proj/not-a-session-file.txt": `x`,
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sessions, errs := opencode.ReadStorage(filepath.Dir(root))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "msg_9") {
		t.Errorf("errors: %v", errs)
	}
	if len(sessions) != 2 || sessions[0].ID != "ses_1" || sessions[1].ID != "ses_2" {
		t.Fatalf("sessions: %+v", sessions)
	}
	evs, st := parse(t, "s.jsonl", string(sessions[0].Line())+"\n"+string(sessions[1].Line())+"\n")
	if got, want := kinds(evs), "meta meta user error meta"; got != want || st.Errors != 1 {
		t.Errorf("kinds %q, want %q (errors %d)", got, want, st.Errors)
	}
	for _, ev := range evs {
		if ev.Kind == agt.KindError && (filepath.Base(ev.Src.Path) != "prt_2.json" || !strings.Contains(ev.Error.LineText, `"te`)) {
			t.Errorf("error event: %+v %+v", ev.Src, ev.Error)
		}
	}
	if evs[len(evs)-1].NativeSession != "ses_2" {
		t.Errorf("session without a file: %q", evs[len(evs)-1].NativeSession)
	}
}

// TestOpenStored feeds the storage folder and the database to the pipeline
// as the input layer would: one input each, one session per line.
func TestOpenStored(t *testing.T) {
	dir := filepath.Join(providertest.CorpusDir(t), "opencode")
	export := filepath.Join(dir, "bestcodes__bf-cfcff0517c-0.json")
	out, _, _ := providertest.Parse(t, provider.Config{}, export)
	want := providertest.Events(t, out)
	if opencode.IsStored(export) || opencode.IsStored(dir) {
		t.Errorf("IsStored claims an export file or the corpus folder")
	}
	for _, p := range []string{filepath.Join(dir, "derived__storage-bf-cfcff0517c"), filepath.Join(dir, "derived__opencode-bf-cfcff0517c.db")} {
		if !opencode.IsStored(p) {
			t.Errorf("IsStored(%s) = false", filepath.Base(p))
		}
		var buf, diag bytes.Buffer
		in := stage.Input{Path: p, Open: func() (io.ReadCloser, error) { return opencode.OpenStored(p) }}
		st, err := provider.Parse(context.Background(), provider.Config{}, []stage.Input{in}, &buf, &diag)
		if err != nil || st.Errors != 0 || diag.Len() != 0 {
			t.Fatalf("%s: %v, %d errors: %s", filepath.Base(p), err, st.Errors, diag.String())
		}
		evs := providertest.Events(t, buf.Bytes())
		if len(evs) != len(want) {
			t.Fatalf("%s: %d events, want %d", filepath.Base(p), len(evs), len(want))
		}
		for i := range evs {
			if evs[i].ID != want[i].ID || evs[i].Format != opencode.FormatExport {
				t.Fatalf("%s: event %d differs", filepath.Base(p), i)
			}
		}
	}
}

// TestLiveLines: notices printed among the events, bad lines and new event
// types in the live output.
func TestLiveLines(t *testing.T) {
	evs, st := parse(t, "run.jsonl", `{"type":"step_start","timestamp":1795335680017,"sessionID":"ses_l","part":{"id":"prt_1","messageID":"msg_1","sessionID":"ses_l","type":"step-start"}}
! permission requested: bash (rm -rf x); auto-rejecting
{"type":"reasoning","timestamp":1795335680018,"sessionID":"ses_l","part":{"id":"prt_2","messageID":"msg_1","sessionID":"ses_l","type":"reasoning","text":"hmm","time":{"start":1795335680010}}}
{"type":"tool_use","timestamp":1795335680019,"sessionID":"ses_l","part":{"id":"prt_3","messageID":"msg_1","sessionID":"ses_l","type":"tool","tool":"bash","callID":"c1","state":{"status":"error","input":{"command":"rm -rf x"},"error":"The user rejected permission to use this specific tool call.","time":{"start":1,"end":2}}}}
{"type":"step_finish","timestamp":1795335680020,"sessionID":"ses_l","part":{"id":"prt_4","messageID":"msg_1","sessionID":"ses_l","type":"step-finish","reason":"tool-calls","tokens":{"total":1620,"input":100,"output":20,"reasoning":10,"cache":{"read":1500,"write":0}},"cost":0.001}}
{"type":"session_idle","timestamp":1795335680021,"sessionID":"ses_l"}
{"type":"text","timestamp":1795335680022,"sessionID":"ses_l","part":{"id":"prt_5","type":"te
`)
	if got, want := kinds(evs), "meta system reasoning tool_call tool_result usage unknown error"; got != want {
		t.Errorf("kinds\n got  %s\n want %s", got, want)
	}
	if st.Errors != 1 || st.Unknown != 1 {
		t.Errorf("errors %d unknown %d", st.Errors, st.Unknown)
	}
	for _, ev := range evs {
		switch {
		case ev.Kind == agt.KindUsage && (ev.Usage.Output != 20 || ev.Usage.Total != 1620 || ev.Usage.MessageID != "msg_1" || *ev.Usage.NativeCostUSD != 0.001):
			t.Errorf("usage %+v", ev.Usage)
		case ev.Kind == agt.KindToolResult && !ev.Result.IsError:
			t.Errorf("rejected tool call is no error")
		case ev.Kind != agt.KindError && ev.NativeSession != "ses_l":
			t.Errorf("%s event in session %q", ev.Kind, ev.NativeSession)
		}
	}
}

// TestStoredChunks: a stored session larger than the chunk size is handed
// on as several documents of whole messages, the first with the session's
// info; read in a row they give the events of the one document, so that a
// session of any size is read with bounded memory and under --max-line.
func TestStoredChunks(t *testing.T) {
	dir := filepath.Join(providertest.CorpusDir(t), "opencode")
	db := filepath.Join(dir, "derived__opencode-bf-cfcff0517c.db")
	storage := filepath.Join(dir, "derived__storage-bf-cfcff0517c")
	whole, err := opencode.ReadDB(db)
	if err != nil || len(whole) != 1 {
		t.Fatalf("ReadDB: %d sessions, %v", len(whole), err)
	}
	want, _ := parse(t, "whole.jsonl", string(whole[0].Line())+"\n")

	const chunk = 16 << 10
	defer opencode.SetChunkBytes(chunk)()
	read := map[string]func() ([]opencode.Stored, error){
		"database": func() ([]opencode.Stored, error) { return opencode.ReadDB(db) },
		"storage": func() ([]opencode.Stored, error) {
			s, errs := opencode.ReadStorage(storage)
			return s, errors.Join(errs...)
		},
	}
	for name, r := range read {
		t.Run(name, func(t *testing.T) {
			parts, err := r()
			if err != nil {
				t.Fatal(err)
			}
			if len(parts) < 5 {
				t.Fatalf("%d documents for a %d-byte session, want one per %d bytes", len(parts), len(whole[0].Doc), chunk)
			}
			var in strings.Builder
			for i, p := range parts {
				if p.ID != whole[0].ID {
					t.Errorf("document %d: session %q", i, p.ID)
				}
				if hasInfo := bytes.HasPrefix(p.Doc, []byte(`{"info":`)); hasInfo != (i == 0) {
					t.Errorf("document %d: info %v", i, hasInfo)
				}
				in.Write(p.Line())
				in.WriteByte('\n')
			}
			got, st := parse(t, "chunks.jsonl", in.String())
			if st.Errors != 0 || st.Unknown != 0 || len(got) != len(want) {
				t.Fatalf("%d events (errors %d, unknown %d), want %d", len(got), st.Errors, st.Unknown, len(want))
			}
			for i := range got {
				g, w := got[i], want[i]
				g.Src, w.Src = agt.Src{}, agt.Src{}
				if name == "database" {
					g.Src, w.Src = got[i].Src, want[i].Src
				}
				if gb, wb := agt.Marshal(g), agt.Marshal(w); !sameJSON(gb, wb) {
					t.Fatalf("event %d\n got  %.600s\n want %.600s", i, gb, wb)
				}
			}
		})
	}
}
