package price

import (
	"slices"
	"strings"

	"github.com/agt-project/agt"
)

// SpeedFast is Claude's usage.speed of a request served in fast mode.
const SpeedFast = "fast"

// Cost prices one usage record of model at standard speed. It returns the
// cost in USD, the model's context window (max input tokens, 0 when the table
// does not say) and whether the model is in the table; an unknown model gets
// no cost.
func (t *Table) Cost(model string, u *agt.Usage) (cost float64, contextWindow int64, ok bool) {
	if u == nil {
		return t.CostSpeed(model, u, "")
	}
	return t.CostSpeed(model, u, u.Speed)
}

// CostSpeed is Cost for a request served at speed: SpeedFast multiplies the
// cost by the model's fast-mode multiplier (none when the table has none).
func (t *Table) CostSpeed(model string, u *agt.Usage, speed string) (cost float64, contextWindow int64, ok bool) {
	id, ok := t.Match(model)
	if !ok || u == nil {
		return 0, 0, false
	}
	r := t.models[id]
	return r.cost(u, speed), r.window(id, model, u), true
}

// Window is the context window of model in a session whose usage tells
// nothing of its prompts (it has none, or only run totals): the table's
// window, Claude's smaller one unless the id asks for "[1m]". 0 when the
// model is not in the table or the table gives no window.
func (t *Table) Window(model string) int64 {
	id, ok := t.Match(model)
	if !ok {
		return 0
	}
	return t.models[id].window(id, model, &agt.Usage{Scope: agt.ScopeRun})
}

// StandardWindow is the context window Claude models are sold with unless a
// session asks for their larger one (Claude Code's "[1m]" models, the
// context-1m beta).
const StandardWindow = 200_000

// LargeWindow is the larger context window Claude models are sold with
// (the 1M-token context).
const LargeWindow = 1_000_000

// window is the context window of a call (or run) of model, matched as id:
// the table's, except for Claude models sold with two windows: those the
// table lists with a window larger than StandardWindow, and those it
// prices above StandardWindow tokens of prompt (a tier that only the
// larger window can reach: Sonnet 4.5's table window is 200,000, yet its
// prompts above 200k have a price). A session has the larger window only
// when it asked for it (a "[1m]" suffix on the model id) or when a call's
// prompt (input + cache_read + cache_write) did not fit in the smaller
// one: the evidence the price follows. A run total says nothing of any one
// call's prompt.
func (r *Rates) window(id, model string, u *agt.Usage) int64 {
	w := r.ContextWindow
	if !strings.HasPrefix(id, "claude-") {
		return w
	}
	large := w
	if large <= StandardWindow && slices.ContainsFunc(r.Tiers, func(t Tier) bool { return t.Above >= StandardWindow }) {
		large = LargeWindow
	}
	if large <= StandardWindow {
		return w
	}
	if strings.HasSuffix(strings.ToLower(strings.TrimSpace(model)), "[1m]") {
		return large
	}
	if u.Scope != agt.ScopeRun && pos(u.Input)+pos(u.CacheRead)+pos(u.CacheWrite) > StandardWindow {
		return large
	}
	return min(w, StandardWindow)
}

// flat are the rates that apply to one request, every one set.
type flat struct{ input, output, cacheRead, cacheWrite, cacheWrite1h float64 }

// at returns the rates for a request whose prompt is prompt tokens (0: the
// base rates).
func (r *Rates) at(prompt int64) flat {
	f := flat{input: r.Input, output: r.Output}
	f.cacheRead = or(r.CacheRead, f.input)
	f.cacheWrite = or(r.CacheWrite, f.input)
	f.cacheWrite1h = or(r.CacheWrite1h, 2*f.input)
	for _, t := range r.Tiers {
		if prompt <= t.Above {
			break
		}
		prevIn := f.input
		f.input = or(t.Input, f.input)
		f.output = or(t.Output, f.output)
		f.cacheRead = or(t.CacheRead, f.cacheRead)
		f.cacheWrite = or(t.CacheWrite, f.cacheWrite)
		switch {
		case t.CacheWrite1h != nil:
			f.cacheWrite1h = *t.CacheWrite1h
		case prevIn > 0:
			f.cacheWrite1h *= f.input / prevIn
		}
	}
	return f
}

func (r *Rates) cost(u *agt.Usage, speed string) float64 {
	in, read, write, out := pos(u.Input), pos(u.CacheRead), pos(u.CacheWrite), pos(u.Output)
	w1h := min(pos(u.CacheWrite1h), write)
	var prompt int64
	if u.Scope != agt.ScopeRun {
		prompt = in + read + write
	}
	f := r.at(prompt)
	c := float64(in)*f.input +
		float64(read)*f.cacheRead +
		float64(write-w1h)*f.cacheWrite +
		float64(w1h)*f.cacheWrite1h +
		float64(out)*f.output
	if speed == SpeedFast && r.Fast > 0 {
		c *= r.Fast
	}
	return c
}

func or(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

func pos(n int64) int64 { return max(n, 0) }
