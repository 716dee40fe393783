package agt

import "bytes"

// ToolArgs returns a tool call's arguments as a JSON object, the one rule
// every provider follows for them:
//
//   - an object is kept (compacted);
//   - a JSON string holding an object (the OpenAI-style "arguments" text) is
//     decoded and compacted;
//   - nothing at all (absent, null, or a string of blanks only: a call
//     without arguments) is {};
//   - anything else, v, is kept whole under "raw": {"raw": v}. A string that
//     is not an object (a Codex apply_patch patch, an array in text, text cut
//     short) stays the same JSON string; a number, an array or a boolean
//     stays that value.
//
// a is a JSON value as read from a record (a Raw from a decoder, or
// String(s) for arguments a decoder already turned into a Go string). The
// result is always a valid, compact JSON object: arguments never make a
// tool input that is not one, and are never dropped.
func ToolArgs(a Raw) Raw {
	a = bytes.TrimSpace(a)
	if a.IsNull() {
		return Raw(`{}`)
	}
	switch a[0] {
	case '{':
		return Compact(a)
	case '"':
		s := a.Str()
		t := bytes.TrimSpace([]byte(s))
		switch {
		case len(t) == 0:
			return Raw(`{}`)
		case t[0] == '{' && Valid(t):
			return Compact(t)
		}
	}
	v := Compact(a)
	b := make([]byte, 0, len(v)+8)
	b = append(b, `{"raw":`...)
	b = append(b, v...)
	return append(b, '}')
}
