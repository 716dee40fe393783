package examples

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// filter runs one of the filters with args.
func filter(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(providertest.Filter(t, name), args...).Output()
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return out
}

// TestGrepRecipe: grep.jq over the corpus's events finds a prompt in each
// session that holds it, and only there: agtrace's sample task, given to
// Claude Code, Gemini CLI and Codex, with each session's own time; ignoring
// case finds Claude's reasoning that repeats it too, and a call's input is
// searched.
func TestGrepRecipe(t *testing.T) {
	corpus := providertest.CorpusDir(t)
	events := filter(t, "agt-parse", "-q", corpus)
	type hit struct{ Session, Provider, TS, Kind string }
	var hits []hit
	for _, r := range jq(t, "grep.jq", map[string]any{"re": `create myapp/hoge\.py`}, events) {
		hits = append(hits, hit{r["session"].(string), r["provider"].(string), r["ts"].(string), r["kind"].(string)})
	}
	want := []hit{
		{"7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9", "claude", "2025-12-09T19:47:42.930Z", "user"},
		{"019b04ae-b1c6-7c72-a134-a4c2de66058c", "codex", "2025-12-09T19:55:18.144Z", "user"},
		{"f0a689a6-b0ac-407f-afcc-4fafa9e14e8a", "gemini", "2025-12-09T19:51:29.418Z", "user"},
	}
	slices.SortFunc(hits, func(a, b hit) int { return bytes.Compare([]byte(a.Provider), []byte(b.Provider)) })
	if !slices.Equal(hits, want) {
		t.Errorf("hits %+v, want %+v", hits, want)
	}
	// ignoring case, Claude's reasoning ("2. Create myapp/hoge.py …") too
	caseless := jq(t, "grep.jq", map[string]any{"re": `CREATE MYAPP/HOGE\.PY`, "flags": "i"}, events)
	reasoning := 0
	for _, r := range caseless {
		if r["kind"] == "reasoning" && r["session"] == want[0].Session && r["ts"] == "2025-12-09T19:47:54.563Z" {
			reasoning++
		}
	}
	if len(caseless) != len(want)+1 || reasoning != 1 {
		t.Errorf("ignoring case: %d hits, %d of them Claude's reasoning: %v", len(caseless), reasoning, caseless)
	}
	calls := 0
	for _, r := range jq(t, "grep.jq", map[string]any{"re": `hoge\.py`}, events) {
		if r["kind"] == "tool_call" && r["tool"] != nil {
			calls++
		}
	}
	if calls == 0 {
		t.Error("no tool call's input holds hoge.py")
	}
}

// TestSessionList: agt-report --by session lists the corpus's sessions
// that have usage, each once, with the transcript's token total, and
// every session whose transcript counts tokens is there.
func TestSessionList(t *testing.T) {
	corpus := providertest.CorpusDir(t)
	type key struct{ provider, session string }
	total := map[key]int64{}
	for _, l := range bytes.Split(bytes.TrimSpace(filter(t, "agt-transcript", "-q", corpus)), []byte("\n")) {
		var tr struct {
			Provider string `json:"provider"`
			Native   string `json:"native_session"`
			Usage    struct {
				Total int64 `json:"total"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(l, &tr); err != nil {
			t.Fatal(err)
		}
		total[key{tr.Provider, tr.Native}] += tr.Usage.Total
	}
	listed := map[key]bool{}
	for _, l := range bytes.Split(bytes.TrimSpace(filter(t, "agt-report", "-q", "--by", "session", "--json", "--tz", "UTC", corpus)), []byte("\n")) {
		var r struct {
			Totals   bool   `json:"totals"`
			Session  string `json:"session"`
			Provider string `json:"provider"`
			Total    int64  `json:"total"`
			First    string `json:"first"`
		}
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		if r.Totals {
			continue
		}
		k := key{r.Provider, r.Session}
		if listed[k] {
			t.Errorf("%v listed twice", k)
		}
		listed[k] = true
		if n, ok := total[k]; !ok || n != r.Total {
			t.Errorf("%v: %d tokens listed, its transcript %d (found: %v)", k, r.Total, n, ok)
		}
	}
	n := 0
	for k, v := range total {
		if v > 0 {
			n++
			if !listed[k] {
				t.Errorf("%v: %d tokens, not listed", k, v)
			}
		}
	}
	if n < 50 {
		t.Fatalf("%d sessions with usage: the corpus was not read", n)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	providertest.RemoveFilters()
	os.Exit(code)
}
