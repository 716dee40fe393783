package cline_test

import (
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/cline"
	"github.com/agt-project/agt/provider/providertest"
)

// TestGolden parses a real Cline session (its messages file and its
// manifest, from Cline's own repository) and compares the events with
// reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "cline", true, "*.json", "tasks/*/tasks/*")
}

func TestSniff(t *testing.T) {
	const (
		msgs     = `{"version":1,"updated_at":"2026-07-15T05:42:04.818Z","agent":"lead","sessionId":"1784094124598_rruoq","messages":[{"id":"m1","role":"user","content":[{"type":"text","text":"hi"}],"ts":1783376868634}]}`
		empty    = `{"version":1,"agent":"lead","sessionId":"s","messages":[]}`
		manifest = `{"version":1,"session_id":"1784094124598_rruoq","source":"cli","pid":1,"started_at":"2026-07-15T05:42:04.609Z","status":"completed"}`
		gemini   = `{"sessionId":"s","projectHash":"h","startTime":"2026-01-01T00:00:00Z","messages":[{"id":"m","timestamp":"2026-01-01T00:00:00Z","type":"user","content":"hi"}]}`
		noVer    = `{"agent":"lead","sessionId":"s","messages":[{"role":"user","content":"hi"}]}`
		otherMsg = `{"version":1,"agent":"lead","sessionId":"s","messages":[{"type":"user","content":"hi"}]}`
	)
	providertest.Sniff(t, cline.Provider{}, []providertest.SniffCase{
		{"messages document", agt.Head{Doc: []byte(msgs)}, cline.FormatSession},
		{"messages on one line", providertest.Head(msgs), cline.FormatSession},
		{"no messages yet", agt.Head{Doc: []byte(empty)}, cline.FormatSession},
		{"manifest", agt.Head{Doc: []byte(manifest)}, cline.FormatSession},
		{"gemini session", agt.Head{Doc: []byte(gemini)}, ""},
		{"no version", agt.Head{Doc: []byte(noVer)}, ""},
		{"messages without role", agt.Head{Doc: []byte(otherMsg)}, ""},
		{"compaction sidecar", agt.Head{Doc: []byte(`{"version":1,"updated_at":"2026-07-16T23:40:16.179Z","source_message_count":3,"messages":[{"role":"user","content":"x"}]}`)}, ""},
		{"array", agt.Head{Doc: []byte(`[{"role":"user","content":"hi"}]`)}, ""},
		{"claude line", providertest.Head(`{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}`), ""},
		{"nothing", agt.Head{}, ""},
	})
}

// TestUsage: each assistant message's usage is its metrics in agt's
// meaning (input without cache reads and writes), so that input +
// cache_read + cache_write is Cline's inputTokens, output its
// outputTokens and the native cost its cost, message by message.
func TestUsage(t *testing.T) {
	path := providertest.Testdata(t, "cline", "cline__session.messages.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Messages []struct {
			ID      string `json:"id"`
			Metrics *struct {
				In, Out, Read, Write int64
				Cost                 float64
			} `json:"metrics"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(remap(b), &doc); err != nil {
		t.Fatal(err)
	}
	out, _, _ := providertest.Parse(t, provider.Config{}, path)
	usage := map[string]*agt.Usage{}
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind == agt.KindUsage {
			usage[ev.MessageID] = ev.Usage
		}
	}
	n := 0
	for _, m := range doc.Messages {
		if m.Metrics == nil {
			continue
		}
		n++
		u := usage[m.ID]
		switch {
		case u == nil:
			t.Errorf("%s: no usage", m.ID)
		case u.Input+u.CacheRead+u.CacheWrite != m.Metrics.In || u.CacheRead != m.Metrics.Read || u.CacheWrite != m.Metrics.Write || u.Output != m.Metrics.Out:
			t.Errorf("%s: usage %+v, metrics %+v", m.ID, *u, *m.Metrics)
		case u.NativeCostUSD == nil || *u.NativeCostUSD != m.Metrics.Cost:
			t.Errorf("%s: native cost %v, want %v", m.ID, u.NativeCostUSD, m.Metrics.Cost)
		}
	}
	if n != 16 || len(usage) != n {
		t.Errorf("%d messages with metrics, %d usage events; want 16 of each", n, len(usage))
	}
	// Cline's own total for this session: the usageBefore its compaction
	// of the session records (basic.compaction.json beside the sample in
	// Cline's repository): 630,254 input tokens (cache reads included),
	// 4,395 output, 534,435 cache reads, no cache writes, $2.036022565.
	var sum agt.Usage
	for _, u := range usage {
		sum.Add(u)
	}
	if sum.Input+sum.CacheRead != 630254 || sum.Output != 4395 || sum.CacheRead != 534435 || sum.CacheWrite != 0 ||
		sum.NativeCostUSD == nil || math.Abs(*sum.NativeCostUSD-2.036022565) > 1e-9 {
		t.Errorf("session total %+v, want Cline's 630254 in (534435 cached), 4395 out, $2.036022565", sum)
	}
}

// remap renames Cline's metrics members to the short names TestUsage's
// struct reads.
func remap(b []byte) []byte {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return b
	}
	names := map[string]string{"inputTokens": "In", "outputTokens": "Out", "cacheReadTokens": "Read", "cacheWriteTokens": "Write", "cost": "Cost"}
	for _, m := range v.(map[string]any)["messages"].([]any) {
		mm := m.(map[string]any)
		if mt, ok := mm["metrics"].(map[string]any); ok {
			r := map[string]any{}
			for k, x := range mt {
				r[names[k]] = x
			}
			mm["metrics"] = r
		}
	}
	out, _ := json.Marshal(v)
	return out
}

// TestToolCalls: every tool_result links its call, and the calls
// normalize to their canonical rows.
func TestToolCalls(t *testing.T) {
	out, _, _ := providertest.Parse(t, provider.Config{}, providertest.Testdata(t, "cline", "cline__session.messages.json"))
	evs := providertest.Events(t, out)
	calls := map[string]string{}
	n := &provider.Normalizer{}
	names := map[string]int{}
	for i := range evs {
		ev := &evs[i]
		if ev.Tool != nil {
			calls[ev.Tool.ID] = ev.ID
			n.Event(ev)
			names[ev.Tool.NativeName+"→"+ev.Tool.Name+"/"+ev.Tool.Kind]++
		}
		if ev.Result != nil && (ev.Result.Call == "" || ev.Result.Call != calls[ev.Result.ID]) {
			t.Errorf("result %s links %q, want %q", ev.Result.ID, ev.Result.Call, calls[ev.Result.ID])
		}
	}
	want := map[string]int{"editor→Edit/write": 4, "read_files→read_files/read": 6, "run_commands→run_commands/execute": 1}
	if !maps(names, want) {
		t.Errorf("calls %v, want %v", names, want)
	}
}

func maps(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestEditor: editor is an Edit with old_text, a Write without, and keeps
// its name when it inserts at a line.
func TestEditor(t *testing.T) {
	cases := []struct{ in, name, input string }{
		{`{"path":"/a.go","old_text":"x","new_text":"y"}`, "Edit", `{"file_path":"/a.go","old_string":"x","new_string":"y"}`},
		{`{"path":"/a.go","new_text":"package a"}`, "Write", `{"file_path":"/a.go","content":"package a"}`},
		{`{"path":"/a.go","new_text":"// x","insert_line":3}`, "editor", `{"path":"/a.go","new_text":"// x","insert_line":3}`},
	}
	for _, c := range cases {
		ev := agt.Event{Kind: agt.KindToolCall, Provider: "cline", Tool: &agt.Tool{ID: "t", Name: "editor", NativeName: "editor", NativeInput: agt.Raw(c.in)}}
		(&provider.Normalizer{}).Event(&ev)
		if ev.Tool.Name != c.name || string(ev.Tool.Input) != c.input {
			t.Errorf("%s: %s %s, want %s %s", c.in, ev.Tool.Name, ev.Tool.Input, c.name, c.input)
		}
	}
}

func TestLogs(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		env  map[string]string
		home string
		want []string
	}{
		{nil, "/h", []string{"/h/.cline/data/sessions"}},
		{map[string]string{"CLINE_DIR": "/c"}, "/h", []string{"/c/data/sessions"}},
		{map[string]string{"CLINE_DIR": "/c", "CLINE_DATA_DIR": "/d"}, "/h", []string{"/d/sessions"}},
		{map[string]string{"CLINE_DATA_DIR": "/d", "CLINE_SESSION_DATA_DIR": "/s"}, "/h", []string{"/s"}},
		{nil, "", nil},
	}
	for _, c := range cases {
		if got := (cline.Provider{}).Logs(env(c.env), c.home); !slices.Equal(got[:min(len(got), len(c.want))], c.want) {
			t.Errorf("%v %q: %v, want %v", c.env, c.home, got, c.want)
		}
	}
}

// FuzzParse fuzzes every registered provider, Cline with its samples as
// seeds.
func FuzzParse(f *testing.F) {
	var seeds [][]byte
	for _, name := range []string{"cline__session.messages.json", "cline__session.json"} {
		b, err := os.ReadFile(providertest.Testdata(f, "cline", name))
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	// the lines a task folder is read as
	dirs, _ := filepath.Glob(providertest.Testdata(f, "cline", "tasks", "*", "tasks", "*"))
	for _, dir := range dirs {
		in, ok := (cline.Provider{}).Claim(dir, true)
		if !ok {
			f.Fatalf("%s not claimed", dir)
		}
		r, err := in.Open()
		if err != nil {
			f.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	providertest.FuzzParse(f, map[string][][]byte{"cline": seeds})
}
