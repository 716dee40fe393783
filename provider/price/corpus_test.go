package price_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/price"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// refCost is a row of corpus/reference.json: ccusage's cost of a file. A row
// whose token total differs from ccusage's is one REFERENCE.md marks "*"
// (ccusage misses calls agt counts), so its cost is not comparable.
type refCost struct {
	File         string  `json:"file"`
	Total        int64   `json:"total"`
	CcusageTotal int64   `json:"ccusage_total"`
	CcusageCost  float64 `json:"ccusage_cost_usd"`
}

// strictProviders are the providers whose costs must match ccusage's.
var strictProviders = []string{"claude", "codex"}

// fileCost sums the cost of a file's usage events, each priced by its own
// model, with Claude's fast mode read from the raw record (agt.Usage does not
// carry it).
func fileCost(t *testing.T, tb *price.Table, path string) (cost float64, unknown []string) {
	out, _, _ := providertest.Parse(t, provider.Config{Config: stage.Config{Quiet: true}, Opts: agt.Options{Raw: true}}, path)
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind != agt.KindUsage || ev.Usage == nil {
			continue
		}
		c, _, ok := tb.CostSpeed(ev.Model, ev.Usage, speed(ev.Raw))
		if !ok {
			if ev.Usage.Total != 0 && !slices.Contains(unknown, ev.Model) {
				unknown = append(unknown, ev.Model)
			}
			continue
		}
		cost += c
	}
	return cost, unknown
}

func speed(raw agt.Raw) string {
	var r struct {
		Message struct {
			Usage struct {
				Speed string `json:"speed"`
			} `json:"usage"`
		} `json:"message"`
	}
	if len(raw) == 0 || agt.API.Unmarshal(raw, &r) != nil {
		return ""
	}
	return r.Message.Usage.Speed
}

// TestReferenceCosts compares agt's cost of every corpus file in
// reference.json with ccusage's: within $0.01 for the Claude Code and Codex
// files whose token totals agree; the other rows are logged for comparison.
func TestReferenceCosts(t *testing.T) {
	dir := providertest.CorpusDir(t)
	b, err := os.ReadFile(filepath.Join(dir, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []refCost
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	tb := price.Default()
	t.Logf("%-95s %12s %12s %10s", "file", "agt USD", "ccusage USD", "diff")
	for _, r := range rows {
		path := filepath.Join(dir, filepath.FromSlash(r.File))
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: %v", r.File, err)
			continue
		}
		cost, unknown := fileCost(t, tb, path)
		diff := cost - r.CcusageCost
		prov, _, _ := strings.Cut(r.File, "/")
		strict := slices.Contains(strictProviders, prov)
		mark := ""
		switch {
		case r.Total != r.CcusageTotal:
			mark = " * (tokens differ)"
		case !strict:
			mark = " (comparison)"
		}
		if len(unknown) > 0 {
			mark += " unknown models: " + strings.Join(unknown, ", ")
		}
		t.Logf("%-95s %12.4f %12.4f %+10.4f%s", r.File, cost, r.CcusageCost, diff, mark)
		if strict && r.Total == r.CcusageTotal && math.Abs(diff) > 0.01 {
			t.Errorf("%s: agt $%.4f, ccusage $%.4f (diff %+.4f)", r.File, cost, r.CcusageCost, diff)
		}
	}
}
