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
	// Tokens is what the VS Code extension (3.x) writes in its API
	// history instead: prompt is the whole prompt, cached the part read
	// from the cache.
	Tokens *struct {
		Prompt     agt.Count `json:"prompt"`
		Completion agt.Count `json:"completion"`
		Cached     agt.Count `json:"cached"`
	} `json:"tokens"`
}

// event is m in agt's meaning (scope call): input without the cache reads
// and writes. It is nil when the call spent nothing.
func (m *metrics) event() *agt.Usage {
	if m == nil {
		return nil
	}
	if t := m.Tokens; t != nil && m.InputTokens == 0 && m.OutputTokens == 0 {
		return (&metrics{InputTokens: t.Prompt, CacheReadTokens: t.Cached, OutputTokens: t.Completion, Cost: m.Cost}).event()
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

// apiRequest is the JSON text of an api_req_started record (older
// versions: api_req_finished): the request's usage as the extension
// counts it. tokensIn is the prompt without the cache reads and writes
// (Anthropic's input_tokens; a request served from the cache shows
// tokensIn 0 beside its cacheWrites), except where apiProtocol says
// openai (Roo Code and its forks): then it is the whole prompt, the cache
// included (Roo Code's calculateApiCostOpenAI). tokensOut includes
// reasoning, cost is the extension's own figure in USD.
type apiRequest struct {
	Request      string    `json:"request"` // what was sent: a tool's result, the environment
	APIProtocol  string    `json:"apiProtocol"`
	TokensIn     agt.Count `json:"tokensIn"`
	TokensOut    agt.Count `json:"tokensOut"`
	CacheWrites  agt.Count `json:"cacheWrites"`
	CacheReads   agt.Count `json:"cacheReads"`
	Cost         *float64  `json:"cost"`
	CancelReason string    `json:"cancelReason"`
	Failed       string    `json:"streamingFailedMessage"`
}

// usage is r in agt's meaning (scope call), nil when the request spent
// nothing (it was cancelled before a reply, or its figures are not in
// yet).
func (r *apiRequest) usage() *agt.Usage {
	u := &agt.Usage{
		Scope:      agt.ScopeCall,
		Input:      int64(r.TokensIn),
		CacheRead:  int64(r.CacheReads),
		CacheWrite: int64(r.CacheWrites),
		Output:     int64(r.TokensOut),
	}
	if r.APIProtocol == "openai" {
		u.Input = agt.Uncached(r.TokensIn, r.CacheReads, r.CacheWrites)
	}
	u.Sum()
	if r.Cost != nil {
		c := *r.Cost
		u.NativeCostUSD = &c
	}
	if u.Total == 0 && (u.NativeCostUSD == nil || *u.NativeCostUSD == 0) {
		return nil
	}
	return u
}
