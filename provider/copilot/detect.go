package copilot

import (
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/docscan"
)

// Sniff recognises the Copilot CLI formats from content:
//   - copilot-legacy: a JSON object with sessionId and chatMessages or
//     timeline (a pretty-printed document, or one line);
//   - copilot-session: SessionEvent lines ({type:"x.y", data:{…}, id,
//     timestamp}) that start with session.start or session.resume, or
//     that show neither sign of the live stream;
//   - copilot-json: the same lines with ephemeral events, or the live
//     stream's result line ({type:"result", sessionId, exitCode});
//   - copilot-vscode: a VS Code chat session document (version, requests,
//     and responderUsername, initialLocation or sessionId);
//   - copilot-vscode-log: a log of one, its first line {kind: 0, v: the
//     session}.
func (Provider) Sniff(head agt.Head) string {
	if head.Doc != nil {
		if isLegacy(head.Doc) {
			return FormatLegacy
		}
		if isVSSession(head.Doc) {
			return FormatVSCode
		}
		return ""
	}
	if len(head.Lines) == 0 {
		return ""
	}
	if isLegacy(head.Lines[0]) {
		return FormatLegacy
	}
	if isVSLog(head.Lines[0]) {
		return FormatVSCodeLog
	}
	if len(head.Lines) == 1 && isVSSession(head.Lines[0]) {
		return FormatVSCode
	}
	start, live, event := signs(head.Lines)
	switch {
	case start:
		return FormatSession
	case live:
		return FormatJSON
	case event:
		return FormatSession
	}
	return ""
}

// Tentative reports a head of session events that shows neither
// session.start nor a sign of the live stream: read as copilot-session, it
// may be the live stream's beginning (whose first events need not be
// ephemeral), so a stream's head is read on.
func (Provider) Tentative(head agt.Head) bool {
	if head.Doc != nil || len(head.Lines) == 0 || isLegacy(head.Lines[0]) {
		return false
	}
	start, live, event := signs(head.Lines)
	return event && !start && !live
}

// signs tells what the lines show: a session.start or session.resume, a
// sign of the live stream (an ephemeral event, the result line), other
// session events.
func signs(lines [][]byte) (start, live, event bool) {
	for _, line := range lines {
		var v struct {
			Type      string  `json:"type"`
			Data      agt.Raw `json:"data"`
			ID        string  `json:"id"`
			Timestamp string  `json:"timestamp"`
			Ephemeral bool    `json:"ephemeral"`
			SessionID string  `json:"sessionId"`
			ExitCode  *int    `json:"exitCode"`
		}
		if agt.Decode(line, &v) != nil {
			continue
		}
		switch {
		case v.Type == "result" && v.SessionID != "" && v.ExitCode != nil && v.Data == nil:
			live = true
		case !isEvent(v.Type, v.Data, v.ID, v.Timestamp):
		case v.Type == "session.start" || v.Type == "session.resume":
			start = true
		case v.Ephemeral:
			live = true
		default:
			event = true
		}
	}
	return start, live, event
}

// isEvent reports whether a record is a Copilot session event: a data
// object, and a type this package knows or a dotted type with the event's
// id and timestamp.
func isEvent(typ string, data agt.Raw, id, ts string) bool {
	if len(data) == 0 || data[0] != '{' || typ == "result" {
		return false
	}
	if _, ok := types[typ]; ok {
		return true
	}
	return strings.Contains(typ, ".") && id != "" && ts != ""
}

// isLegacy reports whether b is (or begins) a legacy history document: a
// top-level object with sessionId and chatMessages or timeline.
func isLegacy(b []byte) bool {
	var id, msgs bool
	members(b, func(s *docscan.Scanner, key string) (bool, *docError) {
		switch key {
		case "sessionId":
			id = true
		case "chatMessages", "timeline":
			msgs = true
		}
		if id && msgs {
			return true, nil
		}
		_, err := value(s, key)
		return false, err
	})
	return id && msgs
}
