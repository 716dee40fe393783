package claude

import "github.com/agt-project/agt"

// probe is what detection reads of a record.
type probe struct {
	Type          string `json:"type"`
	Subtype       string `json:"subtype"`
	SessionID     string `json:"sessionId"`
	LiveSessionID string `json:"session_id"`
	UUID          string `json:"uuid"`
	LeafUUID      string `json:"leafUuid"`
	MessageID     string `json:"messageId"`
	Message       *struct {
		Role    string `json:"role"`
		Content raw    `json:"content"`
	} `json:"message"`
	JSONRPC string `json:"jsonrpc"`
}

// liveTypes are the top-level types of live output (SDK messages).
var liveTypes = map[string]bool{
	"system": true, "assistant": true, "user": true, "result": true, "stream_event": true,
	"tool_progress": true, "rate_limit_event": true, "tool_use_summary": true, "auth_status": true,
	"prompt_suggestion": true, "conversation_reset": true, "active_goal": true,
}

// Sniff recognises Claude Code content: session log records carry sessionId
// (or are one of its metadata records), live output carries session_id.
func (Provider) Sniff(h agt.Head) string {
	recs := h.Lines
	if h.Doc != nil {
		recs = [][]byte{h.Doc}
	}
	for _, line := range recs {
		var p probe
		if agt.Unmarshal(line, &p) != nil || p.Type == "" || p.JSONRPC != "" {
			continue
		}
		if f := sniffOne(&p, len(recs) == 1, h.Doc != nil); f != "" {
			return f
		}
		return ""
	}
	return ""
}

// A lone one-line result is --output-format json; anything else with
// session_id is stream-json (pretty-printed single messages included).
func sniffOne(p *probe, single, doc bool) string {
	conv := p.Type == "user" || p.Type == "assistant"
	switch {
	case p.LiveSessionID != "" && p.SessionID == "" && liveTypes[p.Type]:
		if p.Type == "result" && single && !doc {
			return FormatJSON
		}
		return FormatStreamJSON
	case conv && p.Message != nil && len(p.Message.Content) > 0 && (p.SessionID != "" || p.UUID != ""):
		return FormatSession
	case p.Type == "system" && p.SessionID != "" && p.UUID != "":
		return FormatSession
	case p.Type == "progress" && p.SessionID != "":
		return FormatSession
	case p.Type == "summary" && p.LeafUUID != "":
		return FormatSession
	case p.Type == "file-history-snapshot" && p.MessageID != "":
		return FormatSession
	case p.SessionID != "" && isMetaType(p.Type):
		return FormatSession
	case conv && p.Message != nil && p.SessionID == "" && p.UUID == "":
		// a session log's line stripped of its ids (a copy cut down to
		// type, timestamp and message)
		return FormatSession
	}
	return ""
}

func isMetaType(t string) bool {
	switch t {
	case "custom-title", "ai-title", "agent-name", "relocated", "attachment", "queue-operation":
		return true
	}
	for _, m := range metaTypes {
		if m == t {
			return true
		}
	}
	return false
}

// Tentative reports a head of one result line: the whole output of
// --output-format json, or the first line read of a stream-json stream
// (one joined late), which its next line tells apart.
func (p Provider) Tentative(h agt.Head) bool {
	return h.Doc == nil && len(h.Lines) == 1 && p.Sniff(h) == FormatJSON
}
