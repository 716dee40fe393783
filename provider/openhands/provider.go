// Package openhands reads OpenHands events, V0 (the OpenHands app before
// the software-agent-sdk) and V1 (the SDK and the CLI on it; see v1.go):
//
//   - openhands-trajectory: a trajectory, the JSON array of events the UI
//     downloads (and save_trajectory_path writes).
//   - openhands-events: a session's event folder
//     (~/.openhands/sessions/<sid>/events/<n>.json, one event per file; V1:
//     ~/.openhands/conversations/<id>/events/event-<nnnnn>-<uuid>.json
//     beside base_state.json), claimed as one input (the folder, or the
//     session or conversation folder holding it): its events in the order
//     of their number, as lines {"openhands":<sid>,"file":<path>,
//     "event":{…}}, then V1's base_state.json as {…,"state":{…}}; each
//     event's src names its file.
//
// An event is an action (action, args) or an observation (observation,
// content, extras, cause = the id of the action it answers), from the user,
// the agent or the environment. Actions the model called carry
// tool_call_metadata: the tool's function name and call id, and the whole
// model response (choices, usage). Events map as follows: a message action
// → user or assistant event by source (system action → system); an action
// with tool_call_metadata → the response's text (once per response) as an
// assistant event, then a tool_call (native name = function_name, input =
// the call's arguments in the response, else the action's args), then the
// response's usage once per response id (scope call); an action without
// it (a user's command, a recall, a condensation, a state change) → a
// tool_call named after the action when it runs something (run,
// run_ipython, read, edit, write, browse…), else meta; an observation with
// a cause that is a call → tool_result (output = content; failed for an
// error observation or a non-zero exit code), else meta (agent state
// changes, recalls). Unknown event shapes are unknown events.
//
// Usage is LiteLLM's (OpenAI's shape): prompt_tokens includes the cached
// tokens and, for Anthropic models, the cache writes; input = prompt −
// cache read − cache write, cache_read = cache_read_input_tokens (else
// prompt_tokens_details.cached_tokens), cache_write =
// cache_creation_input_tokens, output = completion_tokens, reasoning =
// completion_tokens_details.reasoning_tokens; total = total_tokens.
//
// The session of a trajectory is its file's name (the array names none);
// of an event folder, the session's (conversation's) folder name.
package openhands

import (
	"io"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// Format names.
const (
	FormatTrajectory = "openhands-trajectory"
	FormatEvents     = "openhands-events"
)

// Provider is the openhands provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "openhands" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "OpenHands"}
}

// Formats lists the formats read; trajectories are the default.
func (Provider) Formats() []string { return []string{FormatTrajectory, FormatEvents} }

// NewParser returns a parser for one input.
func (Provider) NewParser(format string, _ agt.Options) agt.Parser {
	return &parser{lines: format == FormatEvents, calls: map[int64]string{}, v1calls: map[string]string{}, responses: map[string]bool{}}
}

// Claim makes a session's event folder (V0) or a conversation's folder
// (V1, or V0's session folder holding events/) one input.
func (Provider) Claim(path string, isDir bool) (stage.Input, bool) {
	if !isDir {
		return stage.Input{}, false
	}
	events, sid, state := conversation(path)
	if events == "" {
		return stage.Input{}, false
	}
	return stage.Input{Path: path, Open: func() (io.ReadCloser, error) { return openEvents(events, sid, state) }}, true
}
