package copilot

import "github.com/agt-project/agt"

// result is the last line of `copilot -p --output-format json`:
// {type:"result", timestamp, sessionId, exitCode, usage:{premiumRequests,
// totalApiDurationMs, sessionDurationMs, codeChanges}, outcome?, blocker?}.
// It carries no token counts; it is a meta event that keeps exitCode,
// usage (premiumRequests is Copilot's billing unit, not tokens), outcome
// and blocker, and usage.sessionDurationMs as duration_ms (the run's
// duration, as other results state it).
func (p *sessionParser) result(em *agt.Emitter, r *rec) {
	res := r.res
	var d struct {
		Session *int64 `json:"sessionDurationMs"`
	}
	if len(res.Usage) > 0 && res.Usage[0] == '{' && agt.API.Unmarshal(res.Usage, &d) != nil {
		d.Session = nil
	}
	m := &agt.Meta{Type: "result", Subtype: res.Outcome, Data: agt.Marshal(struct {
		ExitCode *int    `json:"exitCode,omitempty"`
		Usage    agt.Raw `json:"usage,omitempty"`
		Outcome  string  `json:"outcome,omitempty"`
		Blocker  agt.Raw `json:"blocker,omitempty"`
		Duration *int64  `json:"duration_ms,omitempty"`
	}{res.ExitCode, res.Usage, res.Outcome, res.Blocker, d.Session})}
	m.Outcome = resultOutcome(res.ExitCode, res.Outcome)
	p.meta(em, r, p.key(r.id), m, "")
}
