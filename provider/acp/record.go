package acp

import (
	"bytes"
	"strconv"

	"github.com/agt-project/agt"
)

// Directions of a message.
const (
	dirUnknown  = iota // an unwrapped line: agent stdout, or a log without directions
	dirToAgent         // client → agent
	dirToClient        // agent → client
)

// wrapperDirs maps the "dir" of a capture wrapper to a direction.
var wrapperDirs = map[string]int{
	"client->agent": dirToAgent,
	"agent->client": dirToClient,
}

// Kinds of JSON-RPC message.
const (
	msgInvalid      = iota // JSON, but no JSON-RPC request, notification or response
	msgRequest             // method and id
	msgNotification        // method, no id
	msgResponse            // id and result or error, no method
)

// line is one input line: a JSON-RPC message, or a capture wrapper
// {"dir": "client->agent"|"agent->client", "msg": {…}}.
type line struct {
	Dir string   `json:"dir"`
	Msg *message `json:"msg"`
	message
}

// message is a JSON-RPC 2.0 message with the ACP fields agt reads.
type message struct {
	JSONRPC string    `json:"jsonrpc"`
	ID      agt.Raw   `json:"id"`
	Method  string    `json:"method"`
	Params  *params   `json:"params"`
	Result  agt.Raw   `json:"result"`
	Error   *rpcError `json:"error"`
}

type rpcError struct {
	Code    int64   `json:"code"`
	Message string  `json:"message"`
	Data    agt.Raw `json:"data,omitempty"`
}

// params are the parameters of every ACP method agt reads, in one struct.
type params struct {
	SessionID       string      `json:"sessionId"`
	ProtocolVersion agt.Raw     `json:"protocolVersion"`
	ClientInfo      *agentInfo  `json:"clientInfo"`
	Cwd             string      `json:"cwd"`
	MCPServers      []named     `json:"mcpServers"`
	Prompt          []block     `json:"prompt"`
	Update          *update     `json:"update"`
	ToolCall        *update     `json:"toolCall"` // session/request_permission: a ToolCallUpdate
	Options         []option    `json:"options"`
	Path            string      `json:"path"`
	Line            *int64      `json:"line"`
	Limit           *int64      `json:"limit"`
	Command         string      `json:"command"`
	Args            []string    `json:"args"`
	TerminalID      string      `json:"terminalId"`
	MethodID        string      `json:"methodId"`
	ModeID          string      `json:"modeId"`
	ModelID         string      `json:"modelId"`
	ConfigID        string      `json:"configId"`
	Value           agt.Raw     `json:"value"`
	Meta            *updateMeta `json:"_meta"`
}

type named struct {
	Name string `json:"name"`
}

type option struct {
	OptionID string `json:"optionId"`
	Kind     string `json:"kind"`
}

type agentInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version,omitempty"`
}

// update is a session/update payload (params.update) or a ToolCallUpdate
// (session/request_permission params.toolCall): one struct for all kinds.
type update struct {
	Kind      string  `json:"sessionUpdate"`
	Content   agt.Raw `json:"content"` // a ContentBlock on chunks, an array on tool calls
	MessageID string  `json:"messageId"`

	// tool_call, tool_call_update
	ToolCallID string      `json:"toolCallId"`
	Title      string      `json:"title"`
	ToolKind   string      `json:"kind"`
	Status     string      `json:"status"`
	RawInput   agt.Raw     `json:"rawInput"`
	RawOutput  agt.Raw     `json:"rawOutput"`
	Locations  agt.Raw     `json:"locations"`
	Name       string      `json:"name"`
	Meta       *updateMeta `json:"_meta"`

	// plan, plan_update
	Entries agt.Raw `json:"entries"`
	// available_commands_update
	AvailableCommands []named `json:"availableCommands"`
	// current_mode_update
	CurrentModeID string `json:"currentModeId"`
	// config_option_update
	ConfigOptions []configOption `json:"configOptions"`
	// session_info_update
	UpdatedAt string `json:"updatedAt"`
	// usage_update
	Used *int64 `json:"used"`
	Size *int64 `json:"size"`
	Cost *cost  `json:"cost"`
	// notice
	Severity    string `json:"severity"`
	Description string `json:"description"`
	// state_update (schema v2)
	State agt.Raw `json:"state"`
	// terminal_update, terminal_output_chunk (schema v2)
	TerminalID string `json:"terminalId"`

	// filled by Decode
	blocks   []block // Content read as content blocks (chunks, whole messages)
	exitCode *int    // the exit code a tool's rawOutput states
}

type updateMeta struct {
	ClaudeCode *struct {
		ToolName     string  `json:"toolName"`
		ToolResponse agt.Raw `json:"toolResponse"`
	} `json:"claudeCode"`
}

type configOption struct {
	ID           string  `json:"id"`
	CurrentValue agt.Raw `json:"currentValue"`
}

type cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// block is an ACP ContentBlock: text, image, audio, resource_link, resource.
type block struct {
	Type     string  `json:"type"`
	Text     agt.Raw `json:"text"`
	MimeType string  `json:"mimeType,omitempty"`
	URI      string  `json:"uri,omitempty"`
	Name     string  `json:"name,omitempty"`
	Resource *struct {
		URI      string `json:"uri"`
		MimeType string `json:"mimeType"`
	} `json:"resource"`
}

// result is the result of every ACP method agt reads, in one struct.
type result struct {
	ProtocolVersion   agt.Raw    `json:"protocolVersion"`
	AgentInfo         *agentInfo `json:"agentInfo"`
	AgentCapabilities agt.Raw    `json:"agentCapabilities"`
	SessionID         string     `json:"sessionId"`
	Modes             *struct {
		CurrentModeID string `json:"currentModeId"`
	} `json:"modes"`
	Models *struct {
		CurrentModelID string `json:"currentModelId"`
	} `json:"models"`
	StopReason string       `json:"stopReason"`
	Usage      *promptUsage `json:"usage"`
	Meta       *struct {
		Quota *quota `json:"quota"`
	} `json:"_meta"`
	Outcome *struct {
		Outcome  string `json:"outcome"`
		OptionID string `json:"optionId"`
	} `json:"outcome"`
	TerminalID string  `json:"terminalId"`
	ExitCode   *int    `json:"exitCode"`
	Signal     string  `json:"signal"`
	Truncated  *bool   `json:"truncated"`
	ExitStatus agt.Raw `json:"exitStatus"`
}

// record is a decoded line.
type record struct {
	dir    int
	kind   int
	id     string // the JSON-RPC id as written ("" for notifications)
	method string
	params *params
	result *result // nil when the result is absent, null or not an object
	err    *rpcError
}

// Decode reads one line. It is pure: it touches no parser state.
func (p *parser) Decode(rec []byte) (any, error) {
	var l line
	err := agt.Decode(rec, &l)
	if err != nil {
		if !agt.IsFieldError(err) {
			return nil, err
		}
	}
	m := &l.message
	r := &record{}
	if l.Msg != nil {
		m = l.Msg
		r.dir = wrapperDirs[l.Dir]
	}
	r.method, r.params, r.err = m.Method, m.Params, m.Error
	if len(m.ID) > 0 {
		r.id = string(m.ID)
	}
	switch {
	case m.JSONRPC == "" && m.Method == "" && r.id == "":
		r.kind = msgInvalid
	case m.Method != "" && r.id != "":
		r.kind = msgRequest
	case m.Method != "":
		r.kind = msgNotification
	case r.id != "":
		r.kind = msgResponse
	}
	if len(m.Result) > 0 && m.Result[0] == '{' {
		var res result
		if e := agt.API.Unmarshal(m.Result, &res); e != nil && err == nil {
			err = &agt.FieldError{Msg: "result: " + firstLine(e.Error())}
		}
		r.result = &res
	}
	if r.params != nil {
		for _, u := range []*update{r.params.Update, r.params.ToolCall} {
			if u != nil {
				decodeUpdate(u)
			}
		}
	}
	return r, err
}

// decodeUpdate reads what an update's kind makes of its loose fields: the
// content blocks of a message, the exit code in a tool's output.
func decodeUpdate(u *update) {
	if _, ok := textKinds[u.Kind]; ok && len(u.Content) > 0 {
		switch u.Content[0] {
		case '{':
			var b block
			if agt.API.Unmarshal(u.Content, &b) == nil {
				u.blocks = []block{b}
			}
		case '[':
			var bs []block
			if agt.API.Unmarshal(u.Content, &bs) == nil {
				u.blocks = bs
			}
		}
	}
	u.exitCode = exitCode(u.RawOutput, u.Status)
}

// exitCode finds the exit code of a shell tool in its rawOutput: Copilot's
// {contents: [{type: "shell_exit", exitCode}]}, or the "Exit code N" first
// line Claude Code writes on a failed command.
func exitCode(out agt.Raw, status string) *int {
	if len(out) == 0 {
		return nil
	}
	switch out[0] {
	case '{':
		var v struct {
			Contents []struct {
				Type     string `json:"type"`
				ExitCode *int   `json:"exitCode"`
			} `json:"contents"`
		}
		if agt.API.Unmarshal(out, &v) != nil {
			return nil
		}
		for _, c := range v.Contents {
			if c.Type == "shell_exit" && c.ExitCode != nil {
				return c.ExitCode
			}
		}
	case '"':
		if status != statusFailed {
			return nil
		}
		const prefix = `"Exit code `
		if !bytes.HasPrefix(out, []byte(prefix)) {
			return nil
		}
		s := out[len(prefix):]
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i > 9 || i == len(s) || (s[i] != '"' && s[i] != '\\') {
			return nil
		}
		n, _ := strconv.Atoi(string(s[:i]))
		return &n
	}
	return nil
}

func firstLine(s string) string {
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
