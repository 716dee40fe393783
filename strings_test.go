package agt

import "testing"

func TestCheckStrings(t *testing.T) {
	cases := map[string]bool{
		`{"a":"plain text that is long enough to use the word loop"}`:     true,
		`{"a":"esc \" \\ \/ \b \f \n \r \t \u00e9 end of a long string"}`: true,
		`{"a":"\x"}`:         false,
		`{"a":"\u12"}`:       false,
		`{"a":"\u12zz"}`:     false,
		"{\"a\":\"x\ty\"}":   false,
		"{\"a\":\"x\x01y\"}": false,
		"{\"a\":\n1}":        true,
		`{"a":"x"}` + "\t":   true,
		`{"k\u0041":"ends with backslash pair \\"}`: true,
	}
	for in, ok := range cases {
		if err := checkStrings([]byte(in)); (err == nil) != ok {
			t.Errorf("%q: %v, want ok=%v", in, err, ok)
		}
	}
}
