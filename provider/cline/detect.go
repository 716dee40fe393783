package cline

import "github.com/agt-project/agt"

// Sniff names the format of a Cline session file: a messages document
// (version, sessionId, agent and a messages array whose first element has
// a role of its own) or a manifest (version, session_id, source,
// started_at). Members are checked together so that other providers'
// documents with a messages array (Gemini CLI's, with projectHash) are
// not claimed.
func (Provider) Sniff(h agt.Head) string {
	doc := h.Doc
	if doc == nil {
		if len(h.Lines) == 0 {
			return ""
		}
		doc = h.Lines[0] // a document written on one line
	}
	ks, first, ok := keys(doc)
	if !ok {
		return ""
	}
	if ks["cline_task"] == '"' && ks["file"] == '"' {
		return taskFormat(doc)
	}
	switch {
	case ks["version"] == 0 || ks["projectHash"] != 0:
		return ""
	case ks["sessionId"] == '"' && ks["agent"] == '"' && ks["messages"] == '[':
		if first == nil || isMessage(first) {
			return FormatSession
		}
	case ks["session_id"] == '"' && ks["source"] == '"' && ks["started_at"] == '"':
		return FormatSession
	}
	return ""
}

// isMessage tells whether b is a Cline message: a role of user or
// assistant and content.
func isMessage(b []byte) bool {
	var m struct {
		Role    string  `json:"role"`
		Content agt.Raw `json:"content"`
	}
	return agt.API.Unmarshal(b, &m) == nil && roles[m.Role] != nil && len(m.Content) > 0
}

// taskFormat names the format of a task folder's line: the extension that
// wrote the folder, Cline's when the folder is not in an extension's
// storage.
func taskFormat(line []byte) string {
	var l struct {
		Extension string `json:"extension"`
	}
	_ = agt.API.Unmarshal(line, &l) // detection: a wrong type detects nothing
	if f := extensions[l.Extension]; f != "" {
		return f
	}
	return FormatTask
}
