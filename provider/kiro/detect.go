package kiro

import "github.com/agt-project/agt"

// Sniff recognises a Kiro CLI session log: its first record is a log entry
// of a known kind under a version tag ("v1"), or a KAS line; or a
// conversation of the legacy chat (a document, pretty-printed or on one
// line).
func (Provider) Sniff(h agt.Head) string {
	if h.Doc != nil {
		if sniffConversation(h.Doc) {
			return FormatConv
		}
		return ""
	}
	if len(h.Lines) == 1 && sniffConversation(h.Lines[0]) {
		return FormatConv
	}
	if len(h.Lines) > 0 && sniffDB(h.Lines[0]) {
		return FormatDB
	}
	for _, line := range h.Lines {
		var e struct {
			Version string  `json:"version"`
			Kind    string  `json:"kind"`
			Payload agt.Raw `json:"payload"`
		}
		if agt.API.Unmarshal(line, &e) != nil {
			continue
		}
		if e.Kind == "" {
			if len(e.Payload) == 0 {
				continue
			}
			if sniffKAS(line) {
				return FormatKAS
			}
			return ""
		}
		if len(e.Version) > 1 && e.Version[0] == 'v' && records[e.Kind] != nil {
			return FormatSession
		}
		return ""
	}
	return ""
}
