package copilot

import (
	"strconv"

	"github.com/agt-project/agt"
)

// How a run or a turn ended, as Copilot CLI's records say it (meta.outcome
// of their events): the types whose typeSpec names an outcome (an error, a
// failed model call, an abort, a completed task), and the result line of
// `copilot -p --output-format json`.

// outcome is the outcome r's type says, nil for none; reason is Copilot's
// text for it, else the type is.
func (r *rec) outcome(reason string) *agt.Outcome {
	if r.spec.outcome == "" {
		return nil
	}
	if reason == "" {
		reason = r.typ
	}
	return &agt.Outcome{Status: r.spec.outcome, Reason: reason}
}

// resultOutcome is the outcome of a result line: its exit code 0 says
// success, another says error; its own outcome text is the reason.
func resultOutcome(exit *int, text string) *agt.Outcome {
	if exit == nil {
		return nil
	}
	o := &agt.Outcome{Status: agt.OutcomeSuccess, Reason: text}
	if *exit != 0 {
		o.Status = agt.OutcomeError
	}
	if o.Reason == "" {
		o.Reason = "exit code " + strconv.Itoa(*exit)
	}
	return o
}
