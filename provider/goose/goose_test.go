package goose_test

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/goose"
	"github.com/agt-project/agt/provider/internal/sqlitero"
	"github.com/agt-project/agt/provider/providertest"
)

// TestGolden parses a sessions.db and a session file of earlier versions
// and compares the events with reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "goose", true, "*.db", "*.jsonl")
}

func TestSniff(t *testing.T) {
	providertest.Sniff(t, goose.Provider{}, []providertest.SniffCase{
		{"session row", providertest.Head(`{"goose":"session","row":{"id":"20260525_3","working_dir":"/w"}}`), goose.FormatDB},
		{"message row", providertest.Head(`{"goose":"message","row":{"id":1,"session_id":"s","role":"user","content_json":"[]"}}`), goose.FormatDB},
		{"session file", providertest.Head(`{"working_dir":"/w","description":"d","message_count":2,"total_tokens":10}`), goose.FormatJSONL},
		{"crush row", providertest.Head(`{"crush":"session","row":{"id":"s"}}`), ""},
		{"a message line first", providertest.Head(`{"role":"user","created":1,"content":[{"type":"text","text":"hi"}]}`), ""},
		{"working_dir alone", providertest.Head(`{"working_dir":"/w"}`), ""},
	})
}

// TestUsage: a session's usage is its stored totals, the accumulated
// columns of its sessions row (the file's metadata line for a session
// file), once per session.
func TestUsage(t *testing.T) {
	path := providertest.Testdata(t, "goose", "sessions.db")
	db, err := sqlitero.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := map[string][2]int64{}
	cost := map[string]float64{}
	if err := sqlitero.Each(db.DB, `SELECT id, accumulated_input_tokens AS i, accumulated_output_tokens AS o, accumulated_cost AS c FROM sessions`, nil, func(r map[string]any) error {
		want[r["id"].(string)] = [2]int64{r["i"].(int64), r["o"].(int64)}
		if c, ok := r["c"].(float64); ok {
			cost[r["id"].(string)] = c
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want["20250303_101010"] = [2]int64{12100, 700}
	got := map[string][2]int64{}
	for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, path, providertest.Testdata(t, "goose", "20250303_101010.jsonl"))) {
		if ev.Kind != agt.KindUsage {
			continue
		}
		if _, dup := got[ev.NativeSession]; dup || ev.Usage.Scope != agt.ScopeRun {
			t.Errorf("%s: usage twice or of scope %s", ev.NativeSession, ev.Usage.Scope)
		}
		got[ev.NativeSession] = [2]int64{ev.Usage.Input, ev.Usage.Output}
		if c, ok := cost[ev.NativeSession]; ok && (ev.Usage.NativeCostUSD == nil || *ev.Usage.NativeCostUSD != c) {
			t.Errorf("%s: cost %v, want %g", ev.NativeSession, ev.Usage.NativeCostUSD, c)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("usage of %v, want %v", got, want)
	}
	for s, w := range want {
		if got[s] != w {
			t.Errorf("%s: %v, want %v", s, got[s], w)
		}
	}
}

// TestLedger: a database with a usage ledger (schema 15 on) gives one
// usage event per ledger row (scope call; a carried_forward catch-up,
// scope run), input without the cache reads and writes Goose counts in
// it, and a run-scope remainder where the session's accumulated columns
// exceed its rows; each session's tokens and cost then equal Goose's own
// totals, the larger of the two per column (get_session_usage_totals).
func TestLedger(t *testing.T) {
	path := providertest.Testdata(t, "goose", "sessions-ledger.db")
	db, err := sqlitero.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	type totals struct {
		in, cr, cw, out, calls int64
		cost                   float64
	}
	want := map[string]totals{}
	if err := sqlitero.Each(db.DB, `SELECT s.id,
		max(s.accumulated_input_tokens, sum(u.input_tokens)) AS i, max(s.accumulated_output_tokens, sum(u.output_tokens)) AS o,
		max(s.accumulated_cache_read_tokens, sum(u.cache_read_tokens)) AS cr, max(s.accumulated_cache_write_tokens, sum(u.cache_write_tokens)) AS cw,
		max(s.accumulated_cost, sum(u.cost)) AS c, count(u.id) - count(u.cost_source = 'carried_forward' OR NULL) AS calls
		FROM sessions s LEFT JOIN usage_ledger u ON u.session_id = s.id GROUP BY s.id`, nil, func(r map[string]any) error {
		want[r["id"].(string)] = totals{in: r["i"].(int64), cr: r["cr"].(int64), cw: r["cw"].(int64), out: r["o"].(int64), calls: r["calls"].(int64), cost: r["c"].(float64)}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got := map[string]totals{}
	for _, ev := range providertest.Events(t, providertest.ParseClean(t, provider.Config{}, path)) {
		if ev.Kind != agt.KindUsage {
			continue
		}
		u, g := ev.Usage, got[ev.NativeSession]
		g.in += u.Input + u.CacheRead + u.CacheWrite
		g.cr, g.cw, g.out = g.cr+u.CacheRead, g.cw+u.CacheWrite, g.out+u.Output
		if u.NativeCostUSD != nil {
			g.cost += *u.NativeCostUSD
		}
		if u.Scope == agt.ScopeCall {
			g.calls++
			if ev.Model == "" {
				t.Errorf("%s: a call's usage without its model", ev.Src.Ptr)
			}
		}
		got[ev.NativeSession] = g
	}
	if len(got) != len(want) {
		t.Fatalf("usage of %v, want %v", got, want)
	}
	for s, w := range want {
		g := got[s]
		if math.Abs(g.cost-w.cost) > 1e-9 {
			t.Errorf("%s: cost %g, want %g", s, g.cost, w.cost)
		}
		g.cost = w.cost
		if g != w {
			t.Errorf("%s: %+v, want %+v", s, g, w)
		}
	}
}

// TestTools: the developer extension's tools are canonical under both
// their names, another extension's tool is an MCP tool, and --to goose
// renders each back to the name it had.
func TestTools(t *testing.T) {
	want := map[string]string{
		"shell": "Bash", "developer__shell": "Bash", "text_editor": "", "developer__text_editor": "Write",
		"github__create_issue": "mcp__github__create_issue", "write": "Write", "edit": "Edit", "tree": "LS",
	}
	editor := map[string]string{"view": "Read", "str_replace": "Edit"}
	seen := map[string]bool{}
	evs := providertest.Events(t, providertest.ParseClean(t, provider.Config{}, providertest.Testdata(t, "goose", "sessions.db"), providertest.Testdata(t, "goose", "20250303_101010.jsonl")))
	for _, ev := range evs {
		if ev.Kind != agt.KindToolCall {
			continue
		}
		native := ev.Tool.NativeName
		var in struct{ Command string }
		agt.API.Unmarshal(ev.Tool.NativeInput, &in)
		w := want[native]
		if native == "text_editor" {
			w = editor[in.Command]
		}
		(&provider.Normalizer{}).Event(&ev)
		if ev.Tool.Name != w || w == "" {
			t.Errorf("%s %s: %s, want %q", native, in.Command, ev.Tool.Name, w)
		}
		(&provider.Normalizer{To: "goose"}).Event(&ev)
		if ev.Tool.Name != native {
			t.Errorf("%s rendered for goose as %s", native, ev.Tool.Name)
		}
		seen[native] = true
	}
	for n := range want {
		if !seen[n] {
			t.Errorf("no %s call in the samples", n)
		}
	}
}

func TestLogs(t *testing.T) {
	env := map[string]string{"APPDATA": "/w"}
	got := (goose.Provider{}).Logs(func(k string) string { return env[k] }, "/h")
	want := []string{"/h/.local/share/goose/sessions", "/w/Block/goose/data/sessions", "/h/.config/goose/sessions"}
	for i := range want {
		want[i] = filepath.FromSlash(want[i])
	}
	if !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}

// FuzzParse fuzzes every registered provider, Goose with its testdata as
// seeds.
func FuzzParse(f *testing.F) {
	providertest.FuzzParse(f, nil)
}
