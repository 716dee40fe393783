package gemini

import "github.com/agt-project/agt"

// How a run ended, as Gemini CLI's records say it (meta.outcome of their
// events).

// resultOutcomes maps the status of a stream-json result line to the status
// it says.
var resultOutcomes = map[string]string{
	"success": agt.OutcomeSuccess,
	"error":   agt.OutcomeError,
}

// messageOutcomes maps the session message types that are signals to the
// status they say: an error Gemini CLI logged (an API error).
var messageOutcomes = map[string]string{"error": agt.OutcomeError}

// errorOutcomes maps the severity of a stream-json error line to the
// status it says; warnings say nothing.
var errorOutcomes = map[string]string{"error": agt.OutcomeError}

// outcome is the outcome key says in table (nil for none), reason the
// agent's text for it, else key is.
func outcome(table map[string]string, key string, reason agt.Raw) *agt.Outcome {
	status, ok := table[key]
	if !ok {
		return nil
	}
	r := reason.Str()
	if r == "" {
		r = key
	}
	return &agt.Outcome{Status: status, Reason: r}
}
