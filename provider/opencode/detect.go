package opencode

import (
	"bytes"
	"errors"
	"strings"

	"github.com/agt-project/agt"
)

// Sniff recognises an export document by its opening, {"info":{…"id":"ses_…",
// (enough for a document cut short), and the live output by its first JSON
// line: a known event type with a "ses_…" sessionID.
func (Provider) Sniff(h agt.Head) string {
	if h.Doc != nil {
		if isExport(h.Doc) {
			return FormatExport
		}
		return ""
	}
	for _, l := range h.Lines {
		if isExport(l) {
			return FormatExport
		}
		if len(l) == 0 || l[0] != '{' {
			continue // `opencode run` prints notices such as "! permission requested: …"
		}
		var v struct {
			Type      string `json:"type"`
			SessionID string `json:"sessionID"`
			Part      *struct {
				Type string `json:"type"`
			} `json:"part"`
			Error agt.Raw `json:"error"`
		}
		if agt.API.Unmarshal(l, &v) != nil || !strings.HasPrefix(v.SessionID, "ses_") {
			return ""
		}
		if t, ok := liveTypes[v.Type]; ok && (t.part == "" && !v.Error.IsNull() || v.Part != nil && v.Part.Type == t.part) {
			return FormatRunJSON
		}
		return ""
	}
	return ""
}

var errFound = errors.New("found")

// isExport reports whether b opens an export document: an object whose first
// member is "info", an object with a "ses_…" id.
func isExport(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n\ufeff")
	s := &scanner{b: b}
	if s.expect('{') != nil {
		return false
	}
	if k, err := s.str(); err != nil || string(k) != "info" || s.expect(':') != nil {
		return false
	}
	found := false
	err := s.members(func(key string) error {
		if key != "id" {
			_, err := s.value()
			return err
		}
		id, err := s.str()
		if err == nil {
			found = bytes.HasPrefix(id, []byte("ses_"))
			err = errFound
		}
		return err
	})
	return err == errFound && found
}
