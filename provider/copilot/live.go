package copilot

import "github.com/agt-project/agt"

// result is the last line of `copilot -p --output-format json`:
// {type:"result", timestamp, sessionId, exitCode, usage:{premiumRequests,
// totalApiDurationMs, sessionDurationMs, codeChanges}, outcome?, blocker?}.
// It carries no token counts; it is a meta event that keeps exitCode,
// usage (premiumRequests is Copilot's billing unit, not tokens), outcome
// and blocker.
func (p *events) result(em *agt.Emitter, r *rec) {
	res := r.res
	m := &agt.Meta{Type: "result", Subtype: res.Outcome, Data: agt.Marshal(struct {
		ExitCode *int    `json:"exitCode,omitempty"`
		Usage    agt.Raw `json:"usage,omitempty"`
		Outcome  string  `json:"outcome,omitempty"`
		Blocker  agt.Raw `json:"blocker,omitempty"`
	}{res.ExitCode, res.Usage, res.Outcome, res.Blocker})}
	p.meta(em, r, p.key(r.id), m, "")
}
