package pi

import "github.com/agt-project/agt"

// piUsage is the usage of one assistant message (one model call) as Pi logs
// it. input excludes cache reads and writes; output includes reasoning
// (reasoning, logged for OpenAI models, is its part); cost is in USD.
type piUsage struct {
	Input       int64   `json:"input"`
	Output      int64   `json:"output"`
	CacheRead   int64   `json:"cacheRead"`
	CacheWrite  int64   `json:"cacheWrite"`
	Reasoning   int64   `json:"reasoning"`
	TotalTokens int64   `json:"totalTokens"`
	Cost        *piCost `json:"cost"`
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
		Input:      u.Input,
		CacheRead:  u.CacheRead,
		CacheWrite: u.CacheWrite,
		Output:     u.Output,
		Reasoning:  u.Reasoning,
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
