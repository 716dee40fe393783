package pi

import "github.com/agt-project/agt"

// piUsage is the usage of one assistant message (one model call) as Pi logs
// it. input excludes cache reads and writes; output includes reasoning
// (reasoning, logged for OpenAI models, is its part); cost is in USD.
type piUsage struct {
	Input       agt.Count `json:"input"`
	Output      agt.Count `json:"output"`
	CacheRead   agt.Count `json:"cacheRead"`
	CacheWrite  agt.Count `json:"cacheWrite"`
	Reasoning   agt.Count `json:"reasoning"`
	TotalTokens agt.Count `json:"totalTokens"`
	Cost        *piCost   `json:"cost"`
}

type piCost struct {
	Total *float64 `json:"total"`
}

// event is u in agt's meaning (scope call), or nil when the call spent
// nothing (aborted and failed requests are logged with zero usage).
func (u *piUsage) event() *agt.Usage {
	if u == nil {
		return nil
	}
	out := &agt.Usage{
		Scope:      agt.ScopeCall,
		Input:      int64(u.Input),
		CacheRead:  int64(u.CacheRead),
		CacheWrite: int64(u.CacheWrite),
		Output:     int64(u.Output),
		Reasoning:  int64(u.Reasoning),
	}
	out.Sum()
	if u.Cost != nil && u.Cost.Total != nil {
		c := *u.Cost.Total
		out.NativeCostUSD = &c
	}
	if out.Total == 0 && (out.NativeCostUSD == nil || *out.NativeCostUSD == 0) {
		return nil
	}
	return out
}
