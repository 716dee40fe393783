package agt

import "testing"

// TestSonicCallsDecode: sonic decodes through sonicDecode (decodeImpl is
// sonic's own variable, not a variable of the same name here): a type
// decoded once has been counted.
func TestSonicCallsDecode(t *testing.T) {
	type fresh struct {
		A string `json:"a"`
	}
	var v fresh
	if err := API.UnmarshalFromString(`{"a":"x"}`, &v); err != nil || v.A != "x" {
		t.Fatalf("decoded %+v: %v", v, err)
	}
	if n := tierOf(&v).n.Load(); n != 1 {
		t.Errorf("sonicDecode counted %d decodes of the type, want 1", n)
	}
}
