package claude

import (
	"strings"

	"github.com/agt-project/agt"
)

// How a run or a turn ended, as Claude Code's records say it (meta.outcome
// of their events).

// resultOutcomes maps the subtypes of a live result record to the status
// they say. A result that is an error (is_error) says error whatever its
// subtype when the subtype is not listed or says success: an API error is a
// "success" result with is_error set.
var resultOutcomes = map[string]string{
	"success":                             agt.OutcomeSuccess,
	"error_max_turns":                     agt.OutcomeMaxTurns,
	"error_during_execution":              agt.OutcomeError,
	"error_max_budget_usd":                agt.OutcomeError,
	"error_max_structured_output_retries": agt.OutcomeError,
}

// systemOutcomes are the system subtypes that are signals: the end of a
// turn, and the errors Claude Code logs (an API error with its retries, a
// request error).
var systemOutcomes = map[string]string{
	"turn_duration": agt.OutcomeSuccess,
	"api_error":     agt.OutcomeError,
	"error":         agt.OutcomeError,
}

// stopOutcomes are the stop reasons of an assistant message that end the
// agent's turn.
var stopOutcomes = map[string]string{"end_turn": agt.OutcomeSuccess}

// interrupted begins the text Claude Code writes as the user's when the
// user interrupts a turn ("[Request interrupted by user]", "… for tool
// use]"), as a JSON string literal.
const interrupted = `"[Request interrupted by user`

// resultOutcome is the outcome of a live result record.
func resultOutcome(r *record) *agt.Outcome {
	status, ok := resultOutcomes[r.Subtype]
	switch {
	case r.IsError && (!ok || status == agt.OutcomeSuccess):
		status = agt.OutcomeError
	case !ok:
		status = agt.OutcomeSuccess
	}
	reason := r.Subtype
	if r.IsError {
		reason = firstNonEmpty(firstNonEmpty(text(r.Result).Str(), strings.Join(r.Errors, "\n")), r.Subtype)
	}
	return &agt.Outcome{Status: status, Reason: reason}
}

// systemOutcome is the outcome a system record says, nil for none.
func systemOutcome(r *record) *agt.Outcome {
	status, ok := systemOutcomes[r.Subtype]
	if !ok {
		return nil
	}
	reason := r.Subtype
	if agt.Failed(status) {
		reason = firstNonEmpty(firstNonEmpty(text(r.Content).Str(), errorMessage(r.Error)), r.Subtype)
	}
	return &agt.Outcome{Status: status, Reason: reason}
}

// assistantOutcome is the outcome an assistant record says: an API error
// (isApiErrorMessage, or the error the live output names), whose text is
// the reason, or the end of the turn; nil for none.
func assistantOutcome(d *decoded) *agt.Outcome {
	r := &d.rec
	if r.APIError || (len(r.Error) > 2 && r.Error[0] == '"') {
		reason := agt.Raw(d.text).Str()
		for _, b := range d.blocks {
			if reason == "" && b.Type == "text" {
				reason = agt.Raw(b.Text).Str()
			}
		}
		return &agt.Outcome{Status: agt.OutcomeError, Reason: firstNonEmpty(reason, errorMessage(r.Error))}
	}
	if m := r.Message; m != nil {
		if status, ok := stopOutcomes[m.StopReason]; ok {
			return &agt.Outcome{Status: status, Reason: m.StopReason}
		}
	}
	return nil
}

// userOutcome is the outcome a user text (a JSON string literal) says: an
// interrupt, the text its reason; nil for none.
func userOutcome(lit string) *agt.Outcome {
	if !strings.HasPrefix(lit, interrupted) {
		return nil
	}
	return &agt.Outcome{Status: agt.OutcomeInterrupted, Reason: agt.Raw(lit).Str()}
}

// errorMessage is an error field's text: the string itself, or the message
// of an error object.
func errorMessage(r raw) string {
	switch {
	case len(r) > 2 && r[0] == '"':
		return agt.Raw(r).Str()
	case len(r) > 2 && r[0] == '{':
		var e struct {
			Message string `json:"message"`
		}
		if agt.API.Unmarshal(r, &e) == nil {
			return e.Message
		}
	}
	return ""
}
