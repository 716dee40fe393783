package acp

import (
	"strings"

	"github.com/agt-project/agt"
)

// promptUsage is session/prompt's result.usage (schema v1 unstable, sent by
// claude-agent-acp and Copilot): the tokens of one prompt turn.
type promptUsage struct {
	TotalTokens       agt.Count `json:"totalTokens"`
	InputTokens       agt.Count `json:"inputTokens"`
	OutputTokens      agt.Count `json:"outputTokens"`
	ThoughtTokens     agt.Count `json:"thoughtTokens"`
	CachedReadTokens  agt.Count `json:"cachedReadTokens"`
	CachedWriteTokens agt.Count `json:"cachedWriteTokens"`
}

// quota is session/prompt's result._meta.quota (Gemini CLI): the turn's
// tokens, in total and per model.
type quota struct {
	TokenCount *tokenCount `json:"token_count"`
	ModelUsage []struct {
		Model      string      `json:"model"`
		TokenCount *tokenCount `json:"token_count"`
	} `json:"model_usage"`
}

// tokenCount is a quota count: Gemini's snake_case fields, or the camelCase
// ones other adapters write in the same place.
type tokenCount struct {
	InputTokensSnake  agt.Count `json:"input_tokens"`
	OutputTokensSnake agt.Count `json:"output_tokens"`

	TotalTokens           agt.Count `json:"totalTokens"`
	InputTokens           agt.Count `json:"inputTokens"`
	OutputTokens          agt.Count `json:"outputTokens"`
	CachedInputTokens     agt.Count `json:"cachedInputTokens"`
	CachedWriteTokens     agt.Count `json:"cachedWriteTokens"`
	ReasoningOutputTokens agt.Count `json:"reasoningOutputTokens"`
}

func (t *tokenCount) counts() counts {
	return counts{
		input:   int64(t.InputTokensSnake + t.InputTokens),
		output:  int64(t.OutputTokensSnake + t.OutputTokens),
		total:   int64(t.TotalTokens),
		thought: int64(t.ReasoningOutputTokens),
		cacheRd: int64(t.CachedInputTokens),
		cacheWr: int64(t.CachedWriteTokens),
	}
}

func (u *promptUsage) counts() counts {
	return counts{
		input:   int64(u.InputTokens),
		output:  int64(u.OutputTokens),
		total:   int64(u.TotalTokens),
		thought: int64(u.ThoughtTokens),
		cacheRd: int64(u.CachedReadTokens),
		cacheWr: int64(u.CachedWriteTokens),
	}
}

// counts are an agent's token counts before conversion.
type counts struct {
	input, output, total, thought, cacheRd, cacheWr int64
}

// usage converts counts to agt's one meaning: input without cached tokens,
// output with reasoning. cache says how the agent counts cached input; when
// it is cacheInferred, totalTokens decides: a total equal to input + output
// (+ thought) means the input includes the cache. Thought tokens are taken
// as part of output unless the total counts them apart.
func (c counts) usage(cache int) *agt.Usage {
	cached := c.cacheRd + c.cacheWr
	if cache == cacheInferred {
		cache = cacheExcluded
		if cached > 0 && c.total > 0 && (c.total == c.input+c.output || c.total == c.input+c.output+c.thought) {
			cache = cacheIncluded
		}
	}
	u := &agt.Usage{
		Scope:      agt.ScopeRun,
		Input:      c.input,
		CacheRead:  c.cacheRd,
		CacheWrite: c.cacheWr,
		Output:     c.output,
		Reasoning:  c.thought,
	}
	if cache == cacheIncluded {
		u.Input = max(0, c.input-cached)
	}
	if c.thought > 0 && c.total > 0 && c.total == u.Input+cached+c.output+c.thought {
		u.Output += c.thought
	}
	u.Sum()
	return u
}

func (c counts) zero() bool { return c.input == 0 && c.output == 0 && c.cacheRd == 0 && c.cacheWr == 0 }

// turnUsage is the usage of one session/prompt result: result.usage when
// present, else _meta.quota per model, else its total (never two of them,
// which count the same tokens).
func turnUsage(res *result, cache int) (out []*agt.Event) {
	if res.Usage != nil {
		return []*agt.Event{{Kind: agt.KindUsage, Usage: res.Usage.counts().usage(cache)}}
	}
	if res.Meta == nil || res.Meta.Quota == nil {
		return nil
	}
	q := res.Meta.Quota
	for _, m := range q.ModelUsage {
		if m.TokenCount != nil {
			out = append(out, &agt.Event{Kind: agt.KindUsage, Model: m.Model, Usage: m.TokenCount.counts().usage(cache)})
		}
	}
	if len(out) == 0 && q.TokenCount != nil && !q.TokenCount.counts().zero() {
		out = append(out, &agt.Event{Kind: agt.KindUsage, Usage: q.TokenCount.counts().usage(cache)})
	}
	return out
}

// costs follow one session's cumulative cost (usage_update.cost) and hand
// out what it grew by since the last turn took its share.
type costs struct {
	total float64 // the last cumulative USD cost seen
	taken float64 // the cumulative cost already given to usage events
	seen  bool
	size  int64   // the last context window size seen
	src   agt.Src // the last usage_update line, for a cost left at the end
	raw   agt.Raw
}

// observe records a usage_update.
func (c *costs) observe(u *update, src agt.Src, raw agt.Raw) {
	if u.Size != nil {
		c.size = *u.Size
	}
	if u.Cost == nil || !strings.EqualFold(u.Cost.Currency, "USD") {
		return
	}
	if c.seen && u.Cost.Amount < c.total {
		// a counter that started over (a new agent process): count from zero
		c.taken = 0
	}
	c.total, c.seen, c.src, c.raw = u.Cost.Amount, true, src, raw
}

// take returns the cost not yet given to a usage event, or nil.
func (c *costs) take() *float64 {
	if !c.seen || c.total <= c.taken {
		return nil
	}
	d := c.total - c.taken
	c.taken = c.total
	return &d
}
