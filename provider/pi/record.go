package pi

import (
	"github.com/agt-project/agt"
)

// record is one line of any pi format: a session header, a session entry, a
// live agent event or an RPC response. It names the fields of all of them;
// a line fills those of its type.
type record struct {
	Type      string  `json:"type"`
	ID        agt.Raw `json:"id"` // entry id, session id, or RPC request id
	ParentID  agt.Raw `json:"parentId"`
	Timestamp agt.Raw `json:"timestamp"`

	// session header
	Version       *int64 `json:"version"`
	Cwd           string `json:"cwd"`
	ParentSession string `json:"parentSession"`
	BranchedFrom  string `json:"branchedFrom"` // v1
	Provider      string `json:"provider"`     // v1 header, model_change
	ModelID       string `json:"modelId"`      // v1 header, model_change
	ThinkingLevel string `json:"thinkingLevel"`

	// entries
	Message             agt.Raw `json:"message"`
	Summary             agt.Raw `json:"summary"`
	FirstKeptEntryID    string  `json:"firstKeptEntryId"`
	FirstKeptEntryIndex *int64  `json:"firstKeptEntryIndex"` // v1
	TokensBefore        *int64  `json:"tokensBefore"`
	Details             agt.Raw `json:"details"`
	FromHook            *bool   `json:"fromHook"`
	Usage               agt.Raw `json:"usage"`
	FromID              string  `json:"fromId"`
	CustomType          string  `json:"customType"`
	Data                agt.Raw `json:"data"`
	Content             agt.Raw `json:"content"`
	Display             *bool   `json:"display"`
	TargetID            string  `json:"targetId"`
	Label               agt.Raw `json:"label"`
	Name                string  `json:"name"`

	// live events
	AssistantMessageEvent *struct {
		Type   string `json:"type"`
		Reason string `json:"reason"`
	} `json:"assistantMessageEvent"`
	ToolCallID   string  `json:"toolCallId"`
	ToolName     string  `json:"toolName"`
	IsError      *bool   `json:"isError"`
	Reason       string  `json:"reason"`
	Result       agt.Raw `json:"result"`
	Aborted      *bool   `json:"aborted"`
	WillRetry    *bool   `json:"willRetry"`
	ErrorMessage string  `json:"errorMessage"`
	Attempt      *int64  `json:"attempt"`
	MaxAttempts  *int64  `json:"maxAttempts"`
	DelayMs      *int64  `json:"delayMs"`
	FinalError   string  `json:"finalError"`
	Method       string  `json:"method"`
	Event        string  `json:"event"`
	Extension    string  `json:"extensionPath"`

	// RPC responses
	Command string  `json:"command"`
	Success *bool   `json:"success"`
	Error   agt.Raw `json:"error"`

	msg *message // Message decoded, for the types that carry one
}

// message is a Pi AgentMessage.
type message struct {
	Role         string   `json:"role"`
	Content      agt.Raw  `json:"content"`
	Model        string   `json:"model"`
	Usage        *piUsage `json:"usage"`
	StopReason   string   `json:"stopReason"`
	ErrorMessage string   `json:"errorMessage"`
	Timestamp    agt.Raw  `json:"timestamp"`
	ResponseID   string   `json:"responseId"`

	// toolResult
	ToolCallID string `json:"toolCallId"`
	IsError    bool   `json:"isError"`

	// bashExecution
	Command            agt.Raw `json:"command"`
	Output             agt.Raw `json:"output"`
	ExitCode           *int    `json:"exitCode"`
	Cancelled          bool    `json:"cancelled"`
	Truncated          bool    `json:"truncated"`
	FullOutputPath     string  `json:"fullOutputPath"`
	ExcludeFromContext bool    `json:"excludeFromContext"`

	// custom (hookMessage in v2), branchSummary, compactionSummary
	CustomType   string  `json:"customType"`
	Display      *bool   `json:"display"`
	Details      agt.Raw `json:"details"`
	Summary      agt.Raw `json:"summary"`
	FromID       string  `json:"fromId"`
	TokensBefore *int64  `json:"tokensBefore"`

	text   agt.Raw // Content when it is a string
	blocks []block // Content when it is an array of blocks
}

// block is one content block of a message.
type block struct {
	Type      string  `json:"type"`
	Text      agt.Raw `json:"text"`
	Thinking  agt.Raw `json:"thinking"`
	Redacted  bool    `json:"redacted"`
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Arguments agt.Raw `json:"arguments"`
	MimeType  string  `json:"mimeType"`
}

// carriesMessage lists the record types whose message is decoded in full;
// message_start only needs the role.
var carriesMessage = map[string]bool{"message": true, "message_end": true}

// Decode reads one line. It is pure: no parser state is touched.
func (p *parser) Decode(rec []byte) (any, error) {
	r := &record{}
	err := agt.Decode(rec, r)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	switch {
	case carriesMessage[r.Type] && !r.Message.IsNull():
		m, merr := decodeMessage(r.Message)
		r.msg = m
		if err == nil {
			err = merr
		}
	case r.Type == "message_start" && !r.Message.IsNull():
		m := &message{}
		if e := agt.DecodeValue("message", r.Message, &struct {
			Role *string `json:"role"`
		}{&m.Role}); err == nil {
			err = e
		}
		r.msg = m
	case r.Type == "custom_message":
		m := &message{Role: "custom", Content: r.Content, CustomType: r.CustomType, Display: r.Display, Details: r.Details}
		if perr := m.parseContent(); err == nil {
			err = perr
		}
		r.msg = m
	}
	return r, err
}

// decodeMessage reads an AgentMessage and its content blocks.
func decodeMessage(raw agt.Raw) (*message, error) {
	m := &message{}
	err := agt.Decode(raw, m)
	if err != nil && !agt.IsFieldError(err) {
		return m, &agt.FieldError{Msg: "message: " + err.Error()}
	}
	if perr := m.parseContent(); err == nil {
		err = perr
	}
	return m, err
}

// parseContent splits Content into text (a string) or blocks (an array).
func (m *message) parseContent() error {
	c := m.Content
	if c.IsNull() {
		return nil
	}
	switch c[0] {
	case '"':
		m.text = c
	case '[':
		if err := agt.API.Unmarshal(c, &m.blocks); err != nil {
			return &agt.FieldError{Msg: "content blocks: " + firstLine(err.Error())}
		}
	default:
		return &agt.FieldError{Msg: "content is neither a string nor an array"}
	}
	return nil
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
