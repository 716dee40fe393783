package pi_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest/transcripts"
)

// runCases are real captures of runs kept in testdata (generated outputs
// of the agent's CLI): each transcript says how its run ended.
var runCases = []transcripts.OutcomeCase{
	{"pi/live/gen__pi-0.73.1__api-error-400.jsonl", agt.OutcomeError, "400 mock: invalid request (simulated)"},
}

func TestRunOutcomes(t *testing.T) { transcripts.CheckOutcomes(t, runCases) }
