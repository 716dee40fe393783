package amp

import (
	"strings"

	"github.com/agt-project/agt"
)

// types are the top-level types of Amp's stream JSON.
var types = map[string]bool{"system": true, "user": true, "assistant": true, "result": true}

// Sniff recognises Amp's stream JSON: a line of one of its types whose
// session_id is an Amp thread id (T-…), where Claude Code's is a bare
// UUID. The first record that parses decides.
func (Provider) Sniff(h agt.Head) string {
	if h.Doc != nil {
		return sniffThread(h.Doc)
	}
	for _, line := range h.Lines {
		var p struct {
			Type      string `json:"type"`
			SessionID string `json:"session_id"`
		}
		if agt.Unmarshal(line, &p) != nil || p.Type == "" {
			continue
		}
		if types[p.Type] && isThread(p.SessionID) {
			return FormatStreamJSON
		}
		return ""
	}
	return ""
}

// isThread reports an Amp thread id: "T-" and a UUID.
func isThread(id string) bool {
	rest, ok := strings.CutPrefix(id, "T-")
	return ok && len(rest) == 36 && strings.Count(rest, "-") == 4
}

// sniffThread recognises a thread document: an object whose id is a
// thread id, with a version and a list of messages.
func sniffThread(doc []byte) string {
	var t struct {
		V        *int64  `json:"v"`
		ID       string  `json:"id"`
		Messages agt.Raw `json:"messages"`
	}
	if agt.API.Unmarshal(doc, &t) != nil || t.V == nil || !isThread(t.ID) || len(t.Messages) == 0 || t.Messages[0] != '[' {
		return ""
	}
	return FormatThread
}
