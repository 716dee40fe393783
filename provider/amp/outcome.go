package amp

import "github.com/agt-project/agt"

// resultOutcomes maps the subtypes of an --stream-json result line (Claude
// Code's layout) to the status they say (meta.outcome); a result that is an
// error says error whatever its subtype when the subtype is not listed or
// says success.
var resultOutcomes = map[string]string{
	"success":                agt.OutcomeSuccess,
	"error_max_turns":        agt.OutcomeMaxTurns,
	"error_during_execution": agt.OutcomeError,
}

// resultOutcome is the outcome of a result line; text is the error's, for
// an error.
func resultOutcome(subtype string, isError bool, text agt.Raw) *agt.Outcome {
	status, ok := resultOutcomes[subtype]
	switch {
	case isError && (!ok || status == agt.OutcomeSuccess):
		status = agt.OutcomeError
	case !ok:
		status = agt.OutcomeSuccess
	}
	reason := subtype
	if isError && text.Str() != "" {
		reason = text.Str()
	}
	if reason == "" {
		reason = "result"
	}
	return &agt.Outcome{Status: status, Reason: reason}
}
