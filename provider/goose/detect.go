package goose

import "github.com/agt-project/agt"

// Sniff recognises the row lines Claim makes of a Goose database, and a
// session file of earlier versions by its metadata line: working_dir and
// description (or message_count), no role.
func (Provider) Sniff(h agt.Head) string {
	if h.Doc != nil || len(h.Lines) == 0 {
		return ""
	}
	var l struct {
		Goose        string  `json:"goose"`
		Row          agt.Raw `json:"row"`
		WorkingDir   *string `json:"working_dir"`
		Description  *string `json:"description"`
		MessageCount *int64  `json:"message_count"`
		Role         *string `json:"role"`
	}
	if agt.API.Unmarshal(h.Lines[0], &l) != nil {
		return ""
	}
	switch {
	case (l.Goose == "session" || l.Goose == "message") && len(l.Row) > 0 && l.Row[0] == '{':
		return FormatDB
	case l.WorkingDir != nil && (l.Description != nil || l.MessageCount != nil) && l.Role == nil:
		return FormatJSONL
	}
	return ""
}
