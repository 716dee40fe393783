package opencode_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest/transcripts"
)

// runCases are real captures of runs kept in testdata (generated outputs
// of the agent's CLI): each transcript says how its run ended.
var runCases = []transcripts.OutcomeCase{
	{"opencode/live/gen__opencode-1.18.33__api-error-400.jsonl", agt.OutcomeError, "APIError: mock: invalid request (simulated)"},
}

func TestRunOutcomes(t *testing.T) { transcripts.CheckOutcomes(t, runCases) }
