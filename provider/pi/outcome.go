package pi

import "github.com/agt-project/agt"

// stopOutcomes maps the stop reasons of an assistant message that end
// Pi's turn to the status they say (meta.outcome): the model stopped, the
// call failed, the user aborted it. A tool use goes on; a length stop says
// nothing.
var stopOutcomes = map[string]string{
	"stop":    agt.OutcomeSuccess,
	"error":   agt.OutcomeError,
	"aborted": agt.OutcomeInterrupted,
}

// stopOutcome is the outcome of an assistant message, nil for none; its
// error message is the reason, else its stop reason is.
func stopOutcome(m *message) *agt.Outcome {
	status, ok := stopOutcomes[m.StopReason]
	if !ok {
		return nil
	}
	reason := m.ErrorMessage
	if reason == "" {
		reason = m.StopReason
	}
	return &agt.Outcome{Status: status, Reason: reason}
}
