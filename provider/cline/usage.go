package cline

import "github.com/agt-project/agt"

// metrics is the usage of the model call that wrote an assistant message,
// as Cline records it: inputTokens is the whole prompt, cache reads and
// writes included; outputTokens includes reasoning; cost is in USD.
type metrics struct {
	InputTokens      agt.Count `json:"inputTokens"`
	OutputTokens     agt.Count `json:"outputTokens"`
	CacheReadTokens  agt.Count `json:"cacheReadTokens"`
	CacheWriteTokens agt.Count `json:"cacheWriteTokens"`
	Reasoning        int64     `json:"reasoningTokenCount"`
	Cost             *float64  `json:"cost"`
}

// event is m in agt's meaning (scope call): input without the cache reads
// and writes. It is nil when the call spent nothing.
func (m *metrics) event() *agt.Usage {
	if m == nil {
		return nil
	}
	u := &agt.Usage{
		Scope:      agt.ScopeCall,
		Input:      agt.Uncached(m.InputTokens, m.CacheReadTokens, m.CacheWriteTokens),
		CacheRead:  int64(m.CacheReadTokens),
		CacheWrite: int64(m.CacheWriteTokens),
		Output:     int64(m.OutputTokens),
		Reasoning:  m.Reasoning,
	}
	u.Sum()
	if m.Cost != nil {
		c := *m.Cost
		u.NativeCostUSD = &c
	}
	if u.Total == 0 && (u.NativeCostUSD == nil || *u.NativeCostUSD == 0) {
		return nil
	}
	return u
}
