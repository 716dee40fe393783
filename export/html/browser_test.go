package html_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// agtTranscript is agt-transcript, built once (removed by TestMain).
func agtTranscript(t *testing.T) string { return providertest.Filter(t, "agt-transcript") }

func TestMain(m *testing.M) {
	code := m.Run()
	providertest.RemoveFilters()
	os.Exit(code)
}

// browserResult is what tools/browser/check.mjs tells of a page.
type browserResult struct {
	Page     string   `json:"page"`
	Console  []string `json:"console"`
	Requests []string `json:"requests"`
	Dialogs  int      `json:"dialogs"`
	CSP      []string `json:"csp"`
	Calls    []string `json:"calls"`
	Opened   *bool    `json:"opened"`
	Overflow *int     `json:"overflow"`
	Rows     int      `json:"rows"`
	Filtered int      `json:"filtered"`
	Sorted   string   `json:"sorted"`
	Shows    bool     `json:"shows"`
	Prints   *bool    `json:"printsFolded"`
}

// browser is the node and the tool folder that drive Chromium, or a skip.
func browser(t *testing.T) string {
	tool := filepath.Join(providertest.RepoRoot(t), "tools", "browser")
	chromium := os.Getenv("AGT_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Skip("chromium not installed (apt-get install chromium, as .ci/run does)")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed")
	}
	if _, err := os.Stat(filepath.Join(tool, "node_modules", "playwright-core")); err != nil {
		t.Skip("playwright-core not installed (npm ci --prefix tools/browser, as .ci/run does)")
	}
	return tool
}

// TestBrowser converts every corpus session (with -short: the two of make
// demo) and a hostile one with
// --format html -o and opens each page and the index in headless
// Chromium: no console error, no request, no dialog, no CSP violation;
// every tool call of the transcript shown; a folded result opens on a
// click; the hostile session's text shown as text; the index's filter
// narrows its rows. Screenshots of one session at 390 and 1280 px and of
// the index are written to the test's artifact folder (go test -artifacts
// keeps them).
func TestBrowser(t *testing.T) {
	tool := browser(t)
	bin := agtTranscript(t)
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"-q", "--format", "html", "-o", out, hostileLog(t, t.TempDir())}
	switch {
	case testing.Short():
		// the hostile session and the two sessions of make demo
		args = append(args, providertest.Sample(t, "agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl"),
			providertest.Sample(t, "agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl"))
	case os.Getenv("AGT_CORPUS") != "" || corpusThere(t):
		args = append(args, providertest.CorpusDir(t))
	}
	cmd := exec.Command(bin, args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("agt-transcript: %v\n%s", err, b)
	}
	want := calls(t, out)
	shoot := shootPage(want)
	shots := t.ArtifactDir()
	run := exec.Command("node", "check.mjs", "--dir", out, "--shots", shots, "--shoot", shoot, "--filter", "alert(1)", "--text", "<script>alert(1)</script><img src=x onerror=alert(2)></details>")
	run.Dir = tool
	var stderr bytes.Buffer
	run.Stderr = &stderr
	b, err := run.Output()
	if err != nil {
		t.Fatalf("check.mjs: %v\n%s", err, stderr.Bytes())
	}
	var pages int
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r browserResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Console) > 0 || len(r.Requests) > 0 || r.Dialogs > 0 || len(r.CSP) > 0 {
			t.Errorf("%s: console %q, requests %q, %d dialogs, CSP violations %q", r.Page, r.Console, r.Requests, r.Dialogs, r.CSP)
		}
		if r.Opened != nil && !*r.Opened {
			t.Errorf("%s: a folded result did not open on a click", r.Page)
		}
		if r.Page == "index.html" {
			if r.Rows != len(want) || r.Filtered != 1 || r.Sorted != "ascending" {
				t.Errorf("index: %d rows (want %d), %d after the filter (want 1), sort %q", r.Rows, len(want), r.Filtered, r.Sorted)
			}
			continue
		}
		pages++
		if path.Base(r.Page) == hostilePage && !r.Shows {
			t.Errorf("%s: the hostile text is not shown as text", r.Page)
		}
		w, ok := want[r.Page]
		if !ok {
			t.Errorf("%s: a page of no transcript", r.Page)
			continue
		}
		got := slices.Clone(r.Calls)
		slices.Sort(got)
		if !slices.Equal(got, w) {
			t.Errorf("%s: %d tool calls shown, the transcript has %d", r.Page, len(got), len(w))
		}
		if r.Page == shoot && (r.Overflow == nil || *r.Overflow > 0) {
			t.Errorf("%s: wider than a 390 px screen (%v px more)", r.Page, r.Overflow)
		}
		if r.Prints != nil && !*r.Prints {
			t.Errorf("%s: printed, a folded part is not shown", r.Page)
		}
	}
	if pages != len(want) {
		t.Errorf("%d pages opened, %d transcripts", pages, len(want))
	}
	for _, s := range []string{"session-390.png", "session-1280.png", "index-1280.png"} {
		if st, err := os.Stat(filepath.Join(shots, s)); err != nil || st.Size() == 0 {
			t.Errorf("no screenshot %s", s)
		}
	}
	t.Logf("%d pages and the index opened; screenshots in %s", pages, shots)
}

// corpusThere tells whether the shared corpus is present.
func corpusThere(t *testing.T) bool {
	_, err := os.Stat(filepath.Join(providertest.RepoRoot(t), "..", "shared", "corpus", "PROVENANCE.tsv"))
	return err == nil
}

// calls are the tool call ids of each page's transcript (every
// conversation's), sorted, by the page's path in out.
func calls(t *testing.T, out string) map[string][]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, "*", "*"+transcript.ExtTranscript))
	m := map[string][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var tr transcript.Transcript
		if err := json.Unmarshal(b, &tr); err != nil {
			t.Fatal(err)
		}
		ids := []string{}
		add := func(ms []transcript.Message) {
			for _, msg := range ms {
				for _, c := range msg.ToolCalls {
					ids = append(ids, c.ID)
				}
			}
		}
		add(tr.Messages)
		for _, s := range tr.Subagents {
			add(s.Messages)
		}
		slices.Sort(ids)
		rel, _ := filepath.Rel(out, strings.TrimSuffix(f, transcript.ExtTranscript)+".html")
		m[filepath.ToSlash(rel)] = ids
	}
	return m
}

// shootPage is the page screenshot: the one with the most tool calls
// under 60 (a page that shows the parts, not too long), else the hostile
// one.
func shootPage(want map[string][]string) string {
	best, n := "", 0
	for p := range want {
		if path.Base(p) == hostilePage {
			best = p
		}
	}
	for p, ids := range want {
		if len(ids) > n && len(ids) < 60 {
			best, n = p, len(ids)
		}
	}
	return best
}
