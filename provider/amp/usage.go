package amp

import "github.com/agt-project/agt"

// usage is an assistant message's usage, Anthropic's members.
type usage struct {
	Input      int64 `json:"input_tokens"`
	CacheWrite int64 `json:"cache_creation_input_tokens"`
	CacheRead  int64 `json:"cache_read_input_tokens"`
	Output     int64 `json:"output_tokens"`
	MaxTokens  int64 `json:"max_tokens"`
}

// call is the usage of the model call that wrote the message (the thread
// keeps the same figures under its own names).
func (u *usage) call() *agt.Usage {
	c := &agt.Usage{Scope: agt.ScopeCall, Input: u.Input, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite,
		Output: u.Output, ContextWindow: u.MaxTokens}
	c.Sum()
	return c
}
