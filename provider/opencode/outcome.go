package opencode

import "github.com/agt-project/agt"

// errorOutcomes maps the names of the errors OpenCode reports that are not
// failures to the status they say (meta.outcome): an aborted message is
// the user's interrupt. Every other error says error.
var errorOutcomes = map[string]string{"MessageAbortedError": agt.OutcomeInterrupted}

// errorOutcome is the outcome of an error OpenCode reports, text its
// reason.
func errorOutcome(name, text string) *agt.Outcome {
	status, ok := errorOutcomes[name]
	if !ok {
		status = agt.OutcomeError
	}
	return &agt.Outcome{Status: status, Reason: text}
}

// stepOutcomes maps the finish reasons of a step (one model call) that end
// OpenCode's turn to the status they say: the model stopped. A step that
// calls tools goes on.
var stepOutcomes = map[string]string{"stop": agt.OutcomeSuccess}

// stepOutcome is the outcome of a step's finish reason, nil for none.
func stepOutcome(reason string) *agt.Outcome {
	status, ok := stepOutcomes[reason]
	if !ok {
		return nil
	}
	return &agt.Outcome{Status: status, Reason: reason}
}
