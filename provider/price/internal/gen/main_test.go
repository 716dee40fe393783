package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/price"
)

// sharedPrices is the LiteLLM snapshot the embedded table is generated from,
// or the test is skipped.
func sharedPrices(t *testing.T) (root, in string) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	in = filepath.Join(root, "..", "shared", "pricing", "litellm-prices.json")
	if _, err := os.Stat(in); err != nil {
		t.Skipf("LiteLLM snapshot not found: %v", err)
	}
	return root, in
}

// The committed prices.json is exactly what the generator writes from the
// shared snapshot: it was regenerated, not edited by hand.
func TestCommittedTableIsGenerated(t *testing.T) {
	root, in := sharedPrices(t)
	out := filepath.Join(t.TempDir(), "prices.json")
	if err := run(out, "", "", "", in); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(root, "provider", "price", "prices.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("provider/price/prices.json differs from the generator's output: run go generate ./provider/price/")
	}
}

// Loading the LiteLLM snapshot itself (agt-normalize --prices) prices every
// model as the embedded table does, except the corrected entries.
func TestLiteLLMFileAgreesWithTable(t *testing.T) {
	_, in := sharedPrices(t)
	lite, err := price.Load(in)
	if err != nil {
		t.Fatal(err)
	}
	corrected := map[string]bool{}
	for _, c := range corrections {
		corrected[c.model] = true
	}
	def := price.Default()
	u := &agt.Usage{Scope: agt.ScopeCall, Input: 1000, CacheRead: 300000, CacheWrite: 2000, CacheWrite1h: 500, Output: 700}
	n := 0
	for _, id := range def.Models() {
		if corrected[id] {
			continue
		}
		a, wa, oka := def.CostSpeed(id, u, price.SpeedFast)
		b, wb, okb := lite.CostSpeed(id, u, price.SpeedFast)
		if !oka || !okb || a != b || wa != wb {
			t.Errorf("%s: table %g (%d, %v), LiteLLM file %g (%d, %v)", id, a, wa, oka, b, wb, okb)
		}
		n++
	}
	if n < 150 {
		t.Errorf("only %d models compared", n)
	}
}

func TestProvenance(t *testing.T) {
	p := filepath.Join(t.TempDir(), "PROVENANCE.md")
	text := "as published in the MIT-licensed mirror github.com/Some-One/price-repo\nat commit abc1234 (2026-01-31): 12 models\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	d, s, err := provenance(p)
	if err != nil || d != "2026-01-31" || s != "LiteLLM model_prices_and_context_window.json via github.com/Some-One/price-repo@abc1234" {
		t.Errorf("got %q, %q, %v", d, s, err)
	}
	if err := os.WriteFile(p, []byte("no date here"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := provenance(p); err == nil {
		t.Error("a provenance file without a date was accepted")
	}
}
