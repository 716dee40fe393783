package cli

import (
	"strings"
	"testing"
)

// --format otlp carries what was said unless --no-content; a session that
// states no time takes SOURCE_DATE_EPOCH; --no-content with another format
// is a usage error.
func TestTranscriptOTLPOptions(t *testing.T) {
	claude := testdataFile(t, "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	code, with, _ := runCode(t, Transcript, nil, "--format", "otlp", claude)
	if code != 0 || !strings.Contains(with, `"gen_ai.input.messages"`) || !strings.Contains(with, `"gen_ai.tool.call.arguments"`) {
		t.Fatalf("exit %d, content missing: %.200s", code, with)
	}
	code, without, _ := runCode(t, Transcript, nil, "--format", "otlp", "--no-content", claude)
	if code != 0 || without == "" {
		t.Fatalf("--no-content: exit %d", code)
	}
	for _, k := range []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"} {
		if strings.Contains(without, `"`+k+`"`) {
			t.Errorf("--no-content: %s in the trace", k)
		}
	}
	if code, _, stderr := runCode(t, Transcript, nil, "--format", "atif", "--no-content", claude); code != 2 || !strings.Contains(stderr, "--no-content") {
		t.Errorf("--format atif --no-content: exit %d, %s", code, stderr)
	}

	// a live Codex capture states no time
	codex := testdataFile(t, "codex/live/gen__codex-0.169.0__tools.jsonl")
	_, out, _ := runCode(t, Transcript, map[string]string{"SOURCE_DATE_EPOCH": "1767225600"}, "--format", "otlp", codex)
	if !strings.Contains(out, `"startTimeUnixNano":"1767225600000000000"`) || strings.Contains(out, `"startTimeUnixNano":"0"`) {
		t.Errorf("SOURCE_DATE_EPOCH not taken: %.300s", out)
	}
	if code, _, stderr := runCode(t, Transcript, map[string]string{"SOURCE_DATE_EPOCH": "soon"}, "--format", "otlp", codex); code != 2 || !strings.Contains(stderr, "SOURCE_DATE_EPOCH") {
		t.Errorf("SOURCE_DATE_EPOCH=soon: exit %d, %s", code, stderr)
	}
}
