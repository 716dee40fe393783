package codex_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest/transcripts"
)

// runCases are real captures of runs kept in testdata (generated outputs
// of the agent's CLI): each transcript says how its run ended.
var runCases = []transcripts.OutcomeCase{
	{"codex/live/gen__codex-0.169.0__turn-failed-400.jsonl", agt.OutcomeError, `{"error": {"message": "mock: invalid request (simulated)", "type": "invalid_request_error", "code": "invalid_request"}}`},
	{"codex/live/gen__codex-0.169.0__turn-failed-disconnect.jsonl", agt.OutcomeError, "stream disconnected before completion: error sending request"},
	{"codex/live/gen__codex-0.169.0__tools.jsonl", agt.OutcomeSuccess, "turn.completed"},
}

func TestRunOutcomes(t *testing.T) { transcripts.CheckOutcomes(t, runCases) }
