package price

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/agt-project/agt"
)

// litellmTierKey matches LiteLLM's long-context rate fields, e.g.
// input_cost_per_token_above_200k_tokens or
// cache_creation_input_token_cost_above_1hr_above_200k_tokens. Variants for
// other service tiers (…_priority, …_flex, …_batches) do not match.
var litellmTierKey = regexp.MustCompile(`^(input_cost_per_token|output_cost_per_token|cache_read_input_token_cost|cache_creation_input_token_cost|cache_creation_input_token_cost_above_1hr)_above_(\d+)k_tokens$`)

// litellmTierField maps the rate part of a long-context field to the tier
// rate it sets.
var litellmTierField = map[string]func(*Tier) **float64{
	"input_cost_per_token":                      func(t *Tier) **float64 { return &t.Input },
	"output_cost_per_token":                     func(t *Tier) **float64 { return &t.Output },
	"cache_read_input_token_cost":               func(t *Tier) **float64 { return &t.CacheRead },
	"cache_creation_input_token_cost":           func(t *Tier) **float64 { return &t.CacheWrite },
	"cache_creation_input_token_cost_above_1hr": func(t *Tier) **float64 { return &t.CacheWrite1h },
}

// ParseLiteLLM reads LiteLLM's model_prices_and_context_window.json. An entry
// without both an input and an output rate per token is left out (an image,
// audio or embedding model, or the sample_spec entry): a half-priced model
// would under-report.
func ParseLiteLLM(data []byte) (map[string]Rates, error) {
	var doc map[string]map[string]any
	if err := agt.API.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a LiteLLM price table: %w", err)
	}
	out := map[string]Rates{}
	for id, e := range doc {
		if r, ok := litellmRates(e); ok {
			out[id] = r
		}
	}
	return out, nil
}

func litellmRates(e map[string]any) (Rates, bool) {
	in, okIn := number(e["input_cost_per_token"])
	outp, okOut := number(e["output_cost_per_token"])
	if !okIn || !okOut {
		return Rates{}, false
	}
	r := Rates{
		Input:        in,
		Output:       outp,
		CacheRead:    ptr(e["cache_read_input_token_cost"]),
		CacheWrite:   ptr(e["cache_creation_input_token_cost"]),
		CacheWrite1h: ptr(e["cache_creation_input_token_cost_above_1hr"]),
	}
	if n, ok := number(e["max_input_tokens"]); ok && n > 0 {
		r.ContextWindow = int64(n)
	} else if n, ok := number(e["max_tokens"]); ok && n > 0 {
		r.ContextWindow = int64(n)
	}
	if pse, ok := e["provider_specific_entry"].(map[string]any); ok {
		if f, ok := number(pse["fast"]); ok && f > 0 {
			r.Fast = f
		}
	}
	r.Provider, _ = e["litellm_provider"].(string)
	r.Mode, _ = e["mode"].(string)

	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	tiers := map[int64]*Tier{}
	for _, k := range keys {
		m := litellmTierKey.FindStringSubmatch(k)
		if m == nil {
			continue
		}
		v := ptr(e[k])
		if v == nil {
			continue
		}
		n, err := strconv.ParseInt(m[2], 10, 64)
		if err != nil || n <= 0 {
			continue
		}
		above := n * 1000
		t := tiers[above]
		if t == nil {
			t = &Tier{Above: above}
			tiers[above] = t
		}
		*litellmTierField[m[1]](t) = v
	}
	for _, t := range tiers {
		r.Tiers = append(r.Tiers, *t)
	}
	slices.SortFunc(r.Tiers, func(a, b Tier) int { return int(a.Above - b.Above) })
	return r, true
}

// number reads a JSON number (LiteLLM writes a few as strings).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, x >= 0
	case int64:
		return float64(x), x >= 0
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil && f >= 0
	}
	return 0, false
}

func ptr(v any) *float64 {
	f, ok := number(v)
	if !ok {
		return nil
	}
	return &f
}
