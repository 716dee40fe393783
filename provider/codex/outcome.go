package codex

import "github.com/agt-project/agt"

// How a run or a turn ended, as Codex's records say it (meta.outcome of
// their events).

// eventOutcomes maps the rollout event_msg types that are signals to the
// status they say: a turn completed or aborted, and the errors Codex logs
// (a failed turn's error, a stream error with its retries).
var eventOutcomes = map[string]string{
	"task_complete": agt.OutcomeSuccess,
	"turn_complete": agt.OutcomeSuccess,
	"turn_aborted":  agt.OutcomeInterrupted,
	"error":         agt.OutcomeError,
	"stream_error":  agt.OutcomeError,
}

// liveOutcomes maps the exec --json line types that are signals to the
// status they say. Error items (item.completed of type error) are notices
// the turn goes on after (a model metadata fallback), not signals.
var liveOutcomes = map[string]string{
	"turn.completed": agt.OutcomeSuccess,
	"turn.failed":    agt.OutcomeError,
	"error":          agt.OutcomeError,
}

// outcome is the outcome of a signal of type typ (a table's), nil when typ
// is none; reason is Codex's own text for it (an error message, an abort's
// reason), else the type is.
func outcome(table map[string]string, typ string, reason agt.Raw) *agt.Outcome {
	status, ok := table[typ]
	if !ok {
		return nil
	}
	r := reason.Str()
	if r == "" {
		r = typ
	}
	return &agt.Outcome{Status: status, Reason: r}
}
