//go:build amd64 || arm64

package agt

import (
	"reflect"
	"runtime"
	"testing"
)

// TestDecoderChosen: the function sonic decodes with is sonicDecode.
func TestDecoderChosen(t *testing.T) {
	if reflect.ValueOf(decodeImpl).Pointer() != reflect.ValueOf(sonicDecode).Pointer() {
		t.Error("sonic does not decode with sonicDecode")
	}
}

// TestDecodeRefusedAgain: a record the non-JIT decoder refuses is read as
// the JIT decoder reads it, on every machine: a number past float64's
// range in a member not asked for is skipped, and a member of the wrong
// type leaves the others filled.
func TestDecodeRefusedAgain(t *testing.T) {
	var v struct {
		G string `json:"g"`
		H int    `json:"h"`
		K string `json:"k"`
	}
	if err := API.UnmarshalFromString(`{"f":1e999,"g":"x"} `, &v); err != nil || v.G != "x" {
		t.Errorf("a huge number not asked for: %v, g %q", err, v.G)
	}
	if err := API.UnmarshalFromString(`{"f":1e999,"g":"x"} {}`, &v); err == nil {
		t.Error("a second value after the record: no error")
	}
	if err := API.UnmarshalFromString(`{"g":"y","h":"1","k":"z"}`, &v); err == nil || v.G != "y" || v.K != "z" {
		t.Errorf("h of the wrong type: %v, kept %+v", err, v)
	}
}

// TestCompiled: where sonic has a JIT decoder, Compiled has it read the
// type from then on, before the type has been read often.
func TestCompiled(t *testing.T) {
	type rec struct {
		A string `json:"a"`
	}
	jit := runtime.GOARCH == "amd64"
	if got := Compiled(&rec{}); got != jit {
		t.Fatalf("Compiled: %v on %s", got, runtime.GOARCH)
	}
	var v rec
	if err := API.UnmarshalFromString(`{"a":"x"}`, &v); err != nil || v.A != "x" {
		t.Errorf("decoded %+v: %v", v, err)
	}
}
