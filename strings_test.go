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

func TestFitAbbrev(t *testing.T) {
	for _, c := range []struct {
		s         string
		n         int
		fit, abbr string
	}{
		{"abc", 3, "abc", "abc"},
		{"abcd", 3, "ab…", "abc…"},
		{"  ab cd ", 3, "  …", "ab…"},
		{"héllo wörld", 6, "héllo…", "héllo…"},
	} {
		if got := Fit(c.s, c.n); got != c.fit {
			t.Errorf("Fit(%q, %d) = %q, want %q", c.s, c.n, got, c.fit)
		}
		if got := Abbrev(c.s, c.n); got != c.abbr {
			t.Errorf("Abbrev(%q, %d) = %q, want %q", c.s, c.n, got, c.abbr)
		}
	}
}
