package price_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/price"
)

func TestDefault(t *testing.T) {
	d := price.Default()
	if d.Date() != "2026-07-24" {
		t.Errorf("date %q", d.Date())
	}
	if d.Source() == "" {
		t.Error("no source")
	}
	if d.Len() < 150 {
		t.Errorf("only %d models", d.Len())
	}
	// Every family the brief names is present.
	for _, id := range []string{
		"claude-opus-4-8", "claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-5-20251101",
		"gpt-4o", "gpt-4.1", "gpt-5", "gpt-5.5", "gpt-5.1-codex-max", "o3", "o4-mini", "gpt-5-codex",
		"gemini-2.5-pro", "gemini-2.5-flash", "gemini-3-flash-preview",
	} {
		if _, _, ok := d.Rates(id); !ok {
			t.Errorf("%s missing", id)
		}
	}
}

// The embedded file is in its canonical encoding: parsing and encoding it
// again gives the same bytes (so it was generated, not edited by hand).
func TestEmbeddedCanonical(t *testing.T) {
	got, err := os.ReadFile("prices.json")
	if err != nil {
		t.Fatal(err)
	}
	d := price.Default()
	f := price.File{Date: d.Date(), Source: d.Source(), Models: map[string]price.Rates{}}
	for _, id := range d.Models() {
		_, r, _ := d.Rates(id)
		f.Models[id] = r
	}
	var b bytes.Buffer
	if err := price.Encode(&b, f); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), got) {
		t.Fatal("prices.json is not in canonical form: run go generate ./provider/price/")
	}
}

func TestMatch(t *testing.T) {
	d := price.Default()
	for _, c := range []struct{ model, want string }{
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250929"},
		{"claude-sonnet-4-5", "claude-sonnet-4-5"},
		{"Claude-Sonnet-4-5", "claude-sonnet-4-5"},
		{"claude-opus-4-6-20260205", "claude-opus-4-6-20260205"},
		{"claude-opus-4-8-20260801", "claude-opus-4-8"},    // dated, only undated listed
		{"claude-sonnet-4", "claude-sonnet-4-20250514"},    // undated, only dated listed
		{"claude-3-opus", "claude-3-opus-20240229"},        // idem
		{"claude-opus-4.8", "claude-opus-4-8"},             // Copilot's dotted version
		{"claude-haiku-4.5", "claude-haiku-4-5"},           //
		{"anthropic/claude-opus-4-5", "claude-opus-4-5"},   // provider prefixes
		{"openai/gpt-5.5", "gpt-5.5"},                      //
		{"gemini/gemini-2.5-pro", "gemini-2.5-pro"},        //
		{"vertex_ai/gemini-2.5-flash", "gemini-2.5-flash"}, //
		{"models/gemini-2.5-flash", "gemini-2.5-flash"},    //
		{"openrouter/anthropic/claude-sonnet-4.6", "claude-sonnet-4-6"},
		{"generic-copilot/litellm/anthropic/claude-haiku-4.5", "claude-haiku-4-5"},
		{"vertex_ai/claude-opus-4-5@20251101", "claude-opus-4-5-20251101"},
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5-20250929"},
		{"anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5-20251001"},
		{"claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5-20250929-v1:0"}, // exact key wins
		{"openai-codex/gpt-5.6-sol:high", "gpt-5.6-sol"},
		{"claude-opus-4-6[1m]", "claude-opus-4-6"},
		{"gpt-5-2025-08-07", "gpt-5-2025-08-07"},
		{"gpt-4o-2099-01-01", "gpt-4o"},
		{"o1", "o1-2024-12-17"},
		{"gpt-5.3-codex-spark", "gpt-5.3-codex-spark"},
		{"aide-gpt-5", "gpt-5"}, // a gateway's prefix
		{"my-proxy-gpt-5.1-codex", "gpt-5.1-codex"},
		{"  gpt-5.5 ", "gpt-5.5"},
		// Unknown: no guess.
		{"", ""},
		{"<synthetic>", ""},
		{"mock-model", ""},
		{"sonnet[1m]", ""},
		{"opus", ""},
		{"deepseek-v4-flash-free", ""},
		{"moonshotai/kimi-k2-instruct", ""},
		{"minimax-m3", ""},
		{"claude-opus-9", ""},
		{"gpt-7", ""},
	} {
		got, ok := d.Match(c.model)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Match(%q) = %q, %v; want %q", c.model, got, ok, c.want)
		}
		// Cached answers are the same.
		if again, _ := d.Match(c.model); again != got {
			t.Errorf("Match(%q) again = %q", c.model, again)
		}
	}
}

// An undated id takes the entry with the latest date, whatever the order of
// the source.
func TestMatchLatestDate(t *testing.T) {
	tb, err := price.Parse([]byte(`{
		"m-x-2025-01-02": {"input_cost_per_token": 1, "output_cost_per_token": 1},
		"m-x-20250301":   {"input_cost_per_token": 2, "output_cost_per_token": 2},
		"m-x-2024-12-31": {"input_cost_per_token": 3, "output_cost_per_token": 3}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := tb.Match("m-x"); got != "m-x-20250301" {
		t.Errorf("got %q", got)
	}
	if got, _ := tb.Match("m-x-20990101"); got != "m-x-20250301" {
		t.Errorf("got %q", got)
	}
}

func usage(in, read, write, write1h, out int64) *agt.Usage {
	u := &agt.Usage{Scope: agt.ScopeCall, Input: in, CacheRead: read, CacheWrite: write, CacheWrite1h: write1h, Output: out}
	u.Sum()
	return u
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestCost(t *testing.T) {
	tb, err := price.Parse([]byte(`{
		"flat": {"input_cost_per_token": 1e-6, "output_cost_per_token": 5e-6,
			"cache_read_input_token_cost": 1e-7, "cache_creation_input_token_cost": 1.25e-6,
			"cache_creation_input_token_cost_above_1hr": 2e-6, "max_input_tokens": 200000},
		"bare": {"input_cost_per_token": 1e-6, "output_cost_per_token": 4e-6, "max_tokens": 8192},
		"claude-tiered": {"input_cost_per_token": 3e-6, "output_cost_per_token": 1.5e-5,
			"cache_read_input_token_cost": 3e-7, "cache_creation_input_token_cost": 3.75e-6,
			"cache_creation_input_token_cost_above_1hr": 6e-6,
			"input_cost_per_token_above_200k_tokens": 6e-6, "output_cost_per_token_above_200k_tokens": 2.25e-5,
			"cache_read_input_token_cost_above_200k_tokens": 6e-7,
			"cache_creation_input_token_cost_above_200k_tokens": 7.5e-6,
			"max_input_tokens": 1000000},
		"claude-sonnet-4-5": {"input_cost_per_token": 3e-6, "output_cost_per_token": 1.5e-5,
			"input_cost_per_token_above_200k_tokens": 6e-6, "output_cost_per_token_above_200k_tokens": 2.25e-5,
			"max_input_tokens": 200000},
		"claude-tiered-1h": {"input_cost_per_token": 3e-6, "output_cost_per_token": 1.5e-5,
			"cache_creation_input_token_cost_above_1hr": 6e-6,
			"input_cost_per_token_above_200k_tokens": 6e-6,
			"cache_creation_input_token_cost_above_1hr_above_200k_tokens": 1.3e-5},
		"gpt-tiered": {"input_cost_per_token": 5e-6, "output_cost_per_token": 3e-5,
			"cache_read_input_token_cost": 5e-7,
			"input_cost_per_token_above_272k_tokens": 1e-5, "output_cost_per_token_above_272k_tokens": 4.5e-5,
			"cache_read_input_token_cost_above_272k_tokens": 1e-6,
			"input_cost_per_token_above_272k_tokens_priority": 1, "max_input_tokens": 1050000},
		"two-tiers": {"input_cost_per_token": 1, "output_cost_per_token": 1,
			"input_cost_per_token_above_128k_tokens": 2, "input_cost_per_token_above_200k_tokens": 3,
			"output_cost_per_token_above_200k_tokens": 5},
		"fast-model": {"input_cost_per_token": 5e-6, "output_cost_per_token": 2.5e-5,
			"provider_specific_entry": {"fast": 2, "us": 1.1}},
		"image-only": {"output_cost_per_image": 0.04},
		"sample_spec": {"input_cost_per_token": 0, "max_tokens": "LEGACY"}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	run := func(u *agt.Usage) *agt.Usage { u.Scope = agt.ScopeRun; return u }
	for _, c := range []struct {
		name, model, speed string
		u                  *agt.Usage
		want               float64
		window             int64
	}{
		{"every count at its rate", "flat", "", usage(1000, 10000, 3000, 1000, 500),
			1000*1e-6 + 10000*1e-7 + 2000*1.25e-6 + 1000*2e-6 + 500*5e-6, 200000},
		{"all 5-minute writes", "flat", "", usage(0, 0, 1000, 0, 0), 1000 * 1.25e-6, 200000},
		{"all 1-hour writes", "flat", "", usage(0, 0, 1000, 1000, 0), 1000 * 2e-6, 200000},
		{"1-hour above the write total is capped", "flat", "", usage(0, 0, 1000, 5000, 0), 1000 * 2e-6, 200000},
		{"negative counts count as zero", "flat", "", usage(-5, 0, 0, 0, 10), 10 * 5e-6, 200000},
		{"missing cache rates: read and 5m at input, 1h at twice input", "bare", "", usage(10, 100, 1000, 400, 1),
			10*1e-6 + 100*1e-6 + 600*1e-6 + 400*2e-6 + 1*4e-6, 8192},
		{"at the threshold: base rates", "claude-tiered", "", usage(1000, 190000, 9000, 0, 100),
			1000*3e-6 + 190000*3e-7 + 9000*3.75e-6 + 100*1.5e-5, 200000},
		{"above 200k: the whole call at the tier", "claude-tiered", "", usage(1000, 190000, 9001, 0, 100),
			1000*6e-6 + 190000*6e-7 + 9001*7.5e-6 + 100*2.25e-5, 1000000},
		{"above 200k, 1-hour writes keep twice the tier's input", "claude-tiered", "", usage(1000, 199000, 1000, 1000, 0),
			1000*6e-6 + 199000*6e-7 + 1000*1.2e-5, 1000000},
		{"above 200k, an explicit 1-hour tier rate wins", "claude-tiered-1h", "", usage(0, 0, 300000, 300000, 0),
			300000 * 1.3e-5, 1000000},
		{"a window of 200k in the table, priced above it: a prompt above 200k had the larger one", "claude-sonnet-4-5", "", usage(250000, 0, 0, 0, 10),
			250000*6e-6 + 10*2.25e-5, 1000000},
		{"a window of 200k in the table, priced above it: a smaller prompt, 200k", "claude-sonnet-4-5", "", usage(1000, 0, 0, 0, 10),
			1000*3e-6 + 10*1.5e-5, 200000},
		{"a window of 200k in the table, priced above it: [1m] asks for the larger one", "claude-sonnet-4-5[1m]", "", usage(1000, 0, 0, 0, 10),
			1000*3e-6 + 10*1.5e-5, 1000000},
		{"run totals are priced at base rates", "claude-tiered", "", run(usage(1000, 500000, 0, 0, 100)),
			1000*3e-6 + 500000*3e-7 + 100*1.5e-5, 200000},
		{"a [1m] model has the larger window", "claude-tiered[1m]", "", usage(10, 0, 0, 0, 1), 10*3e-6 + 1*1.5e-5, 1000000},
		{"a [1m] model's run totals too", "anthropic/claude-tiered[1M]", "", run(usage(10, 0, 0, 0, 1)), 10*3e-6 + 1*1.5e-5, 1000000},
		{"272k tier, below", "gpt-tiered", "", usage(72000, 200000, 0, 0, 1000),
			72000*5e-6 + 200000*5e-7 + 1000*3e-5, 1050000},
		{"272k tier, above: output too; priority rates ignored", "gpt-tiered", "", usage(72001, 200000, 0, 0, 1000),
			72001*1e-5 + 200000*1e-6 + 1000*4.5e-5, 1050000},
		{"between two tiers", "two-tiers", "", usage(150000, 0, 0, 0, 10), 150000*2 + 10*1, 0},
		{"above both tiers, rates carried up", "two-tiers", "", usage(250000, 0, 0, 0, 10), 250000*3 + 10*5, 0},
		{"fast mode multiplies", "fast-model", price.SpeedFast, usage(100, 0, 0, 0, 10), 2 * (100*5e-6 + 10*2.5e-5), 0},
		{"standard speed", "fast-model", "", usage(100, 0, 0, 0, 10), 100*5e-6 + 10*2.5e-5, 0},
		{"fast without a multiplier is standard", "flat", price.SpeedFast, usage(100, 0, 0, 0, 0), 100 * 1e-6, 200000},
		{"reasoning is part of output, not extra", "flat", "", &agt.Usage{Output: 100, Reasoning: 60}, 100 * 5e-6, 200000},
	} {
		got, win, ok := tb.CostSpeed(c.model, c.u, c.speed)
		if !ok || !near(got, c.want) || win != c.window {
			t.Errorf("%s: got %.12g, %d, %v; want %.12g, %d", c.name, got, win, ok, c.want, c.window)
		}
	}
	if _, _, ok := tb.Rates("image-only"); ok {
		t.Error("an entry without token prices was kept")
	}
	if _, _, ok := tb.Rates("sample_spec"); ok {
		t.Error("sample_spec was kept")
	}
}

func TestUnknownModel(t *testing.T) {
	d := price.Default()
	u := usage(1000, 1000, 1000, 0, 1000)
	for _, m := range []string{"", "mock-model", "<synthetic>", "x-preview-f-free"} {
		if c, w, ok := d.Cost(m, u); ok || c != 0 || w != 0 {
			t.Errorf("Cost(%q) = %g, %d, %v; want no cost", m, c, w, ok)
		}
	}
	if _, _, ok := d.Cost("gpt-5.5", nil); ok {
		t.Error("nil usage priced")
	}
}

// A LiteLLM file and the generated format load to the same prices.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	lite := filepath.Join(dir, "litellm.json")
	if err := os.WriteFile(lite, []byte(`{"sample_spec": {"max_tokens": "LEGACY"},
		"my-model": {"input_cost_per_token": 2e-6, "output_cost_per_token": 8e-6,
			"cache_read_input_token_cost": 5e-7, "max_input_tokens": 128000, "litellm_provider": "openai", "mode": "chat"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := price.Load(lite)
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() != 1 || a.Date() == "" || a.Source() != "litellm.json" {
		t.Errorf("LiteLLM table: %d models, date %q, source %q", a.Len(), a.Date(), a.Source())
	}
	_, r, _ := a.Rates("my-model")
	var b bytes.Buffer
	if err := price.Encode(&b, price.File{Date: "2026-01-02", Source: "test", Models: map[string]price.Rates{"my-model": r}}); err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(dir, "prices.json")
	if err := os.WriteFile(gen, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := price.Load(gen)
	if err != nil {
		t.Fatal(err)
	}
	if g.Date() != "2026-01-02" || g.Source() != "test" {
		t.Errorf("generated table: date %q, source %q", g.Date(), g.Source())
	}
	u := usage(1000, 2000, 0, 0, 300)
	ca, wa, _ := a.Cost("openai/my-model", u)
	cg, wg, _ := g.Cost("openai/my-model", u)
	want := 1000*2e-6 + 2000*5e-7 + 300*8e-6
	if !near(ca, want) || !near(cg, want) || wa != 128000 || wg != 128000 {
		t.Errorf("costs %g (%d), %g (%d); want %g (128000)", ca, wa, cg, wg, want)
	}

	for _, bad := range []string{`[]`, `not json`, `{}`, `{"a": {"mode": "embedding"}}`} {
		p := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := price.Load(p); err == nil {
			t.Errorf("Load(%s) succeeded", bad)
		}
	}
	if _, err := price.Load(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("Load of a missing file succeeded")
	}
}

// Many goroutines pricing at once (agt-normalize prices on its encoding
// goroutines) get the same answers.
func TestConcurrent(t *testing.T) {
	d := price.Default()
	u := usage(10, 20, 30, 5, 40)
	want, _, _ := d.Cost("anthropic/claude-opus-4.8", u)
	done := make(chan float64)
	for range 8 {
		go func() {
			var c float64
			for range 200 {
				c, _, _ = d.Cost("anthropic/claude-opus-4.8", u)
			}
			done <- c
		}()
	}
	for range 8 {
		if got := <-done; got != want {
			t.Errorf("got %g, want %g", got, want)
		}
	}
}
