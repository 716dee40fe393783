package pi

import "github.com/agt-project/agt"

// sniffLine is what detection reads of a line.
type sniffLine struct {
	Type                  string  `json:"type"`
	ID                    agt.Raw `json:"id"`
	Timestamp             agt.Raw `json:"timestamp"`
	Version               agt.Raw `json:"version"`
	Cwd                   agt.Raw `json:"cwd"`
	Message               agt.Raw `json:"message"`
	ModelID               agt.Raw `json:"modelId"`
	ThinkingLevel         agt.Raw `json:"thinkingLevel"`
	Summary               agt.Raw `json:"summary"`
	FromID                agt.Raw `json:"fromId"`
	CustomType            agt.Raw `json:"customType"`
	TargetID              agt.Raw `json:"targetId"`
	ToolCallID            agt.Raw `json:"toolCallId"`
	AssistantMessageEvent agt.Raw `json:"assistantMessageEvent"`
	Command               agt.Raw `json:"command"`
	Success               agt.Raw `json:"success"`
}

func isString(r agt.Raw) bool { return len(r) > 0 && r[0] == '"' }

// role is the role of the line's message, "" when it has none.
func (l *sniffLine) role() string {
	if len(l.Message) == 0 || l.Message[0] != '{' {
		return ""
	}
	var m struct {
		Role string `json:"role"`
	}
	_ = agt.API.Unmarshal(l.Message, &m) // detection: a wrong type detects nothing
	return m.Role
}

func (l *sniffLine) piMessage() bool { return roles[l.role()] != nil }

// header: {"type":"session","id":…,"timestamp":…,"cwd":…} (version since v2).
func (l *sniffLine) header() bool {
	return l.Type == "session" && isString(l.ID) && isString(l.Timestamp) && (len(l.Version) > 0 || isString(l.Cwd))
}

// entryChecks tells a session entry by the field its type requires.
var entryChecks = map[string]func(l *sniffLine) bool{
	"message":               (*sniffLine).piMessage,
	"model_change":          func(l *sniffLine) bool { return isString(l.ModelID) },
	"thinking_level_change": func(l *sniffLine) bool { return isString(l.ThinkingLevel) },
	"compaction":            func(l *sniffLine) bool { return isString(l.Summary) },
	"branch_summary":        func(l *sniffLine) bool { return isString(l.FromID) },
	"custom":                func(l *sniffLine) bool { return isString(l.CustomType) },
	"custom_message":        func(l *sniffLine) bool { return isString(l.CustomType) },
	"label":                 func(l *sniffLine) bool { return isString(l.TargetID) },
	"session_info":          func(l *sniffLine) bool { return isString(l.ID) },
}

func (l *sniffLine) entry() bool {
	c := entryChecks[l.Type]
	return c != nil && isString(l.Timestamp) && c(l)
}

// liveChecks tells the live events that only pi writes (strong) from the
// ones other agents could write too (weak, nil check).
var liveChecks = map[string]func(l *sniffLine) bool{
	"message_start":         (*sniffLine).piMessage,
	"message_end":           (*sniffLine).piMessage,
	"turn_end":              (*sniffLine).piMessage,
	"message_update":        func(l *sniffLine) bool { return len(l.AssistantMessageEvent) > 0 && l.AssistantMessageEvent[0] == '{' },
	"tool_execution_start":  func(l *sniffLine) bool { return isString(l.ToolCallID) },
	"tool_execution_update": func(l *sniffLine) bool { return isString(l.ToolCallID) },
	"tool_execution_end":    func(l *sniffLine) bool { return isString(l.ToolCallID) },
	"response":              func(l *sniffLine) bool { return isString(l.Command) && len(l.Success) > 0 },
	"agent_start":           nil,
	"agent_end":             nil,
	"turn_start":            nil,
	"queue_update":          nil,
	"compaction_start":      nil,
	"compaction_end":        nil,
	"auto_compaction_start": nil,
	"auto_compaction_end":   nil,
	"auto_retry_start":      nil,
	"auto_retry_end":        nil,
	"extension_error":       nil,
	"extension_ui_request":  nil,
}

// live reports whether l is a live event, and whether one only pi writes.
func (l *sniffLine) live() (live, strong bool) {
	c, ok := liveChecks[l.Type]
	if !ok {
		return false, false
	}
	if c == nil {
		return true, false
	}
	if !c(l) {
		return false, false
	}
	return true, true
}

// Sniff names the pi format of an input from its first lines: a session
// header followed by entries (pi-session) or by agent events (pi-json);
// entries without a header (pi-session); agent events and RPC responses
// without a header (pi-rpc), at least one of them of a shape only pi writes.
func (Provider) Sniff(head agt.Head) string {
	if head.Doc != nil || len(head.Lines) == 0 {
		return ""
	}
	lines := make([]*sniffLine, 0, len(head.Lines))
	for _, b := range head.Lines {
		l := &sniffLine{}
		if agt.API.Unmarshal(b, l) != nil {
			continue
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return ""
	}
	first := lines[0]
	switch {
	case first.header():
		for _, l := range lines[1:] {
			if live, _ := l.live(); live {
				return FormatJSON
			}
		}
		return FormatSession
	case first.entry():
		return FormatSession
	}
	strong := false
	for _, l := range lines {
		live, s := l.live()
		if !live {
			return ""
		}
		strong = strong || s
	}
	if strong {
		return FormatRPC
	}
	return ""
}

// Tentative reports a head that is a session header alone: it opens a
// session file (entries follow) and `pi --mode json` output (agent events
// follow) alike, so its format is known only from the next line.
func (Provider) Tentative(head agt.Head) bool {
	if head.Doc != nil || len(head.Lines) != 1 {
		return false
	}
	var l sniffLine
	return agt.API.Unmarshal(head.Lines[0], &l) == nil && l.header()
}
