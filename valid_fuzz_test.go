package agt

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzValid: Valid says what encoding/json's Valid says, whatever the
// bytes.
func FuzzValid(f *testing.F) {
	for _, s := range []string{
		`{"a":1}`, "01", "1.", ".5", "-", "1e", "+1", "[1,]", `{"a":1,}`, "tru", `"\x"`, "1 2", " {} ", "{}x",
		"NaN", "\"\t\"", `["\u12G4"]`, "1.5e+", "-0", "1E5", "0x10", `{"a" 1}`, `{'a':1}`, "{}\x00", "\x00{}",
		`{"a":-01}`, "{\"a\":\"\xff\"}", "\ufeff{}", `{"a":tRue}`, "{\r\"a\":1}", "{\f\"a\":1}", `"\ud800"`,
		`{"a":"b"`, `1.e5`, "\u00a0{}", `{"a":"\\\"\/\b\f\n\r\t\u00e9"}`, `{"a":"\u00e"}`, `"\\`, `"\"`, `"\\"`,
		`"00000000000000000000000000000000`, `[[],{},[{}],{"a":[]}]`, `{"a":{"b":{"c":[1,2.5e-3,-0.0,true,false,null]}}}`,
		`"a\"b\\"`, `"\\\\\""`, `[1 ,2 , 3 ]`, `{ "a" : 1 , "b" : [ ] }`, `{"a":1}{"b":2}`, ``, ` `,
		strings.Repeat("[", 600) + strings.Repeat("]", 600), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}
