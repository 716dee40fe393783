package amp

import "github.com/agt-project/agt"

// record is one line of stream JSON; only the fields agt uses.
type record struct {
	Type            string   `json:"type"`
	Subtype         string   `json:"subtype"`
	SessionID       string   `json:"session_id"`
	ParentToolUseID string   `json:"parent_tool_use_id"`
	Message         *message `json:"message"`

	// system/init
	Cwd             string  `json:"cwd"`
	Tools           agt.Raw `json:"tools"`
	MCPServers      agt.Raw `json:"mcp_servers"`
	AgentMode       string  `json:"agent_mode"`
	ReasoningEffort string  `json:"reasoning_effort"`

	// result
	IsError    bool    `json:"is_error"`
	DurationMS *int64  `json:"duration_ms"`
	NumTurns   *int64  `json:"num_turns"`
	Result     agt.Raw `json:"result"`
	Error      agt.Raw `json:"error"`
	Usage      agt.Raw `json:"usage"`
	Denials    agt.Raw `json:"permission_denials"`
}

// message is a user or assistant message.
type message struct {
	Role       string  `json:"role"`
	Content    []block `json:"content"`
	StopReason string  `json:"stop_reason"`
	Usage      *usage  `json:"usage"`
}

// block is one content block: a tool result's members are the stream's.
type block struct {
	part
	ToolUseID string  `json:"tool_use_id"`
	Content   agt.Raw `json:"content"`
	IsError   bool    `json:"is_error"`

	exit *int // the exit code in a tool result's payload
}

// decode reads a line and the exit codes of its tool results. A member of
// the wrong type is an error, but the record read so far is kept.
func decode(line []byte) (*record, error) {
	r := &record{}
	err := agt.Decode(line, r)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	if r.Message != nil {
		for i := range r.Message.Content {
			if b := &r.Message.Content[i]; b.Type == "tool_result" {
				b.exit = exitCode([]byte(b.Content.Str()))
			}
		}
	}
	return r, err
}

// exitCode is the exitCode of a tool's result payload ({"output":…,
// "exitCode":N} for shell tools), which the stream stringifies into a tool
// result's content and the thread keeps as run.result.
func exitCode(payload []byte) *int {
	if len(payload) == 0 || payload[0] != '{' {
		return nil
	}
	var p struct {
		ExitCode *int `json:"exitCode"`
	}
	if agt.API.Unmarshal(payload, &p) != nil {
		return nil
	}
	return p.ExitCode
}

// result is a tool_result block's result.
func (b *block) result() *agt.Result { return toolResult(b.ToolUseID, b.Content, b.IsError, b.exit) }
