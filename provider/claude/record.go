package claude

import (
	"bytes"

	"github.com/agt-project/agt"
	"github.com/bytedance/sonic"
)

// raw is a JSON fragment of the input line, not copied.
type raw = sonic.NoCopyRawMessage

// record is a Claude Code record, on disk or live; only the fields agt uses.
type record struct {
	Type          string   `json:"type"`
	Subtype       string   `json:"subtype"`
	UUID          string   `json:"uuid"`
	ParentUUID    *string  `json:"parentUuid"`
	SessionID     string   `json:"sessionId"`
	LiveSessionID string   `json:"session_id"`
	Timestamp     string   `json:"timestamp"`
	Cwd           string   `json:"cwd"`
	GitBranch     string   `json:"gitBranch"`
	Version       string   `json:"version"`
	IsSidechain   bool     `json:"isSidechain"`
	AgentID       string   `json:"agentId"`
	IsMeta        bool     `json:"isMeta"`
	CompactSum    bool     `json:"isCompactSummary"`
	APIError      bool     `json:"isApiErrorMessage"`
	RequestID     string   `json:"requestId"`
	Message       *message `json:"message"`
	Content       raw      `json:"content"`
	Level         string   `json:"level"`

	// progress
	Data *struct {
		Type    string  `json:"type"`
		AgentID string  `json:"agentId"`
		Message *record `json:"message"`
	} `json:"data"`
	ToolUseResult raw `json:"toolUseResult"`
	// live output's copy (its agentId names the subagent a Task/Agent call ran)
	LiveToolUseResult raw `json:"tool_use_result"`

	// metadata records
	Summary      string `json:"summary"`
	CustomTitle  string `json:"customTitle"`
	AITitle      string `json:"aiTitle"`
	AgentName    string `json:"agentName"`
	RelocatedCwd string `json:"relocatedCwd"`
	Attachment   *struct {
		Type   string `json:"type"`
		Prompt raw    `json:"prompt"` // queued_command: a string or content blocks
		IsMeta bool   `json:"isMeta"`
	} `json:"attachment"`
	Operation string `json:"operation"` // queue-operation

	// payloads kept as meta data
	CompactMetadata      raw `json:"compactMetadata"`
	MicrocompactMetadata raw `json:"microcompactMetadata"`
	Error                raw `json:"error"`

	// live output
	ParentToolUseID string `json:"parent_tool_use_id"`
	LiveRequestID   string `json:"request_id"`
	Model           string `json:"model"`
	ClaudeVersion   string `json:"claude_code_version"`
	Event           *struct {
		Type string `json:"type"`
	} `json:"event"`
	TaskID      string                `json:"task_id"`
	ToolUseID   string                `json:"tool_use_id"`
	IsError     bool                  `json:"is_error"`
	Result      raw                   `json:"result"`
	Errors      []string              `json:"errors"`
	TotalCost   *float64              `json:"total_cost_usd"`
	Duration    *int64                `json:"duration_ms"`
	DurationAPI *int64                `json:"duration_api_ms"`
	Usage       *usage                `json:"usage"`
	ModelUsage  map[string]modelUsage `json:"modelUsage"`
}

type message struct {
	ID         string `json:"id"`
	Role       string `json:"role"`
	Model      string `json:"model"`
	Content    raw    `json:"content"`
	Usage      *usage `json:"usage"`
	StopReason string `json:"stop_reason"`
}

type block struct {
	Type      string `json:"type"`
	Text      raw    `json:"text"`
	Thinking  raw    `json:"thinking"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Input     raw    `json:"input"`
	ToolUseID string `json:"tool_use_id"`
	Content   raw    `json:"content"`
	IsError   bool   `json:"is_error"`
}

type usage struct {
	Input         agt.Count `json:"input_tokens"`
	Output        agt.Count `json:"output_tokens"`
	CacheWrite    agt.Count `json:"cache_creation_input_tokens"`
	CacheRead     agt.Count `json:"cache_read_input_tokens"`
	CacheCreation *struct {
		OneHour agt.Count `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
	OutputDetails *struct {
		Thinking agt.Count `json:"thinking_tokens"`
	} `json:"output_tokens_details"`
	Speed string `json:"speed"`
}

type modelUsage struct {
	Input        agt.Count `json:"inputTokens"`
	Output       agt.Count `json:"outputTokens"`
	CacheRead    agt.Count `json:"cacheReadInputTokens"`
	CacheWrite   agt.Count `json:"cacheCreationInputTokens"`
	CacheWrite1h agt.Count `json:"cacheCreationEphemeral1hInputTokens"`
	Thinking     agt.Count `json:"thinkingTokens"`
	CostUSD      *float64  `json:"costUSD"`
	Context      agt.Count `json:"contextWindow"`
}

// decoded is a record with its content blocks read.
type decoded struct {
	rec       record
	blocks    []block // message.content when it is an array
	text      raw     // message.content when it is a string
	mirror    *decoded
	agentLink string // toolUseResult.agentId of a Task result
	duration  *int64 // toolUseResult.durationMs (Glob, Grep) or totalDurationMs (Task)
}

// decodeRecord reads a line; for a usage report (usage) it leaves every
// message content undecoded, the relayed messages of progress records
// included (their usage is in message.usage, not in the content).
func decodeRecord(line []byte, usage bool) (*decoded, error) {
	d := &decoded{}
	err := agt.DecodeExact(line, &d.rec)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	if r := d.rec.Data; r != nil && r.Message != nil {
		d.mirror = &decoded{rec: *r.Message}
	}
	if usage {
		return d, err
	}
	if err2 := d.content(); err == nil {
		err = err2
	}
	if m := d.mirror; m != nil {
		if err2 := m.content(); err == nil {
			err = err2
		}
	}
	agent, dur := topKeys(d.rec.ToolUseResult)
	if !agentID(&d.agentLink, d.rec.ToolUseResult, agent) {
		agent, _ = topKeys(d.rec.LiveToolUseResult)
		agentID(&d.agentLink, d.rec.LiveToolUseResult, agent)
	}
	if dur {
		for _, k := range [...]string{"durationMs", "totalDurationMs"} {
			if n, e := sonic.Get(d.rec.ToolUseResult, k); e == nil {
				if v, e := n.Int64(); e == nil && v >= 0 {
					d.duration = &v
					break
				}
			}
		}
	}
	return d, err
}

// content reads message.content: a string, or an array of blocks.
func (d *decoded) content() error {
	m := d.rec.Message
	if m == nil || len(m.Content) == 0 {
		return nil
	}
	switch m.Content[0] {
	case '"':
		d.text = m.Content
	case '[':
		if err := agt.UnmarshalExact(m.Content, &d.blocks); err != nil {
			return &agt.FieldError{Msg: "message.content: " + firstLine(err.Error())}
		}
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

// agentID reads the member agentId of r into id when r has it (has, from
// topKeys), and tells whether it did.
func agentID(id *string, r raw, has bool) bool {
	if !has {
		return false
	}
	n, err := sonic.Get(r, "agentId")
	if err != nil {
		return false
	}
	*id, _ = n.String()
	return true
}

// topKeys tells whether the JSON object r (a toolUseResult) has the
// member agentId, and durationMs or totalDurationMs, among its own (not
// its values'): one pass over r, where a search of each name was two, as
// long as a tool's output (a file read) is.
func topKeys(r raw) (agent, duration bool) {
	if len(r) == 0 || r[0] != '{' {
		return false, false
	}
	depth := 0
	key := false // the next string at depth 1 is a member's name
	for i := 0; i < len(r); i++ {
		switch r[i] {
		case '"':
			j := endString(r, i)
			if j < 0 {
				return agent, duration
			}
			if depth == 1 && key {
				switch string(r[i+1 : j]) {
				case "agentId":
					agent = true
				case "durationMs", "totalDurationMs":
					duration = true
				}
				key = false
			}
			i = j
		case '{', '[':
			depth++
			key = depth == 1
		case '}', ']':
			depth--
		case ',':
			key = depth == 1
		}
	}
	return agent, duration
}

// endString is the offset of the quote that ends the JSON string opening
// at r[i], or -1.
func endString(r raw, i int) int {
	for j := i + 1; ; j++ {
		k := bytes.IndexByte(r[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		bs := 0 // backslashes before it: an even count leaves it unescaped
		for r[j-1-bs] == '\\' {
			bs++
		}
		if bs%2 == 0 {
			return j
		}
	}
}
