package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// findCcusage is the ccusage binary the cross-checks run: $AGT_CCUSAGE,
// ccusage on PATH, or the copy make bench installs; the test is skipped
// without one.
func findCcusage(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("AGT_CCUSAGE"); p != "" {
		return p
	}
	if p, err := exec.LookPath("ccusage"); err == nil {
		return p
	}
	p := filepath.Join(os.TempDir(), "agt-bench", "npm", "node_modules", ".bin", "ccusage")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	t.Skip("ccusage not found (set AGT_CCUSAGE, or put ccusage 20.0.24 on PATH)")
	return ""
}

// ccRow is a row of ccusage's unified JSON reports (20.0.24).
type ccRow struct {
	Agent       string  `json:"agent"`
	Period      string  `json:"period"`
	Input       int64   `json:"inputTokens"`
	Output      int64   `json:"outputTokens"`
	CacheRead   int64   `json:"cacheReadTokens"`
	CacheWrite  int64   `json:"cacheCreationTokens"`
	Total       int64   `json:"totalTokens"`
	Cost        float64 `json:"totalCost"`
	LastActive  string  `json:"-"`
	MetadataRaw struct {
		LastActivity string `json:"lastActivity"`
	} `json:"metadata"`
}

// reportRow is a row of agt-report --json.
type reportRow struct {
	Day, Month, Session, Provider *string
	Totals                        bool     `json:"totals"`
	Input                         int64    `json:"input"`
	Output                        int64    `json:"output"`
	CacheRead                     int64    `json:"cache_read"`
	CacheWrite                    int64    `json:"cache_write"`
	Total                         int64    `json:"total"`
	Cost                          *float64 `json:"cost_usd"`
}

func (r reportRow) figures() [5]int64 {
	return [5]int64{r.Input, r.Output, r.CacheRead, r.CacheWrite, r.Total}
}

func (r ccRow) figures() [5]int64 {
	return [5]int64{r.Input, r.Output, r.CacheRead, r.CacheWrite, r.Total}
}

func cents(x float64) float64 { return math.Round(x*100) / 100 }

// ccusageReport runs ccusage's unified report view over the corpus's
// Claude Code and Codex trees, laid out as ccusage looks for them.
func ccusageReport(t *testing.T, bin, tree, view string) []ccRow {
	t.Helper()
	cmd := exec.Command(bin, view, "--json", "--offline", "--timezone", "UTC")
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(tree, "home"), "CLAUDE_CONFIG_DIR="+filepath.Join(tree, "claude"),
		"CODEX_HOME="+filepath.Join(tree, "codex"), "TZ=UTC", "NO_COLOR=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ccusage %s: %v: %s", view, err, errb.String())
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	key := map[string]string{"daily": "daily", "monthly": "monthly", "session": "session"}[view]
	var rows []ccRow
	if err := json.Unmarshal(doc[key], &rows); err != nil {
		t.Fatalf("ccusage %s: %v", view, err)
	}
	for i := range rows {
		rows[i].LastActive = rows[i].MetadataRaw.LastActivity
	}
	if len(rows) < 5 {
		t.Fatalf("ccusage %s: %d rows", view, len(rows))
	}
	return rows
}

// ccusageTree copies the corpus's claude and codex logs where ccusage
// reads them: CLAUDE_CONFIG_DIR/projects/p/, CODEX_HOME/sessions/.
func ccusageTree(t *testing.T, corpus string) string {
	t.Helper()
	tree := t.TempDir()
	for _, d := range []string{"home", "claude/projects/p", "codex/sessions"} {
		if err := os.MkdirAll(filepath.Join(tree, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []struct{ from, to string }{{"claude", "claude/projects/p"}, {"codex", "codex/sessions"}} {
		files, _ := filepath.Glob(filepath.Join(corpus, p.from, "*"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(tree, p.to, filepath.Base(f)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return tree
}

func agtReport(t *testing.T, corpus string, args ...string) []reportRow {
	t.Helper()
	args = append(append([]string{"-q", "--tz", "UTC", "--json"}, args...), filepath.Join(corpus, "claude"), filepath.Join(corpus, "codex"))
	var rows []reportRow
	for _, l := range bytes.Split(bytes.TrimSpace(runApp(t, Report, nil, args...)), []byte("\n")) {
		var r reportRow
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		rows = append(rows, r)
	}
	return rows
}

// TestReportAgainstCcusage: on the corpus's Claude Code and Codex trees,
// agt-report --by day and --by month --tz UTC equal ccusage 20.0.24's
// daily and monthly reports (offline, UTC) row by row, in every token
// figure and in cost to the cent. The one documented difference: usage
// without a time is a row of its own (null day), which ccusage leaves out;
// the corpus has one, of no tokens.
func TestReportAgainstCcusage(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the corpus and runs ccusage")
	}
	corpus := providertest.CorpusDir(t)
	bin := findCcusage(t)
	tree := ccusageTree(t, corpus)
	for _, v := range []struct{ cc, by string }{{"daily", "day"}, {"monthly", "month"}} {
		t.Run(v.by, func(t *testing.T) {
			want := map[string]ccRow{}
			for _, r := range ccusageReport(t, bin, tree, v.cc) {
				want[r.Period] = r
			}
			seen := 0
			for _, r := range agtReport(t, corpus, "--by", v.by) {
				if r.Totals {
					continue
				}
				key := r.Day
				if v.by == "month" {
					key = r.Month
				}
				if key == nil {
					if r.Total != 0 {
						t.Errorf("usage without a time: %d tokens", r.Total)
					}
					continue
				}
				w, ok := want[*key]
				if !ok {
					t.Errorf("%s: agt has %d tokens, ccusage no row", *key, r.Total)
					continue
				}
				seen++
				if r.figures() != w.figures() {
					t.Errorf("%s: agt input, output, cache read, cache write, total %v, ccusage %v", *key, r.figures(), w.figures())
				}
				if r.Cost == nil || cents(*r.Cost) != cents(w.Cost) {
					t.Errorf("%s: agt $%v, ccusage $%.2f", *key, r.Cost, w.Cost)
				}
			}
			if seen != len(want) {
				t.Errorf("%d rows of ccusage's %d met", seen, len(want))
			}
		})
	}
}

// TestReportSessionsAgainstCcusage: agt-report --by session against
// ccusage's session report of the same trees. ccusage's session is a file
// (a subagent's own file is a session of its own, a file of two sessions
// one), agt's the agent's session (its subagents' files and usage in it);
// and ccusage's session view leaves out the subagent usage Claude Code
// relays in progress records of the session's file, which its daily view
// counts (as agt does in every view). So the sessions and files that
// share records are compared as groups: the agt rows of a group sum to
// ccusage's rows of its files plus the usage of their progress records.
func TestReportSessionsAgainstCcusage(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the corpus and runs ccusage")
	}
	corpus := providertest.CorpusDir(t)
	bin := findCcusage(t)
	tree := ccusageTree(t, corpus)
	cc := ccusageReport(t, bin, tree, "session")
	// the files of each session, and the usage of progress records, by file
	type figs struct {
		n    [5]int64
		cost float64
	}
	sessionFiles := map[string]map[string]bool{} // provider NUL native session → file names
	progress := map[string]*figs{}
	for _, p := range []string{"claude", "codex"} {
		out := runApp(t, Normalize, nil, "-q", "--raw", filepath.Join(corpus, p))
		for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
			var ev struct {
				Provider, Kind string
				Native         string `json:"native_session"`
				Src            struct{ Path string }
				Usage          *struct {
					Input, Output, Total int64
					CacheRead            int64   `json:"cache_read"`
					CacheWrite           int64   `json:"cache_write"`
					Cost                 float64 `json:"cost_usd"`
				}
				Raw struct{ Type string }
			}
			if err := json.Unmarshal(l, &ev); err != nil {
				t.Fatal(err)
			}
			file := strings.TrimSuffix(filepath.Base(ev.Src.Path), filepath.Ext(ev.Src.Path))
			k := ev.Provider + "\x00" + ev.Native
			if sessionFiles[k] == nil {
				sessionFiles[k] = map[string]bool{}
			}
			sessionFiles[k][file] = true
			if ev.Kind == "usage" && ev.Usage != nil && ev.Raw.Type == "progress" {
				f := progress[file]
				if f == nil {
					f = &figs{}
					progress[file] = f
				}
				u := ev.Usage
				f.n = [5]int64{f.n[0] + u.Input, f.n[1] + u.Output, f.n[2] + u.CacheRead, f.n[3] + u.CacheWrite, f.n[4] + u.Total}
				f.cost += u.Cost
			}
		}
	}
	// groups: sessions joined by the files they share
	group := map[string]string{} // a session's or file's group (union-find)
	var find func(x string) string
	find = func(x string) string {
		if p, ok := group[x]; ok && p != x {
			r := find(p)
			group[x] = r
			return r
		}
		group[x] = x
		return x
	}
	for s, files := range sessionFiles {
		for f := range files {
			group[find("s:"+s)] = find("f:" + f)
		}
	}
	sum := map[string]*figs{}
	add := func(g string, n [5]int64, cost float64, sign int64) {
		f := sum[g]
		if f == nil {
			f = &figs{}
			sum[g] = f
		}
		for i := range n {
			f.n[i] += sign * n[i]
		}
		f.cost += float64(sign) * cost
	}
	agt := agtReport(t, corpus, "--by", "session")
	sessions := 0
	for _, r := range agt {
		if r.Totals || r.Total == 0 {
			continue
		}
		sessions++
		add(find("s:"+*r.Provider+"\x00"+*r.Session), r.figures(), *r.Cost, 1)
	}
	for _, r := range cc {
		g := find("f:" + r.Period)
		add(g, r.figures(), r.Cost, -1)
		if p := progress[r.Period]; p != nil {
			add(g, p.n, p.cost, -1)
		}
	}
	if sessions < 20 || len(sum) < 20 {
		t.Fatalf("%d sessions with usage, %d groups", sessions, len(sum))
	}
	for g, f := range sum {
		if f.n != [5]int64{} || math.Abs(f.cost) >= 0.005 {
			t.Errorf("%s: agt minus ccusage (and progress records): %v, $%.4f", strings.ReplaceAll(g, "\x00", " "), f.n, f.cost)
		}
	}
}
