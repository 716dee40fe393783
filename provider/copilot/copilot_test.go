package copilot_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/copilot"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// parse runs the pipeline over one file and returns its events and output,
// with the file's folder cut from src paths.
func parse(t *testing.T, file string) ([]agt.Event, []byte, provider.Stats) {
	t.Helper()
	out, _, st := providertest.Parse(t, provider.Config{}, file)
	out = []byte(strings.ReplaceAll(string(out), filepath.Dir(file)+string(filepath.Separator), ""))
	return providertest.Events(t, out), out, st
}

// write puts lines into a file of a temporary folder.
func write(t *testing.T, name string, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestGolden parses real session logs, a legacy document and a generated
// live output, and compares the events with reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "copilot", true, "*.json", "*.jsonl", "live/*.jsonl", "vscode/*.json", "vscode/*.jsonl")
}

// head is what detection sees of a file, read as the pipeline reads it.
func head(t *testing.T, path string) agt.Head {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var h agt.Head
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() && len(h.Lines) < 5 {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if len(h.Lines) == 0 && (line[0] == '{' || line[0] == '[') && !agt.API.Valid(line) {
			return agt.Head{Doc: b}
		}
		h.Lines = append(h.Lines, append([]byte(nil), line...))
	}
	return h
}

// TestSniffCorpus: every corpus file of copilot is recognised with its
// format (the VS Code chat session among the other agents' files too), and
// no other file of the corpus is claimed.
func TestSniffCorpus(t *testing.T) {
	dir := providertest.CorpusDir(t)
	var files []string
	for _, pattern := range []string{"*/*", "live/*/*", "live/*/*/*"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		files = append(files, m...)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		if fi, err := os.Stat(f); err != nil || fi.IsDir() || strings.HasSuffix(f, ".tsv") || strings.HasSuffix(f, ".md") || filepath.Base(f) == "reference.json" {
			continue
		}
		got := copilot.Provider{}.Sniff(head(t, f))
		want := ""
		switch {
		case strings.HasPrefix(rel, "copilot/") && strings.HasSuffix(rel, ".json"):
			want = copilot.FormatLegacy
		case strings.HasPrefix(rel, "copilot/"):
			want = copilot.FormatSession
		case strings.HasPrefix(rel, "live/copilot-json/"):
			want = copilot.FormatJSON
		case rel == filepath.FromSlash("other/splitrail__vscode-copilot-chat-session.json"): // VS Code's Copilot Chat
			want = copilot.FormatVSCode
		}
		if got != want {
			t.Errorf("%s: sniffed %q, want %q", rel, got, want)
		}
	}
}

func TestSniff(t *testing.T) {
	legacy := "{\n  \"sessionId\": \"s\",\n  \"startTime\": \"2025-10-11T11:40:20.882Z\",\n  \"chatMessages\": [],\n  \"timeline\": [\n    {\"id\": \"1\", \"timestamp\": \"t\", \"type\": \"user\", \"text\": \"hi\"}\n  ]\n}\n"
	sorted := "{\n  \"chatMessages\": [],\n  \"sessionId\": \"s\",\n  \"startTime\": \"t\",\n  \"timeline\": []\n}\n"
	cases := []struct {
		name, in, want string
		doc            bool
	}{
		{"legacy document", legacy, copilot.FormatLegacy, true},
		{"legacy document cut short", legacy[:len(legacy)-30], copilot.FormatLegacy, true},
		{"legacy document, keys sorted", sorted, copilot.FormatLegacy, true},
		{"legacy document on one line", `{"sessionId":"s","startTime":"t","chatMessages":[],"timeline":[]}`, copilot.FormatLegacy, false},
		{"session start", `{"type":"session.start","data":{"sessionId":"s","version":1,"producer":"copilot-agent"},"id":"e1","timestamp":"2026-01-01T00:00:00.000Z","parentId":null}`, copilot.FormatSession, false},
		{"session resume", `{"type":"session.resume","data":{"resumeTime":"t","eventCount":3},"id":"e1","timestamp":"t","parentId":"e0"}`, copilot.FormatSession, false},
		{"events without start", `{"type":"user.message","data":{"content":"hi"},"id":"e1","timestamp":"t","parentId":"e0"}`, copilot.FormatSession, false},
		{"new dotted type", `{"type":"session.something_new","data":{},"id":"e1","timestamp":"t","parentId":"e0"}`, copilot.FormatSession, false},
		{"live stream", `{"type":"session.skills_loaded","ephemeral":true,"data":{"skills":[]},"id":"e1","timestamp":"t","parentId":"e0"}` + "\n" + `{"type":"user.message","data":{"content":"hi"},"id":"e2","timestamp":"t","parentId":"e1"}`, copilot.FormatJSON, false},
		{"live result alone", `{"type":"result","timestamp":"t","sessionId":"s","exitCode":1,"usage":{"premiumRequests":0}}`, copilot.FormatJSON, false},
		{"claude result", `{"type":"result","subtype":"success","session_id":"s","is_error":false,"result":"ok"}`, "", false},
		{"codex exec", `{"type":"thread.started","thread_id":"t"}` + "\n" + `{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"hi"}}`, "", false},
		{"gemini stream", `{"type":"init","timestamp":"t","session_id":"s","model":"m"}`, "", false},
		{"gemini document", "{\n  \"sessionId\": \"s\",\n  \"projectHash\": \"h\",\n  \"startTime\": \"t\",\n  \"messages\": []\n}\n", "", true},
		{"vscode chat", "{\n  \"version\": 3,\n  \"sessionId\": \"s\",\n  \"requests\": []\n}\n", copilot.FormatVSCode, true},
		{"vscode chat on one line", `{"version":3,"responderUsername":"GitHub Copilot","requests":[]}`, copilot.FormatVSCode, false},
		{"vscode chat log", `{"kind":0,"v":{"version":3,"sessionId":"s","requests":[]}}` + "\n" + `{"kind":1,"k":["customTitle"],"v":"t"}`, copilot.FormatVSCodeLog, false},
		{"versioned requests of another tool", `{"version":3,"requests":[]}`, "", false},
		{"a log line of another model", `{"kind":0,"v":{"items":[]}}`, "", false},
		{"dotted type without data", `{"type":"turn.completed","usage":{"input_tokens":1}}`, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var h agt.Head
			if c.doc {
				h.Doc = []byte(c.in)
			} else {
				for _, l := range strings.Split(c.in, "\n") {
					h.Lines = append(h.Lines, []byte(l))
				}
			}
			if got := (copilot.Provider{}).Sniff(h); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestTentative: session events that show neither session.start nor a sign
// of the live stream may be the live stream's beginning; a start, an
// ephemeral event, the result line or a legacy document settle it.
func TestTentative(t *testing.T) {
	const (
		user  = `{"type":"user.message","data":{"content":"hi"},"id":"e1","timestamp":"t","parentId":"e0"}`
		start = `{"type":"session.start","data":{"sessionId":"s","version":1,"producer":"copilot-agent"},"id":"e0","timestamp":"t","parentId":null}`
		eph   = `{"type":"session.skills_loaded","ephemeral":true,"data":{"skills":[]},"id":"e2","timestamp":"t","parentId":"e1"}`
	)
	cases := []struct {
		name string
		h    agt.Head
		want bool
	}{
		{"events without start", providertest.Head(user), true},
		{"session start", providertest.Head(start, user), false},
		{"ephemeral event next", providertest.Head(user, eph), false},
		{"legacy on one line", providertest.Head(`{"sessionId":"s","startTime":"t","chatMessages":[],"timeline":[]}`), false},
		{"no event", providertest.Head(`{"type":"init","timestamp":"t","session_id":"s","model":"m"}`), false},
	}
	for _, c := range cases {
		if got := (copilot.Provider{}).Tentative(c.h); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// checkLines checks that every non-blank line of path yields an event, that
// no event is unknown and that results are linked to their calls.
func checkLines(t *testing.T, path string, evs []agt.Event) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	calls := map[string]string{}
	for _, ev := range evs {
		seen[ev.Src.Line] = true
		if ev.Kind == agt.KindUnknown {
			t.Errorf("unknown event at %v", ev.Src)
		}
		if ev.Kind == agt.KindToolCall {
			calls[ev.Tool.ID] = ev.ID
		}
	}
	for i, line := range strings.Split(string(raw), "\n") {
		if strings.TrimSpace(line) != "" && !seen[int64(i+1)] {
			t.Errorf("line %d yields no event", i+1)
		}
	}
	for _, ev := range evs {
		if ev.Kind == agt.KindToolResult && (ev.Result.Call == "" || ev.Result.Call != calls[ev.Result.ID]) {
			t.Errorf("result %s at %v not linked (call %q)", ev.Result.ID, ev.Src, ev.Result.Call)
		}
	}
}

// TestLiveCorpus reads every live `copilot -p --output-format json` output
// of the corpus: every line accounted for, no unknown event, every result
// linked, the events before the result line in the provisional session
// named after the first line and the result line in the session it names,
// opened by the session_named event that ties the two, the result line
// last with its premium requests, and no usage (the stream has none).
func TestLiveCorpus(t *testing.T) {
	files := providertest.LiveFiles(t, "copilot-json", "*")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs, _, st := parse(t, f)
			if st.Errors != 0 {
				t.Errorf("%d errors", st.Errors)
			}
			checkLines(t, f, evs)
			last := evs[len(evs)-1]
			if last.Meta == nil || last.Meta.Type != "result" || !bytes.Contains(last.Meta.Data, []byte(`"premiumRequests":`)) {
				t.Errorf("last event is not the result: %+v", last)
			}
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := bytes.Cut(raw, []byte("\n"))
			prov := agt.ProvisionalSession(first)
			if tie := evs[len(evs)-2]; tie.Meta == nil || tie.Meta.Type != agt.MetaNamed || tie.Meta.Continues != prov || tie.NativeSession != last.NativeSession {
				t.Errorf("the event before the result is not the tie of %s: %+v", prov, tie)
			}
			for i, ev := range evs {
				want := prov
				if i >= len(evs)-2 {
					want = last.NativeSession
				}
				if ev.Format != copilot.FormatJSON || ev.NativeSession != want || ev.Seq != int64(i) {
					t.Fatalf("event %d: format %q session %q seq %d, want %q %q", i, ev.Format, ev.NativeSession, ev.Seq, copilot.FormatJSON, want)
				}
				if ev.Kind == agt.KindUsage {
					t.Errorf("usage event in a stream without usage: %+v", ev.Usage)
				}
			}
		})
	}
}

// TestCorpusUsageTime: every usage event of a session log has a time, also
// the run usage of a run that ended without a shutdown (at its last
// record), which had none.
func TestCorpusUsageTime(t *testing.T) {
	dir := providertest.CorpusDir(t)
	out, _, _ := providertest.Parse(t, provider.Config{Config: stage.Config{Quiet: true}}, filepath.Join(dir, "copilot"))
	n := 0
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind == agt.KindUsage && ev.Format == copilot.FormatSession {
			n++
			if ev.TS == "" {
				t.Errorf("%s:%d: usage without a time", ev.Src.Path, ev.Src.Line)
			}
		}
	}
	if n == 0 {
		t.Fatal("no usage event in the corpus's session logs")
	}
}

// vscodeSamples are the real VS Code chat sessions of testdata: a session
// document and the change logs of two sessions.
var vscodeSamples = []string{"gitai__copilot_session_simple.json", "gitai__copilot_session_simple.jsonl", "gitai__copilot_session_multiline.jsonl"}

// TestVSCode: a VS Code chat session (document or change log) is one
// session named by its sessionId; every request has events pointing at it
// (its prompt first), every model call of its tool-call rounds is an
// assistant message with its calls, each result is linked to its call and
// is the text of VS Code's prompt tree, the model has no vendor prefix,
// every line of a log is accounted for, and no usage is made up. The
// document and the log of the same session give the same conversation.
func TestVSCode(t *testing.T) {
	conv := map[string]string{}
	for _, name := range vscodeSamples {
		t.Run(name, func(t *testing.T) {
			path := providertest.Testdata(t, "copilot", "vscode", name)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := 0
			if strings.HasSuffix(name, ".jsonl") {
				lines = strings.Count(strings.TrimSpace(string(b)), "\n") + 1
			}
			seenLines := map[int64]bool{}
			var kinds []string
			for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, path)) {
				seenLines[ev.Src.Line] = true
				switch ev.Kind {
				case agt.KindUsage:
					t.Errorf("usage made up: %s", ev.Src.Ptr)
				case agt.KindToolResult:
					if ev.Result.Call == "" || len(ev.Result.Output) < 3 || strings.Contains(string(ev.Result.Output), `"node"`) {
						t.Errorf("result %s: call %q output %.80s", ev.Result.ID, ev.Result.Call, ev.Result.Output)
					}
				case agt.KindAssistant, agt.KindToolCall:
					if ev.MessageID == "" || ev.Model == "" || strings.HasPrefix(ev.Model, "copilot/") {
						t.Errorf("%s %s: message %q model %q", ev.Kind, ev.Src.Ptr, ev.MessageID, ev.Model)
					}
				}
				if ev.Kind != agt.KindMeta {
					kinds = append(kinds, ev.Kind)
					if !strings.HasPrefix(ev.Src.Ptr, "/requests/") {
						t.Errorf("%s at %q", ev.Kind, ev.Src.Ptr)
					}
				}
			}
			for l := 1; l <= lines; l++ {
				if !seenLines[int64(l)] {
					t.Errorf("line %d has no event", l)
				}
			}
			if len(kinds) == 0 || kinds[0] != agt.KindUser {
				t.Errorf("kinds %v", kinds)
			}
			conv[name] = strings.Join(kinds, " ")
		})
	}
	if conv[vscodeSamples[0]] != conv[vscodeSamples[1]] {
		t.Errorf("the document and the log of one session differ:\n%s\n%s", conv[vscodeSamples[0]], conv[vscodeSamples[1]])
	}
}

// TestVSCodeTools: the tools VS Code's model calls are canonical, and
// --to copilot renders them back as they were.
func TestVSCodeTools(t *testing.T) {
	want := map[string]string{"read_file": "Read", "replace_string_in_file": "Edit", "grep_search": "Grep", "insert_edit_into_file": "insert_edit_into_file"}
	seen := map[string]bool{}
	for _, name := range vscodeSamples {
		for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, providertest.Testdata(t, "copilot", "vscode", name))) {
			if ev.Kind != agt.KindToolCall {
				continue
			}
			native := ev.Tool.NativeName
			(&provider.Normalizer{}).Event(&ev)
			if ev.Tool.Name != want[native] {
				t.Errorf("%s: %s, want %s", native, ev.Tool.Name, want[native])
			}
			(&provider.Normalizer{To: "copilot"}).Event(&ev)
			if ev.Tool.Name != native {
				t.Errorf("%s rendered for copilot as %s", native, ev.Tool.Name)
			}
			seen[native] = true
		}
	}
	for n := range want {
		if !seen[n] {
			t.Errorf("no %s call in the samples", n)
		}
	}
}
