package opencode

import "github.com/agt-project/agt"

// OpenCode counts tokens per assistant message (and per step, in step-finish
// parts, which add up to the message's count):
//
//   - input is the uncached input (OpenCode subtracts the cache itself);
//   - cache.read and cache.write are separate;
//   - reasoning is counted apart from output, so agt's output (which includes
//     reasoning) is output + reasoning.
//
// Older releases (1.2.x, still on AI SDK 5) stored the SDK's outputTokens,
// which already include the reasoning tokens, in output. Their messages show
// it in total: total = input + output + cache.read + cache.write, with no
// room for the reasoning (corpus: reglint__14-fef5d7e9f9-1.json, 1.2.16,
// output 287 of which reasoning 192, total 13740 = 13453 + 287). Current
// releases have total = input + output + reasoning + cache. So when total is
// stated, reasoning is not zero and total leaves no room for it, output is
// taken as it is.

// usage turns a token count (and its cost, when stated) into a "call" usage.
func usage(t *tokens, cost *float64) *agt.Usage {
	u := &agt.Usage{
		Scope:      agt.ScopeCall,
		Input:      int64(t.Input),
		CacheRead:  int64(t.Cache.Read),
		CacheWrite: int64(t.Cache.Write),
		Output:     int64(t.Output + t.Reasoning),
		Reasoning:  int64(t.Reasoning),
	}
	if outputHasReasoning(t) {
		u.Output = int64(t.Output)
	}
	agt.Taint(u, t.Total)
	if cost != nil {
		c := *cost
		u.NativeCostUSD = &c
	}
	u.Sum()
	return u
}

// outputHasReasoning reports a count whose output already includes its
// reasoning tokens.
func outputHasReasoning(t *tokens) bool {
	return t.Reasoning > 0 && t.Reasoning <= t.Output && t.Total > 0 &&
		t.Total == t.Input+t.Output+t.Cache.Read+t.Cache.Write
}

// spent reports a count or cost that is not zero: a message aborted before
// the model answered has neither, and yields no usage event.
func spent(t *tokens, cost *float64) bool {
	if cost != nil && *cost != 0 {
		return true
	}
	return t != nil && (t.Input != 0 || t.Output != 0 || t.Reasoning != 0 || t.Cache.Read != 0 || t.Cache.Write != 0)
}
