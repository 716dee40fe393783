package agt

import "testing"

func TestCount(t *testing.T) {
	for in, want := range map[string]Count{
		`12`: 12, `0`: 0, `null`: 0, `"12"`: 12, `100.0`: 100, `1e3`: 1000, `"7.0"`: 7,
		`9007199254740992`: MaxCount,
		`true`:             BadCount, `false`: BadCount, `1.5`: BadCount, `-5`: BadCount, `"-5"`: BadCount,
		`18446744073709551616`: BadCount, `9007199254740993`: BadCount, `-9223372036854775808`: BadCount, `"twelve"`: BadCount,
		`""`: BadCount, `{}`: BadCount, `[1]`: BadCount, `"NaN"`: BadCount, `"Inf"`: BadCount,
	} {
		var v struct {
			N Count  `json:"n"`
			S string `json:"s"`
		}
		if err := Decode([]byte(`{"n":`+in+`,"s":"kept"}`), &v); err != nil {
			t.Errorf("%s: %v", in, err)
		}
		if v.N != want || v.S != "kept" {
			t.Errorf("%s: %d %q, want %d", in, v.N, v.S, want)
		}
	}
}
