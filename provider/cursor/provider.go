// Package cursor reads the output of Cursor's command-line agent
// (cursor-agent, also installed as agent):
//
//   - cursor-stream-json: `--print --output-format stream-json`, with or
//     without --stream-partial-output: system/init, user, thinking,
//     assistant, tool_call (started, completed) and result lines.
//   - cursor-json: `--output-format json`, the result line alone.
//   - cursor-transcript: the agent transcripts Cursor keeps under
//     ~/.cursor/projects/<project>/agent-transcripts/ (IDE and CLI agents
//     alike): {"role","message":{"content":[…]}} lines and turn_ended
//     lines, with no ids, times, model or usage.
//
// Live lines map by type: system/init → meta "init" (cwd, and the model,
// which Cursor gives as a display name such as "Claude 4.6 Opus
// (Thinking)": it is kept as written on the events of the run); user → user
// events per text block; thinking deltas → meta events, their text joined
// into one reasoning event at the completed line (or at the next line of
// another kind); tool_call started → tool_call (native name = the single
// key of tool_call, e.g. readToolCall; input = its args); tool_call
// completed → tool_result (output = the success object's content, stdout
// or the whole object; failed on error or rejected); result → meta
// "result", and a usage event (scope run) when it carries usage.
//
// With --stream-partial-output every text delta is its own assistant line
// (with timestamp_ms and no model_call_id) and the whole text follows in one
// more assistant line: the deltas become meta events ("assistant_delta")
// and the whole line the assistant event; deltas no whole line follows are
// joined into one assistant event at the next line of another kind or at
// the end.
//
// Usage: the captures hold none; result.usage {inputTokens,
// outputTokens, cacheReadTokens, cacheWriteTokens} of newer builds is read
// as separate counts (input without the cache), scope run.
package cursor

import "github.com/agt-project/agt"

// Format names.
const (
	FormatStreamJSON = "cursor-stream-json"
	FormatJSON       = "cursor-json"
	FormatTranscript = "cursor-transcript"
)

// Provider is the cursor provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "cursor" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Cursor CLI"}
}

// Formats lists the formats cursor writes; live output is the default.
func (Provider) Formats() []string { return []string{FormatStreamJSON, FormatJSON, FormatTranscript} }

// NewParser returns a parser for one input in format.
func (Provider) NewParser(format string, _ agt.Options) agt.Parser {
	if format == FormatTranscript {
		return &transcriptParser{}
	}
	return &liveParser{calls: map[string]string{}}
}
