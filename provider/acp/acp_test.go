package acp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// testdata is relative to the package folder so that golden files hold no
// path of the machine.
const testdata = "../../testdata/acp"

// TestGolden compares the events of the captures in testdata/acp with their
// golden files (go test ./provider/acp/ -update rewrites them).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdata, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, diag, st := providertest.Parse(t, provider.Config{}, f)
			if diag != "" || st.Errors != 0 || st.Unknown != 0 {
				t.Errorf("errors %d unknown %d: %s", st.Errors, st.Unknown, diag)
			}
			providertest.Golden(t, out, filepath.Join(testdata, "golden", filepath.Base(f)))
		})
	}
}

// liveWant is what each capture of corpus/live/acp must give: the provider
// its initialize result names, and the usage of its one prompt turn.
//   - claude-agent-acp: result.usage {input 5400 (uncached), output 190,
//     cachedRead 4500, cachedWrite 500, total 10590}, cost 0.022275 USD from
//     the one usage_update.
//   - copilot: result.usage {input 7200 including 3600 cached, output 120,
//     total 7320} → input 3600, cache_read 3600; no cost (BYOK).
//   - gemini-cli: result._meta.quota.model_usage gemini-2.5-flash {input
//     13500, output 100}.
var liveWant = []struct {
	prefix, provider             string
	input, cacheRead, cacheWrite int64
	output, total                int64
	cost                         float64
	models                       string
	calls, errors                int
}{
	{"gen__claude-agent-acp-", "claude", 5400, 4500, 500, 190, 10590, 0.022274999999999996, "", 3, 1},
	{"gen__copilot-", "copilot", 3600, 3600, 0, 120, 7320, 0, "", 3, 1},
	{"gen__gemini-cli-0.61.0__acp-fsproxy", "gemini", 13500, 0, 0, 100, 13600, 0, "gemini-2.5-flash", 3, 2},
	{"gen__gemini-cli-", "gemini", 13500, 0, 0, 100, 13600, 0, "gemini-2.5-flash", 3, 1},
}

// TestLiveCorpus checks every capture of corpus/live/acp: detected as acp,
// every line in some event's src, no unknown or error events, every result
// linked to its call, the provider the agent names, the usage of the turn,
// identical bytes on a second run with one worker.
func TestLiveCorpus(t *testing.T) {
	files := providertest.LiveFiles(t, "acp", "*.jsonl")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, diag, st := providertest.Parse(t, provider.Config{}, f)
			again, _, _ := providertest.Parse(t, provider.Config{Config: stage.Config{Workers: 1}}, f)
			if !bytes.Equal(out, again) {
				t.Errorf("second run (1 worker) differs")
			}
			if diag != "" || st.Errors != 0 || st.Unknown != 0 {
				t.Errorf("errors %d unknown %d: %s", st.Errors, st.Unknown, diag)
			}
			evs := providertest.Events(t, out)
			checkLines(t, f, evs)
			var want = liveWant[len(liveWant)-1]
			found := false
			for _, w := range liveWant {
				if strings.HasPrefix(filepath.Base(f), w.prefix) {
					want, found = w, true
					break
				}
			}
			if !found {
				t.Fatalf("no expectation for %s", filepath.Base(f))
			}
			var sum agt.Usage
			var models []string
			calls, results, errs := map[string]string{}, 0, 0
			for _, ev := range evs {
				if ev.Format != "acp" || ev.Provider != want.provider {
					t.Fatalf("provider/format %s/%s, want %s/acp", ev.Provider, ev.Format, want.provider)
				}
				switch ev.Kind {
				case agt.KindUsage:
					sum.Add(ev.Usage)
					if ev.Model != "" {
						models = append(models, ev.Model)
					}
				case agt.KindToolCall:
					calls[ev.Tool.ID] = ev.ID
				case agt.KindToolResult:
					results++
					if ev.Result.Call == "" || ev.Result.Call != calls[ev.Result.ID] {
						t.Errorf("result %s not linked to its call", ev.Result.ID)
					}
					if ev.Result.IsError {
						errs++
					}
				}
			}
			got := [5]int64{sum.Input, sum.CacheRead, sum.CacheWrite, sum.Output, sum.Total}
			exp := [5]int64{want.input, want.cacheRead, want.cacheWrite, want.output, want.total}
			if got != exp {
				t.Errorf("usage %v, want %v", got, exp)
			}
			var cost float64
			if sum.NativeCostUSD != nil {
				cost = *sum.NativeCostUSD
			}
			if cost != want.cost {
				t.Errorf("native cost %v, want %v", cost, want.cost)
			}
			if strings.Join(models, ",") != want.models {
				t.Errorf("models %v, want %s", models, want.models)
			}
			if len(calls) != want.calls || results != want.calls || errs != want.errors {
				t.Errorf("calls %d results %d errors %d, want %d %d %d", len(calls), results, errs, want.calls, want.calls, want.errors)
			}
			t.Logf("lines %d events %d errors %d unknown %d", st.Lines, st.Events, st.Errors, st.Unknown)
		})
	}
}

// checkLines fails for every non-blank line of path that no event names in
// its src.
func checkLines(t *testing.T, path string, evs []agt.Event) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, ev := range evs {
		seen[ev.Src.Line] = true
	}
	for i, l := range strings.Split(string(raw), "\n") {
		if strings.TrimSpace(l) != "" && !seen[int64(i+1)] {
			t.Errorf("line %d yields no event", i+1)
		}
	}
}
