// Command gen writes provider/price/prices.json, the embedded price table,
// from LiteLLM's model_prices_and_context_window.json:
//
//	go run ./provider/price/internal/gen [-o FILE] [-provenance FILE] [-date YYYY-MM-DD] [-source TEXT] [LITELLM.json]
//
// LITELLM.json defaults to ../shared/pricing/litellm-prices.json next to the
// repository; the snapshot's date and origin are read from the PROVENANCE.md
// beside it unless -date and -source are given. The table keeps the text
// models (modes in keepModes) with an input and an output rate, applies the
// corrections below, and is written compact and sorted (price.Encode).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/agt-project/agt/provider/price"
)

// keepModes are the LiteLLM modes of text models; "" is an entry without a
// mode.
var keepModes = map[string]bool{"chat": true, "responses": true, "completion": true, "": true}

// correction changes one entry of the snapshot where it is known to be stale.
type correction struct {
	model string
	why   string
	apply func(*price.Rates)
}

// corrections are applied after filtering, in this order; an entry missing
// from the snapshot is an error, so that a stale correction is noticed.
var corrections = []correction{
	{
		model: "claude-opus-4-8",
		why: "the mirror keeps the fast-mode multiplier the entry was added with (6, Opus 4.6's); " +
			"fast mode is billed at 2x from Opus 4.8 on, as claude-opus-5 in the same snapshot " +
			"and ccusage 20's fast-multiplier overrides have it",
		apply: func(r *price.Rates) { r.Fast = 2 },
	},
	{
		model: "gpt-5.6-luna",
		why: "OpenAI cut GPT-5.6 Luna's prices to a fifth ($0.20/$0.02/$1.20 per MTok input/cached/output) " +
			"from 2026-07-30, after the snapshot; the mirror does not update existing entries",
		apply: func(r *price.Rates) { scale(r, 0.2) },
	},
	{
		model: "gpt-5.6-terra",
		why: "OpenAI cut GPT-5.6 Terra's prices by a fifth ($2.00/$0.20/$12.00 per MTok) from 2026-07-30, " +
			"after the snapshot",
		apply: func(r *price.Rates) { scale(r, 0.8) },
	},
}

// scale multiplies every rate of r, tiers included, by f.
func scale(r *price.Rates, f float64) {
	mul := func(p *float64) *float64 {
		if p == nil {
			return nil
		}
		v := round(*p * f)
		return &v
	}
	r.Input, r.Output = round(r.Input*f), round(r.Output*f)
	r.CacheRead, r.CacheWrite, r.CacheWrite1h = mul(r.CacheRead), mul(r.CacheWrite), mul(r.CacheWrite1h)
	for i := range r.Tiers {
		t := &r.Tiers[i]
		t.Input, t.Output, t.CacheRead, t.CacheWrite, t.CacheWrite1h = mul(t.Input), mul(t.Output), mul(t.CacheRead), mul(t.CacheWrite), mul(t.CacheWrite1h)
	}
}

// round drops the binary noise of a product (2e-7 rather than 2.0000000000000002e-7).
func round(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return f
}

var (
	provDate   = regexp.MustCompile(`\((\d{4}-\d{2}-\d{2})\)`)
	provRepo   = regexp.MustCompile(`(github\.com/[\w.-]+/[\w.-]+)`)
	provCommit = regexp.MustCompile(`commit ([0-9a-f]{7,40})`)
)

func main() {
	out := flag.String("o", "", "output file (default provider/price/prices.json in the repository)")
	prov := flag.String("provenance", "", "PROVENANCE.md giving the snapshot's date and origin (default: beside the input)")
	date := flag.String("date", "", "snapshot date, YYYY-MM-DD (default: from the provenance file)")
	source := flag.String("source", "", "where the snapshot comes from (default: from the provenance file)")
	flag.Parse()
	if err := run(*out, *prov, *date, *source, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, prov, date, source, in string) error {
	root, err := repoRoot()
	if err != nil && (in == "" || out == "") {
		return err
	}
	if in == "" {
		in = filepath.Join(root, "..", "shared", "pricing", "litellm-prices.json")
	}
	if out == "" {
		out = filepath.Join(root, "provider", "price", "prices.json")
	}
	if prov == "" {
		prov = filepath.Join(filepath.Dir(in), "PROVENANCE.md")
	}
	if date == "" || source == "" {
		d, s, err := provenance(prov)
		if err != nil {
			return fmt.Errorf("%w (or give -date and -source)", err)
		}
		if date == "" {
			date = d
		}
		if source == "" {
			source = s
		}
	}

	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	all, err := price.ParseLiteLLM(data)
	if err != nil {
		return err
	}
	models := map[string]price.Rates{}
	for id, r := range all {
		if keepModes[r.Mode] {
			models[id] = r
		}
	}
	for _, c := range corrections {
		r, ok := models[c.model]
		if !ok {
			return fmt.Errorf("correction for %s: not in the snapshot", c.model)
		}
		c.apply(&r)
		models[c.model] = r
	}

	if len(corrections) > 0 {
		source += "; corrected:"
		for i, c := range corrections {
			if i > 0 {
				source += ","
			}
			source += " " + c.model
		}
		source += " (see provider/price/internal/gen)"
	}
	var b bytes.Buffer
	if err := price.Encode(&b, price.File{Date: date, Source: source, Models: models}); err != nil {
		return err
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: %s: %d models (of %d priced), %s, %s\n", filepath.Base(out), len(models), len(all), date, source)
	return nil
}

// provenance reads the snapshot's date and origin from PROVENANCE.md.
func provenance(path string) (date, source string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", err
	}
	d := provDate.FindSubmatch(b)
	r := provRepo.FindSubmatch(b)
	c := provCommit.FindSubmatch(b)
	if d == nil || r == nil || c == nil {
		return "", "", fmt.Errorf("%s: no date, repository or commit found", path)
	}
	return string(d[1]), fmt.Sprintf("LiteLLM model_prices_and_context_window.json via %s@%s", r[1], c[1]), nil
}

// repoRoot is the folder of go.mod above the working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}
