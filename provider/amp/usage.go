package amp

import "github.com/agt-project/agt"

// usage is an assistant message's usage, Anthropic's members.
type usage struct {
	Input      agt.Count `json:"input_tokens"`
	CacheWrite agt.Count `json:"cache_creation_input_tokens"`
	CacheRead  agt.Count `json:"cache_read_input_tokens"`
	Output     agt.Count `json:"output_tokens"`
	MaxTokens  agt.Count `json:"max_tokens"`
}

// call is the usage of the model call that wrote the message (the thread
// keeps the same figures under its own names).
func (u *usage) call() *agt.Usage {
	c := &agt.Usage{Scope: agt.ScopeCall, Input: int64(u.Input), CacheRead: int64(u.CacheRead), CacheWrite: int64(u.CacheWrite),
		Output: int64(u.Output), ContextWindow: int64(u.MaxTokens)}
	c.Sum()
	return c
}
