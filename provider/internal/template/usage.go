package template

import "github.com/agt-project/agt"

// usage is a usage record's token counts.
type usage struct {
	In  agt.Count `json:"input"`
	Out agt.Count `json:"output"`
}

// calls is the usage of one model call.
func (u usage) call() *agt.Usage {
	return &agt.Usage{Scope: "call", Input: int64(u.In), Output: int64(u.Out), Total: int64(u.In + u.Out)}
}
