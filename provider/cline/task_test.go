package cline_test

import (
	"encoding/json"
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

// taskFolders are the task folders of testdata/cline/tasks, by extension,
// and those of $AGT_TASK_SAMPLES (a list of folders, each laid out as an
// extension's storage folder: <extension>/tasks/<id>): real tasks whose
// licence keeps them out of testdata can be checked the same way.
func taskFolders(t *testing.T) []string {
	dirs, _ := filepath.Glob(providertest.Testdata(t, "cline", "tasks", "*", "tasks", "*"))
	if len(dirs) < 3 {
		t.Fatalf("%d task folders", len(dirs))
	}
	for _, root := range filepath.SplitList(os.Getenv("AGT_TASK_SAMPLES")) {
		more, _ := filepath.Glob(filepath.Join(root, "*", "tasks", "*"))
		dirs = append(dirs, more...)
	}
	return dirs
}

// requestSums adds up the api_req_started records of a ui_messages.json
// as the extension wrote them, with the deleted_api_reqs and
// subagent_usage records the panel adds to them (Cline's getApiMetrics); for a task without one, the metrics of the
// API history's assistant messages (prompt less cached is input).
func requestSums(t *testing.T, path string) (in, out, cr, cw int64, cost float64) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		b, err = os.ReadFile(filepath.Join(filepath.Dir(path), "api_conversation_history.json"))
		var msgs []struct {
			Metrics struct {
				Tokens struct{ Prompt, Completion, Cached int64 }
			}
		}
		if err == nil {
			err = json.Unmarshal(b, &msgs)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			tk := m.Metrics.Tokens
			in, out, cr = in+tk.Prompt-tk.Cached, out+tk.Completion, cr+tk.Cached
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var msgs []struct{ Say, Text string }
	if err := json.Unmarshal(b, &msgs); err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Say != "api_req_started" && m.Say != "deleted_api_reqs" && m.Say != "subagent_usage" {
			continue
		}
		var r struct {
			APIProtocol                                  string
			TokensIn, TokensOut, CacheReads, CacheWrites int64
			Cost                                         float64
		}
		if err := json.Unmarshal([]byte(m.Text), &r); err != nil {
			t.Fatal(err)
		}
		if r.APIProtocol == "openai" { // tokensIn holds the cache reads and writes
			r.TokensIn -= r.CacheReads + r.CacheWrites
		}
		in, out, cr, cw, cost = in+r.TokensIn, out+r.TokensOut, cr+r.CacheReads, cw+r.CacheWrites, cost+r.Cost
	}
	return
}

// TestTaskUsage: a task's tokens are the sum of its api_req_started
// records (tokensIn is input, or input and cache where apiProtocol is
// openai; cacheReads and cacheWrites the cache,
// tokensOut output, cost the native cost), one usage event per request
// that spent something, each the message id of one assistant message,
// and of its deleted_api_reqs and subagent_usage records (scope run, no
// request's).
func TestTaskUsage(t *testing.T) {
	for _, dir := range taskFolders(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			in, out, cr, cw, cost := requestSums(t, filepath.Join(dir, "ui_messages.json"))
			if in+out+cr+cw == 0 {
				t.Fatal("no tokens in the sample")
			}
			var u agt.Usage
			var nc float64
			ids := map[string]bool{}
			for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, dir)) {
				if ev.Kind != agt.KindUsage {
					continue
				}
				if ev.Usage.Scope == agt.ScopeRun {
					if ev.Meta == nil || (ev.Meta.Subtype != "deleted_api_reqs" && ev.Meta.Subtype != "subagent_usage") {
						t.Errorf("%s: run-scope usage of a request", ev.Src.Ptr)
					}
				} else if ids[ev.MessageID] || ev.MessageID == "" {
					t.Errorf("usage of message %q twice or without id", ev.MessageID)
				}
				ids[ev.MessageID] = true
				u.Input, u.Output, u.CacheRead, u.CacheWrite = u.Input+ev.Usage.Input, u.Output+ev.Usage.Output, u.CacheRead+ev.Usage.CacheRead, u.CacheWrite+ev.Usage.CacheWrite
				if ev.Usage.NativeCostUSD != nil {
					nc += *ev.Usage.NativeCostUSD
				}
			}
			if u.Input != in || u.Output != out || u.CacheRead != cr || u.CacheWrite != cw || math.Abs(nc-cost) > 1e-9 {
				t.Errorf("usage in %d out %d cache %d/%d cost %g; the requests say %d %d %d/%d %g", u.Input, u.Output, u.CacheRead, u.CacheWrite, nc, in, out, cr, cw, cost)
			}
		})
	}
}

// TestTaskFormats: a task folder is read as the format of the extension
// whose storage holds it, every record of its files accounted for by an
// event with the record's file and pointer; a task folder elsewhere is
// Cline's.
func TestTaskFormats(t *testing.T) {
	want := map[string]string{"saoudrizwan.claude-dev": cline.FormatTask, "rooveterinaryinc.roo-cline": cline.FormatRooTask, "kilocode.kilo-code": cline.FormatKiloTask}
	for _, dir := range taskFolders(t) {
		ext := filepath.Base(filepath.Dir(filepath.Dir(dir)))
		evs := providertest.Events(t, providertest.ParseClean(t, provider.Config{}, dir))
		srcs := map[string]bool{}
		for _, ev := range evs {
			if ev.Format != want[ext] || ev.NativeSession != filepath.Base(dir) {
				t.Fatalf("%s: format %s session %s", dir, ev.Format, ev.NativeSession)
			}
			srcs[filepath.Base(ev.Src.Path)+ev.Src.Ptr] = true
		}
		for _, f := range []string{"ui_messages.json", "api_conversation_history.json"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if os.IsNotExist(err) {
				continue
			}
			var recs []json.RawMessage
			if err := json.Unmarshal(b, &recs); err != nil {
				t.Fatal(err)
			}
			for i := range recs {
				if k := f + "/" + itoa(i); !srcs[k] {
					t.Errorf("%s: no event for %s", dir, k)
				}
			}
		}
	}
	// the same folder outside an extension's storage
	src := taskFolders(t)[0]
	dir := filepath.Join(t.TempDir(), "1760000000000")
	os.MkdirAll(dir, 0o755)
	b, _ := os.ReadFile(filepath.Join(src, "ui_messages.json"))
	os.WriteFile(filepath.Join(dir, "ui_messages.json"), b, 0o644)
	if evs := providertest.Events(t, providertest.ParseClean(t, provider.Config{}, dir)); len(evs) == 0 || evs[0].Format != cline.FormatTask {
		t.Errorf("a task folder elsewhere: %v", evs)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestTaskTools: the panel's tool records are the calls the model made,
// under its tool names, canonical after normalization, and rendered back
// to those names for --to cline.
func TestTaskTools(t *testing.T) {
	want := map[string]string{
		"list_files": "LS", "read_file": "Read", "replace_in_file": "Edit", "execute_command": "Bash", "use_mcp_tool": "mcp__github__create_issue",
		"attempt_completion": "attempt_completion", "update_todo_list": "update_todo_list", "apply_diff": "Edit", "new_task": "Task",
		"write_to_file": "Write", "search_files": "Grep", "ask_followup_question": "ask_followup_question",
		"plan_mode_respond": "plan_mode_respond",
	}
	seen := map[string]bool{}
	for _, dir := range taskFolders(t) {
		n := &provider.Normalizer{}
		for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, dir)) {
			if ev.Kind != agt.KindToolCall {
				continue
			}
			native := ev.Tool.NativeName
			e := ev
			n.Event(&e)
			if w, ok := want[native]; !ok || e.Tool.Name != w {
				t.Errorf("%s: %s, want %q", native, e.Tool.Name, w)
			}
			back := ev
			(&provider.Normalizer{To: "cline"}).Event(&back)
			if back.Tool.Name != native {
				t.Errorf("%s rendered for cline as %s", native, back.Tool.Name)
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

func TestTaskSniff(t *testing.T) {
	line := func(ext string) string {
		return `{"cline_task":"1","extension":"` + ext + `","file":"/t/1/ui_messages.json","ptr":"/0","ui":{"ts":1,"type":"say","say":"text","text":"hi"}}`
	}
	providertest.Sniff(t, cline.Provider{}, []providertest.SniffCase{
		{"cline", providertest.Head(line("saoudrizwan.claude-dev")), cline.FormatTask},
		{"roo code", providertest.Head(line("rooveterinaryinc.roo-cline")), cline.FormatRooTask},
		{"kilo code", providertest.Head(line("kilocode.kilo-code")), cline.FormatKiloTask},
		{"elsewhere", providertest.Head(line("")), cline.FormatTask},
		{"no file", providertest.Head(`{"cline_task":"1","ui":{}}`), ""},
		{"a panel record alone", providertest.Head(`{"ts":1,"type":"say","say":"text","text":"hi"}`), ""},
	})
}

// TestTaskLogs: --discover looks in the global storage of each extension
// of each editor, under the configuration folders of Linux, macOS and
// Windows.
func TestTaskLogs(t *testing.T) {
	env := map[string]string{"APPDATA": "/w"}
	got := (cline.Provider{}).Logs(func(k string) string { return env[k] }, "/h")
	for _, p := range []string{
		"/h/.cline/data/sessions",
		"/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks",
		"/h/.config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks",
		"/h/.config/VSCodium/User/globalStorage/kilocode.kilo-code/tasks",
		"/h/.config/Windsurf/User/globalStorage/saoudrizwan.claude-dev/tasks",
		"/h/Library/Application Support/Code/User/globalStorage/kilocode.kilo-code/tasks",
		"/w/Code/User/globalStorage/saoudrizwan.claude-dev/tasks",
	} {
		if !slices.Contains(got, filepath.FromSlash(p)) {
			t.Errorf("no %s in %q", p, got)
		}
	}
	env["XDG_CONFIG_HOME"] = "/x"
	got = (cline.Provider{}).Logs(func(k string) string { return env[k] }, "/h")
	if !slices.Contains(got, filepath.FromSlash("/x/Code/User/globalStorage/saoudrizwan.claude-dev/tasks")) || slices.Contains(got, filepath.FromSlash("/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks")) {
		t.Errorf("XDG_CONFIG_HOME: %q", got)
	}
}

// TestTaskFiles: the files of a task folder named alone are read as the
// folder is: ui_messages.json with the history item and metadata, the
// API history beside it as meta events; naming both gives the events of
// the folder, each record once.
func TestTaskFiles(t *testing.T) {
	dir := providertest.Testdata(t, "cline", "tasks", "rooveterinaryinc.roo-cline", "tasks", "0b5c6f0e-3f1a-4c2e-9d7a-1c2b3d4e5f60")
	count := func(paths ...string) map[string]int {
		n := map[string]int{}
		for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, paths...)) {
			if ev.Format != cline.FormatRooTask {
				t.Errorf("%v: format %s", paths, ev.Format)
			}
			if ev.Meta == nil || ev.Meta.Type != "session" || ev.Meta.Subtype != "" { // each input's own session event left out
				n[filepath.Base(ev.Src.Path)+ev.Src.Ptr+" "+ev.Kind]++
			}
		}
		return n
	}
	folder := count(dir)
	both := count(filepath.Join(dir, "ui_messages.json"), filepath.Join(dir, "api_conversation_history.json"))
	if len(folder) == 0 || len(both) != len(folder) {
		t.Fatalf("folder %v\nfiles %v", folder, both)
	}
	for k, n := range folder {
		if both[k] != n {
			t.Errorf("%s: %d events from the files, %d from the folder", k, both[k], n)
		}
	}
	if ui := count(filepath.Join(dir, "ui_messages.json")); ui["api_conversation_history.json/0 meta"] != 0 || ui["ui_messages.json/1 usage"] != 1 {
		t.Errorf("ui_messages.json alone: %v", ui)
	}
}
