package gemini

import (
	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/docscan"
)

// Sniff names the format of an input from its first record: a session
// document or the header line of a session log (gemini-session), a
// stream-json line (gemini-stream-json), or the json output object
// (gemini-json). Keys are checked against closed sets so that other
// providers' records with similar fields are not claimed.
func (Provider) Sniff(h agt.Head) string {
	if h.Doc != nil {
		return sniff(h.Doc)
	}
	if len(h.Lines) == 0 {
		return ""
	}
	return sniff(h.Lines[0])
}

// messageKeys are the members a MessageRecord may have.
var messageKeys = set("id", "timestamp", "type", "content", "displayContent", "thoughts", "tokens", "model", "toolCalls")

// jsonKeys are the members of the json output object.
var jsonKeys = set("session_id", "response", "stats", "error", "warnings")

// streamTypes names, per stream-json line type, the members that line must
// have.
var streamTypes = map[string][]string{
	"init":        {"session_id"},
	"message":     {"role", "content"},
	"tool_use":    {"tool_id", "tool_name"},
	"tool_result": {"tool_id", "status"},
	"error":       {"severity", "message"},
	"result":      {"status", "stats"},
}

func set(keys ...string) map[string]bool {
	m := map[string]bool{}
	for _, k := range keys {
		m[k] = true
	}
	return m
}

func sniff(b []byte) string {
	ms, _ := members(b)
	if len(ms) == 0 {
		return ""
	}
	has := func(k string) bool { return get(ms, k) != nil }
	str := func(k string) bool { v := get(ms, k); return len(v) > 0 && v[0] == '"' }
	switch {
	case has("messages"):
		if str("projectHash") || isMessage(firstElement(get(ms, "messages"))) {
			return FormatSession
		}
	case str("sessionId") && str("projectHash"):
		return FormatSession
	case len(ms) == 1 && (ms[0].key == "$set" || ms[0].key == "$rewindTo"):
		return FormatSession
	case isMessage(b):
		return FormatSession
	case str("type") && str("timestamp"):
		need, ok := streamTypes[unquote(get(ms, "type"))]
		if !ok {
			return ""
		}
		for _, k := range need {
			if !has(k) {
				return ""
			}
		}
		return FormatStreamJSON
	case isJSONOutput(ms):
		return FormatJSON
	}
	return ""
}

// isMessage reports whether b is a MessageRecord: an object with id,
// timestamp and a known type, and no member a MessageRecord lacks.
func isMessage(b []byte) bool {
	if b == nil {
		return false
	}
	ms, _ := members(b)
	for _, m := range ms {
		if !messageKeys[m.key] {
			return false
		}
	}
	t := get(ms, "type")
	return get(ms, "id") != nil && get(ms, "timestamp") != nil && t != nil && messageKinds[unquote(t)] != ""
}

// isJSONOutput reports whether ms are the members of the json output: only
// its keys, and a response, stats per model or an error message.
func isJSONOutput(ms []member) bool {
	for _, m := range ms {
		if !jsonKeys[m.key] {
			return false
		}
	}
	if r := get(ms, "response"); len(r) > 0 && r[0] == '"' {
		return true
	}
	if s, _ := members(get(ms, "stats")); get(s, "models") != nil {
		return true
	}
	e, _ := members(get(ms, "error"))
	return get(e, "message") != nil
}

// firstElement is the first element of the array b, nil when there is none
// or it is cut.
func firstElement(b []byte) []byte {
	s := docscan.New(b)
	if s.Look() != '[' {
		return nil
	}
	s.SetPos(s.Pos() + 1)
	if !s.More() || s.Look() == ']' {
		return nil
	}
	v, err := s.Value()
	if err != nil {
		return nil
	}
	return v
}
