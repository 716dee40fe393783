package cursor

import "github.com/agt-project/agt"

// probe is what detection reads of a line.
type probe struct {
	Type            string  `json:"type"`
	Subtype         string  `json:"subtype"`
	SessionID       string  `json:"session_id"`
	Role            string  `json:"role"`
	Message         agt.Raw `json:"message"`
	ToolCall        agt.Raw `json:"tool_call"`
	CallID          string  `json:"call_id"`
	TimestampMS     agt.Raw `json:"timestamp_ms"`
	Status          string  `json:"status"`
	RequestID       string  `json:"request_id"`
	UUID            agt.Raw `json:"uuid"`
	ParentToolUseID agt.Raw `json:"parent_tool_use_id"`
	Tools           agt.Raw `json:"tools"`
	TotalCost       agt.Raw `json:"total_cost_usd"`
	NumTurns        agt.Raw `json:"num_turns"`
	SessionIDCamel  agt.Raw `json:"sessionId"`
}

// claudeOnly reports members Claude Code's (and its imitators') stream
// lines have and Cursor's never do.
func (p *probe) claudeOnly() bool {
	return len(p.UUID) > 0 || len(p.ParentToolUseID) > 0 || len(p.Tools) > 0 ||
		len(p.TotalCost) > 0 || len(p.NumTurns) > 0 || len(p.SessionIDCamel) > 0
}

// live tells a live line: whether it is one, and whether its shape is one
// only Cursor writes.
func (p *probe) live() (live, strong bool) {
	if p.SessionID == "" || p.claudeOnly() {
		return false, false
	}
	switch p.Type {
	case "tool_call":
		return true, len(p.ToolCall) > 0 && p.ToolCall[0] == '{' && p.CallID != ""
	case "thinking":
		return true, p.Subtype == "delta" || p.Subtype == "completed"
	case "assistant":
		return true, len(p.TimestampMS) > 0
	case "system":
		return true, p.Subtype == "init"
	case "result":
		return true, p.RequestID != ""
	case "user":
		return true, false
	}
	return false, false
}

// transcriptLine tells an agent transcript line: a message with only role
// and message, or a turn_ended marker.
func (p *probe) transcriptLine(b []byte) bool {
	if p.Type == "turn_ended" {
		return p.Status != "" && p.SessionID == ""
	}
	if p.Type != "" || (p.Role != "user" && p.Role != "assistant") || len(p.Message) == 0 || p.Message[0] != '{' {
		return false
	}
	var m struct {
		Content agt.Raw `json:"content"`
	}
	var keys map[string]agt.Raw
	if agt.Unmarshal(b, &keys) != nil || len(keys) != 2 {
		return false
	}
	return agt.Unmarshal(p.Message, &m) == nil && len(m.Content) > 0 && m.Content[0] == '['
}

// Sniff names the cursor format of an input from its first lines: live
// lines, one of them of a shape only Cursor writes (a lone result line is
// the json format); or agent transcript lines.
func (Provider) Sniff(h agt.Head) string {
	if h.Doc != nil {
		return ""
	}
	// every line read must be of the kind the first is: a line that is
	// not ends the sniff (most inputs are another agent's, told by their
	// first line)
	n, transcript, strong := 0, false, false
	var last *probe
	for _, b := range h.Lines {
		p := &probe{}
		if agt.Unmarshal(b, p) != nil {
			continue
		}
		n, last = n+1, p
		switch {
		case n == 1:
			transcript = p.transcriptLine(b)
		case transcript && !p.transcriptLine(b):
			return ""
		}
		if transcript {
			continue
		}
		live, s := p.live()
		if !live {
			return ""
		}
		strong = strong || s
	}
	switch {
	case n == 0:
		return ""
	case transcript:
		return FormatTranscript
	case !strong:
		return ""
	case n == 1 && last.Type == "result":
		return FormatJSON
	}
	return FormatStreamJSON
}
