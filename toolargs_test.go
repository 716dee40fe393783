package agt

import (
	"encoding/json"
	"testing"
)

func TestToolArgs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, `{}`},
		{`null`, `{}`},
		{` null `, `{}`},
		{`""`, `{}`},
		{`"  \n"`, `{}`},
		{`{}`, `{}`},
		{`{"a": 1, "b": [1, 2]}`, `{"a":1,"b":[1,2]}`},
		{"{\n  \"a\": \"x y\"\n}", `{"a":"x y"}`},
		{`"{\"a\":1}"`, `{"a":1}`},
		{`" {\"a\": \"x\"}\n"`, `{"a":"x"}`},
		{`"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"`, `{"raw":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}`},
		{`"{\"a\":"`, `{"raw":"{\"a\":"}`}, // an object cut short stays text
		{`"[1,2]"`, `{"raw":"[1,2]"}`},     // an array in text is not an object
		{`"\u003c<"`, `{"raw":"\u003c<"}`}, // the string as written
		{`[1, 2]`, `{"raw":[1,2]}`},        // other values under raw, compact
		{`42`, `{"raw":42}`},
		{`true`, `{"raw":true}`},
	} {
		got := string(ToolArgs(Raw(c.in)))
		if got != c.want {
			t.Errorf("ToolArgs(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// FuzzToolArgs: whatever JSON value the arguments are, the input is a
// valid JSON object.
func FuzzToolArgs(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `"{\"a\":1}"`, `"x"`, `[1]`, `null`, `""`, `" { } "`, `"{\"a\":\"\\u00e9\"} "`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return // arguments come from a decoded record: always a JSON value
		}
		out := ToolArgs(Raw(s))
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil || m == nil {
			t.Fatalf("ToolArgs(%q) = %s: not a JSON object", s, out)
		}
	})
}
