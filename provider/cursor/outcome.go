package cursor

import "github.com/agt-project/agt"

// How a run ended, as cursor-agent's stream says it (meta.outcome of its
// events): the result line (its subtype, is_error) and the turn_ended
// marker a run stops early with.

// resultOutcomes maps the subtype of a result line to the status it says; a
// result that is an error says error whatever its subtype.
var resultOutcomes = map[string]string{"success": agt.OutcomeSuccess, "error": agt.OutcomeError}

// turnOutcomes maps the status of a turn_ended marker to the status it says.
var turnOutcomes = map[string]string{"error": agt.OutcomeError}

// resultOutcome is the outcome of a result line, nil when its subtype says
// none and it is no error; the result text of an error is the reason.
func resultOutcome(l *line) *agt.Outcome {
	status, ok := resultOutcomes[l.Subtype]
	if l.IsError {
		status, ok = agt.OutcomeError, true
	}
	if !ok {
		return nil
	}
	reason := l.Subtype
	if l.IsError && l.Result.Str() != "" {
		reason = l.Result.Str()
	}
	return &agt.Outcome{Status: status, Reason: reason}
}

// turnOutcome is the outcome of a turn_ended marker, text its error.
func turnOutcome(status, text string) *agt.Outcome {
	s, ok := turnOutcomes[status]
	if !ok {
		return nil
	}
	if text == "" {
		text = status
	}
	return &agt.Outcome{Status: s, Reason: text}
}
