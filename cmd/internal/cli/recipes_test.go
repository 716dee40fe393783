package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// recipe is the command of a recipe of the README or a guide in docs/: the
// code block after its "<!-- recipe: NAME -->" mark.
func recipe(t *testing.T, name string) string {
	t.Helper()
	var after string
	for _, doc := range docFiles(t) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, a, ok := strings.Cut(string(b), "<!-- recipe: "+name+" -->"); ok {
			after = a
			break
		}
	}
	if after == "" {
		t.Fatalf("README and docs: no recipe %q", name)
	}
	_, block, _ := strings.Cut(after, "```")
	_, block, _ = strings.Cut(block, "\n")
	block, _, _ = strings.Cut(block, "```")
	return block
}

// jqArgs are the arguments of the jq command in a recipe: its flags and
// program (the recipes quote it in single quotes and hold no other).
var jqCall = regexp.MustCompile(`(?s)\| jq ((?:-\w+ )*)'(.*?)'`)

func jqArgs(t *testing.T, name string) []string {
	m := jqCall.FindStringSubmatch(recipe(t, name))
	if m == nil {
		t.Fatalf("recipe %s: no jq call", name)
	}
	return append(strings.Fields(m[1]), m[2])
}

// runJQ runs jq with args on in, or returns false when jq is not on PATH.
func runJQ(t *testing.T, in []byte, args ...string) (string, bool) {
	if _, err := exec.LookPath("jq"); err != nil {
		return "", false
	}
	cmd := exec.Command("jq", args...)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("jq %v: %v", args, err)
	}
	return string(out), true
}

type recipeEvent struct {
	Kind  string `json:"kind"`
	TS    string `json:"ts"`
	Model string `json:"model"`
	Text  string `json:"text"`
	Tool  *struct {
		Name string `json:"name"`
	} `json:"tool"`
	Usage *struct {
		Total   int64    `json:"total"`
		CostUSD *float64 `json:"cost_usd"`
	} `json:"usage"`
}

type dayFigures struct {
	tokens int64
	cost   float64
}

// TestRecipes checks the README's recipes on the corpus: each file read
// alone (as corpus/reference.json gives its figures), its events then put
// together. The figures are computed in Go; a file's daily tokens add up
// to its reference total; jq's figures (when jq is installed) and DuckDB's
// (when on PATH) are the same.
func TestRecipes(t *testing.T) {
	if raceBuild {
		t.Skip("a corpus-wide property, not concurrency: make long runs it")
	}
	corpus := providertest.CorpusDir(t)
	raw, err := os.ReadFile(filepath.Join(corpus, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref []struct {
		File  string `json:"file"`
		Total int64  `json:"total"`
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref) < 20 {
		t.Fatalf("reference.json: %d files", len(ref))
	}
	var all []byte
	days := map[string]*dayFigures{} // "DAY\tMODEL"
	tools := map[string]int{}
	for _, r := range ref {
		out := runApp(t, Normalize, nil, "-q", filepath.Join(corpus, r.File))
		all = append(all, out...)
		var fileTokens int64
		for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
			if len(l) == 0 {
				continue
			}
			var e recipeEvent
			if err := json.Unmarshal(l, &e); err != nil {
				t.Fatalf("%s: %v", r.File, err)
			}
			switch {
			case e.Kind == "usage" && e.Usage != nil:
				day, model := "unknown", e.Model
				if len(e.TS) >= 10 {
					day = e.TS[:10]
				}
				if model == "" {
					model = "unknown"
				}
				d := days[day+"\t"+model]
				if d == nil {
					d = &dayFigures{}
					days[day+"\t"+model] = d
				}
				d.tokens += e.Usage.Total
				if e.Usage.CostUSD != nil {
					d.cost += *e.Usage.CostUSD
				}
				fileTokens += e.Usage.Total
			case e.Kind == "tool_call" && e.Tool != nil:
				tools[e.Tool.Name]++
			}
		}
		if fileTokens != r.Total {
			t.Errorf("%s: the days add up to %d tokens, reference %d", r.File, fileTokens, r.Total)
		}
	}
	if len(days) < 10 || len(tools) < 5 {
		t.Fatalf("%d day and model rows, %d tools: the corpus was not read", len(days), len(tools))
	}

	t.Run("cost-per-day", func(t *testing.T) {
		out, ok := runJQ(t, all, jqArgs(t, "cost-per-day")...)
		if !ok {
			t.Skip("jq not installed: the jq recipe is not run")
		}
		checkDays(t, "jq", out, days)
	})
	t.Run("top-tools", func(t *testing.T) {
		out, ok := runJQ(t, all, jqArgs(t, "top-tools")...)
		if !ok {
			t.Skip("jq not installed: the jq recipe is not run")
		}
		got := map[string]int{}
		for _, name := range strings.Split(strings.TrimSpace(out), "\n") {
			got[name]++
		}
		if fmt.Sprint(got) != fmt.Sprint(tools) {
			t.Errorf("jq tool counts %v, Go %v", got, tools)
		}
	})
	t.Run("timeline", func(t *testing.T) {
		session := filepath.Join(corpus, "claude", "agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
		events := runApp(t, Normalize, nil, "-q", session)
		out, ok := runJQ(t, events, jqArgs(t, "timeline")...)
		if !ok {
			t.Skip("jq not installed: the jq recipe is not run")
		}
		var want []string
		for _, l := range bytes.Split(bytes.TrimSpace(events), []byte("\n")) {
			var e recipeEvent
			json.Unmarshal(l, &e)
			if e.Kind == "user" || e.Kind == "assistant" || e.Kind == "tool_call" {
				what := strings.Join(strings.Fields(e.Text), " ")
				if e.Tool != nil {
					what = e.Tool.Name
				}
				want = append(want, e.Kind+"\t"+what[:min(len(what), 60)])
			}
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != len(want) || len(want) < 5 {
			t.Fatalf("jq timeline: %d lines, want %d", len(lines), len(want))
		}
		for i, l := range lines {
			f := strings.SplitN(l, "\t", 2)
			if len(f) != 2 || len(f[0]) != 8 || !strings.HasPrefix(want[i], strings.TrimSpace(f[1])) {
				t.Errorf("line %d: %q, want time then %q", i, l, want[i])
			}
		}
	})
	t.Run("duckdb", func(t *testing.T) {
		if _, err := exec.LookPath("duckdb"); err != nil {
			t.Skip("duckdb not on PATH: the DuckDB recipe is not run")
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), all, 0o644); err != nil {
			t.Fatal(err)
		}
		sql, _, _ := strings.Cut(recipe(t, "duckdb"), "-- top tools")
		cmd := exec.Command("duckdb", "-csv", "-noheader", "-c", sql)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("duckdb: %v", err)
		}
		checkDays(t, "duckdb", strings.ReplaceAll(string(out), ",", "\t"), days)
	})
}

// checkDays compares "DAY\tMODEL\tTOKENS\tCOST" lines with the Go figures:
// tokens exactly, costs to the cent.
func checkDays(t *testing.T, who, out string, want map[string]*dayFigures) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) {
		t.Errorf("%s: %d day and model rows, Go %d", who, len(lines), len(want))
	}
	if !sort.StringsAreSorted(lines) {
		t.Errorf("%s: rows not in order of day", who)
	}
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 4 {
			t.Fatalf("%s: row %q", who, l)
		}
		d := want[f[0]+"\t"+f[1]]
		tokens, _ := strconv.ParseInt(f[2], 10, 64)
		cost, _ := strconv.ParseFloat(f[3], 64)
		if d == nil || tokens != d.tokens || math.Abs(cost-d.cost) > 0.006 {
			t.Errorf("%s: row %q, Go %+v", who, l, d)
		}
	}
}

// TestDailyAgainstCcusage: the daily tokens and cost of the corpus's Claude
// Code logs, as the cost-per-day recipe sums them, equal ccusage's daily
// report of the same files (testdata/recipes, with its provenance), day by
// day, to the token and to the cent.
func TestDailyAgainstCcusage(t *testing.T) {
	dir := filepath.Join(providertest.CorpusDir(t), "claude")
	want, err := os.ReadFile(filepath.Join(providertest.RepoRoot(t), "testdata", "recipes", "ccusage-daily-claude.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	type day struct {
		tokens int64
		cost   float64
	}
	days := map[string]*day{}
	for _, l := range bytes.Split(bytes.TrimSpace(runApp(t, Normalize, nil, "-q", dir)), []byte("\n")) {
		var e recipeEvent
		if err := json.Unmarshal(l, &e); err != nil {
			t.Fatal(err)
		}
		if e.Kind != "usage" || e.Usage == nil || e.Usage.Total == 0 {
			continue
		}
		d := days[e.TS[:min(len(e.TS), 10)]]
		if d == nil {
			d = &day{}
			days[e.TS[:min(len(e.TS), 10)]] = d
		}
		d.tokens += e.Usage.Total
		if e.Usage.CostUSD != nil {
			d.cost += *e.Usage.CostUSD
		}
	}
	rows := strings.Split(strings.TrimSpace(string(want)), "\n")
	if len(rows) < 10 || len(days) != len(rows) {
		t.Errorf("%d days, ccusage %d", len(days), len(rows))
	}
	for _, r := range rows {
		f := strings.Split(r, "\t")
		d := days[f[0]]
		if d == nil {
			t.Errorf("%s: no usage, ccusage %s tokens", f[0], f[1])
			continue
		}
		if got := fmt.Sprint(d.tokens); got != f[1] {
			t.Errorf("%s: %s tokens, ccusage %s", f[0], got, f[1])
		}
		if got := strconv.FormatFloat(math.Round(d.cost*100)/100, 'f', -1, 64); got != f[2] {
			t.Errorf("%s: $%s, ccusage $%s", f[0], got, f[2])
		}
	}
}
