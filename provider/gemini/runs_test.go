package gemini_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest/transcripts"
)

// runCases are real captures of runs kept in testdata (generated outputs
// of the agent's CLI): each transcript says how its run ended.
var runCases = []transcripts.OutcomeCase{
	{"gemini/live/gen__gemini-cli-0.61.0__api-error-400.jsonl", agt.OutcomeError, `[API Error: {"error":{"message":"mock: invalid request (simulated)","type":"invalid_request_error","code":"invalid_request"}}]`},
	{"gemini/live/gen__gemini-cli-0.61.0__api-error-400.stderr.json", agt.OutcomeError, `{"error":{"message":"mock: invalid request (simulated)","type":"invalid_request_error","code":"invalid_request"}}`},
}

func TestRunOutcomes(t *testing.T) { transcripts.CheckOutcomes(t, runCases) }
