package acp

import "github.com/agt-project/agt"

// stopOutcomes maps the stop reasons of a session/prompt response (how an
// ACP agent says its turn ended) to the status they say (meta.outcome).
var stopOutcomes = map[string]string{
	"end_turn":          agt.OutcomeSuccess,
	"max_turn_requests": agt.OutcomeMaxTurns,
	"max_tokens":        agt.OutcomeError,
	"refusal":           agt.OutcomeError,
	"cancelled":         agt.OutcomeInterrupted,
}

// promptOutcome is the outcome of a response to session/prompt: its error,
// else its stop reason; nil for another method's or an unknown reason.
func promptOutcome(method string, r *record) *agt.Outcome {
	if method != "session/prompt" {
		return nil
	}
	if r.err != nil {
		reason := r.err.Message
		if reason == "" {
			reason = "error"
		}
		return &agt.Outcome{Status: agt.OutcomeError, Reason: reason}
	}
	if r.result == nil {
		return nil
	}
	status, ok := stopOutcomes[r.result.StopReason]
	if !ok {
		return nil
	}
	return &agt.Outcome{Status: status, Reason: r.result.StopReason}
}
