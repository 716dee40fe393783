package codex

import (
	"bytes"

	"github.com/agt-project/agt"
)

// rolloutEnvelope are the line types of a current rollout.
var rolloutEnvelope = map[string]bool{
	"session_meta": true, "response_item": true, "event_msg": true, "turn_context": true,
	"compacted": true, "world_state": true, "inter_agent_communication_metadata": true,
}

// execTypes are the event types only `codex exec --json` writes.
var execTypes = map[string]bool{
	"thread.started": true, "turn.started": true, "turn.completed": true, "turn.failed": true,
	"item.started": true, "item.updated": true, "item.completed": true, "session.created": true,
}

// sniffLine is what detection reads of a line.
type sniffLine struct {
	Type       string  `json:"type"`
	RecordType string  `json:"record_type"`
	ID         agt.Raw `json:"id"`
	Timestamp  string  `json:"timestamp"`
	Payload    agt.Raw `json:"payload"`
	Msg        *struct {
		Type string `json:"type"`
	} `json:"msg"`
	Session *struct {
		ID        string `json:"id"`
		Timestamp string `json:"timestamp"`
	} `json:"session"`
	Items []struct{} `json:"items"`
}

// Sniff names the Codex format of an input from its first records.
func (Provider) Sniff(head agt.Head) string {
	if head.Doc != nil {
		if f := sniffDoc(head.Doc); f != "" {
			return f
		}
		return ""
	}
	for i, line := range head.Lines {
		if len(line) == 0 || line[0] != '{' {
			continue // stderr interleaved with exec output
		}
		if h, ok, env := readHead(line); (ok || env) && rolloutEnvelope[h.typ] && agt.API.Valid(line) {
			// the envelope Codex writes, read without decoding the
			// payload (a session_meta's instructions are kilobytes)
			return FormatRollout
		}
		var l sniffLine
		if agt.Unmarshal(line, &l) != nil {
			continue
		}
		switch {
		case rolloutEnvelope[l.Type] && len(l.Payload) > 0 && l.Payload[0] == '{':
			return FormatRollout
		case execTypes[l.Type]:
			return FormatExecJSON
		case l.Type == "" && l.Msg != nil && l.Msg.Type != "" && len(l.ID) > 0:
			return FormatExecJSON
		case l.RecordType == "state":
			return FormatRolloutLegacy
		case i == 0 && l.Type == "" && isStr(l.ID) && l.Timestamp != "" && bytes.Contains(line, []byte(`"instructions"`)):
			return FormatRolloutLegacy
		case l.Session != nil && l.Session.ID != "" && l.Items != nil:
			return FormatLegacyJSON
		}
	}
	return ""
}

func isStr(r agt.Raw) bool { return len(r) > 2 && r[0] == '"' }

// sniffDoc recognises a pretty-printed TS-era rollout document.
func sniffDoc(doc []byte) string {
	var d struct {
		Session *struct {
			ID        string `json:"id"`
			Timestamp string `json:"timestamp"`
		} `json:"session"`
		Items []struct{} `json:"items"`
	}
	if agt.API.Unmarshal(doc, &d) != nil || d.Session == nil || d.Session.ID == "" || d.Items == nil {
		return ""
	}
	return FormatLegacyJSON
}

// Identify names the session of a rollout from its head, for the grouping
// of inputs: the thread of its first event. A fork's rollout opens with its
// own session_meta, then those its copy starts with (its parent's, and the
// parent's parent's when the parent was a fork): its first event is the
// innermost one's (see releaseHeads), so that parent and forks are read in
// one group and their copied records meet. Other formats are left to their
// parsers.
func (Provider) Identify(format string, h agt.Head) (session string, member, ok bool) {
	if format != FormatRollout {
		return "", false, false
	}
	seen := map[string]bool{}
	for _, line := range h.Lines {
		var r struct {
			Type    string `json:"type"`
			Payload struct {
				ID        string `json:"id"`
				SessionID string `json:"session_id"`
			} `json:"payload"`
		}
		if agt.API.Unmarshal(line, &r) != nil || r.Type != "session_meta" {
			break
		}
		id := firstOf(r.Payload.ID, r.Payload.SessionID)
		if id == "" || seen[id] {
			break
		}
		seen[id], session = true, id
	}
	return session, false, session != ""
}
