package qwen

import "github.com/agt-project/agt"

// probe is what detection reads of a record.
type probe struct {
	UUID          string  `json:"uuid"`
	SessionID     string  `json:"sessionId"`
	Type          string  `json:"type"`
	SystemPayload agt.Raw `json:"systemPayload"`
	Message       *struct {
		Parts agt.Raw `json:"parts"`
	} `json:"message"`
}

// recordTypes are ChatRecord's types.
var recordTypes = map[string]bool{"user": true, "assistant": true, "tool_result": true, "system": true}

// Sniff recognises a chat record file from its first record that reads as
// JSON: a ChatRecord type with uuid and sessionId, and what only Qwen Code
// writes there, a Gemini message (parts) or a system payload.
func (Provider) Sniff(h agt.Head) string {
	if h.Doc != nil {
		return ""
	}
	for _, line := range h.Lines {
		var p probe
		if agt.Unmarshal(line, &p) != nil {
			continue
		}
		if !recordTypes[p.Type] || p.UUID == "" || p.SessionID == "" {
			return ""
		}
		if (p.Message != nil && len(p.Message.Parts) > 0 && p.Message.Parts[0] == '[') ||
			(len(p.SystemPayload) > 0 && p.SystemPayload[0] == '{') {
			return FormatSession
		}
		return ""
	}
	return ""
}
