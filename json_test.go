package agt

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/bytedance/sonic/encoder"
)

// TestSonicNative guards against the silent fallback: on amd64 (and arm64)
// sonic must run its native JIT encoder and decoder, not encoding/json (a Go
// release newer than sonic supports builds the fallback without a word).
func TestSonicNative(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("sonic has no native mode on %s", runtime.GOARCH)
	}
	if encoder.EnableFallback {
		t.Fatalf("sonic runs in its encoding/json fallback on %s/%s with %s: pin a Go release sonic supports or upgrade sonic", runtime.GOOS, runtime.GOARCH, runtime.Version())
	}
}

// TestRoundTrip: an event decoded and encoded again gives the same bytes
// (what makes agt-parse | agt-normalize equal to agt-normalize).
func TestRoundTrip(t *testing.T) {
	line := `{"schema":"agt.event/1","id":"i","session":"s","native_session":"n","provider":"claude","format":"claude-session","seq":3,"ts":"2026-01-01T00:00:00.000Z","parent":"p","stream":"main","kind":"tool_result","text":"a \"quoted\" \u00e9 text\n","result":{"id":"t","call":"c","output":[{"type":"text","text":"x"}],"is_error":true,"exit_code":2},"usage":{"scope":"call","input":1,"cache_read":2,"cache_write":3,"cache_write_1h":1,"output":4,"reasoning":0,"total":10,"cost_usd":0.0123,"context_window":200000,"message_id":"m","speed":"fast"},"meta":{"type":"x","data":{"b":1,"a":[1,2]}},"src":{"path":"f","line":7},"raw":{"any":"thing"}}`
	var ev Event
	if err := Decode([]byte(line), &ev); err != nil {
		t.Fatal(err)
	}
	out := Marshal(&ev)
	if string(out) != line {
		t.Errorf("round trip differs:\n got  %s\n want %s", out, line)
	}
}

// TestIsFieldError: a record with a field of an unexpected type is a
// FieldError (its other fields were read); broken JSON is not.
func TestIsFieldError(t *testing.T) {
	var v struct {
		Kind string `json:"kind"`
		N    int    `json:"n"`
	}
	err := Decode([]byte(`{"kind":"x","n":"seven"}`), &v)
	if !IsFieldError(err) || v.Kind != "x" {
		t.Errorf("wrong-typed field: %v, kind %q", err, v.Kind)
	}
	for _, bad := range []string{`{"kind":`, `[1]`, ``} {
		if err := Decode([]byte(bad), &v); err == nil || IsFieldError(err) {
			t.Errorf("%q: %v taken as a field error", bad, err)
		}
	}
	if IsFieldError(nil) {
		t.Error("nil is a field error")
	}
}

func TestCompact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":"x y"}`, `{"a":"x y"}`},
		{`{"a": "x y"}`, `{"a":"x y"}`},
		{"{\n  \"a\": [1, 2]\n}", `{"a":[1,2]}`},
		{`{"a":"q\" b","c":"\\"}`, `{"a":"q\" b","c":"\\"}`},
		{`{"a":"q\\" , "b":1}`, `{"a":"q\\","b":1}`},
		{`{"a": nope}`, `{"a": nope}`},
	} {
		if got := string(Compact([]byte(c.in))); got != c.want {
			t.Errorf("Compact(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestCheck: Check tells a record that is not a JSON object with the error
// Decode gives it, and takes every object Decode reads (a field of the
// wrong type is no matter to it: it reads none).
func TestCheck(t *testing.T) {
	var v struct {
		Kind string `json:"kind"`
		N    int    `json:"n"`
	}
	for _, in := range []string{
		`{"kind":"x","n":1}`, `{"kind":"x","n":"seven"}`, " \t{\"a\":[1,{}]}\r\n",
		`{"kind":`, `[1]`, `"x"`, ``, `{"a":1}}`, `{"a":"\x"}`, "{\"a\":\"x\ty\"}", `{"a":1,}`, `nope`,
	} {
		derr := Decode([]byte(in), &v)
		if IsFieldError(derr) {
			derr = nil
		}
		cerr := Check([]byte(in))
		if fmt.Sprint(derr) != fmt.Sprint(cerr) {
			t.Errorf("%q: Check %v, Decode %v", in, cerr, derr)
		}
	}
}

// TestMismatchAfterCustomDecoder: a member of the wrong type after one
// with a decoder of its own (a Count), where sonic points at the object's
// end, is still named, as a mismatch elsewhere is.
func TestMismatchAfterCustomDecoder(t *testing.T) {
	var v struct {
		Input *Count   `json:"input_tokens"`
		Cost  *float64 `json:"cost"`
		N     []int    `json:"n"`
	}
	for in, want := range map[string]string{
		`{"input_tokens":10,"cost":"free"}`: `"cost": a string where a number belongs`,
		`{"input_tokens":10,"n":{"a":1}}`:   `"n": an object where an array belongs`,
		`{"cost":"free","input_tokens":10}`: `"cost": a string where a number belongs`,
	} {
		err := Decode([]byte(in), &v)
		if !IsFieldError(err) || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("Decode(%s) = %v, want …%s", in, err, want)
		}
		if err := DecodeValue("row", Raw(in), &v); err == nil || !strings.HasSuffix(err.Error(), "row: "+want) {
			t.Errorf("DecodeValue(%s) = %v, want …row: %s", in, err, want)
		}
	}
}

// TestDecodeMismatchKeepsRest: a member of the wrong type leaves v filled
// with every other member, before it and after it, and the error names it.
func TestDecodeMismatchKeepsRest(t *testing.T) {
	var v struct {
		Kind  string `json:"kind"`
		Usage struct {
			Cost  float64 `json:"cost_usd"`
			Input int64   `json:"input"`
			After string  `json:"after"`
		} `json:"usage"`
		Tail string `json:"tail"`
	}
	for in, want := range map[string]string{
		`{"kind":"k","usage":{"cost_usd":1e999,"after":"a"},"tail":"t"}`: `"cost_usd": a number too large`,
		`{"kind":"k","usage":{"input":"12","after":"a"},"tail":"t"}`:     `"input": a string where an integer belongs`,
	} {
		v.Kind, v.Usage.After, v.Tail = "", "", ""
		err := Decode([]byte(in), &v)
		if err == nil || err.Error() != "unexpected field type: "+want {
			t.Errorf("%s: %v, want %s", in, err, want)
		}
		if v.Kind != "k" || v.Usage.After != "a" || v.Tail != "t" {
			t.Errorf("%s: kept %+v, want kind, after and tail", in, v)
		}
	}
}

// TestStrAsDecoded: Raw.Str gives what decoding the raw as a JSON string
// gives (or the raw's text), never sharing the raw's memory, and reads a
// string with nothing to unescape with one allocation, its copy.
func TestStrAsDecoded(t *testing.T) {
	for _, s := range []string{
		`"plain text"`, `"tab\there"`, `"\u00e9t\u00e9"`, `"say \"hi\""`, `"a\\b"`, `""`, `"`, `"a"b"`,
		`"ab" `, ` "ab"`, `"ab`, `ab"`, "\"a\xffb\"", "\"a\x01b\"", `"\q"`, `123`, `{"a":1}`, `null`,
	} {
		var want string
		if len(s) == 0 || s[0] != '"' || API.Unmarshal([]byte(s), &want) != nil {
			want = s
		}
		r := Raw(s)
		got := r.Str()
		for i := range r {
			r[i] = 'x' // what the raw's memory becomes does not change the text
		}
		if got != want {
			t.Errorf("Raw(%q).Str() = %q, want %q", s, got, want)
		}
	}
	r := Raw(`"a text of some length, with nothing to unescape in it"`)
	if n := testing.AllocsPerRun(100, func() { _ = r.Str() }); n > 1 {
		t.Errorf("Str of a string without escapes: %v allocations, want 1", n)
	}
}

// TestStringAsEncoded: String gives what the encoder gives, and quotes a
// short plain string (a key, a name) with one allocation.
func TestStringAsEncoded(t *testing.T) {
	for _, s := range []string{"file_path", "a b~!#$%&'()*+,-./:;<=>?@[]^_`{|}", `say "hi"`, `a\b`, "tab\t", "\x00", "\x7f", "é", "\u2028", "\xff",
		strings.Repeat("k", 64), strings.Repeat("k", 65), strings.Repeat("<&>", 30)} {
		want, _ := API.Marshal(s)
		if got := String(s); !bytes.Equal(got, want) {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = String("file_path") }); n > 1 {
		t.Errorf("String of a key: %v allocations, want 1", n)
	}
}

// TestDecodeExact: DecodeExact and UnmarshalExact match keys in their exact
// case only; Decode and Unmarshal in any case.
func TestDecodeExact(t *testing.T) {
	type rec struct {
		Type string `json:"type"`
	}
	line := []byte(`{"TYPE":"a"}`)
	var any, exact, anyU, exactU rec
	if Decode(line, &any) != nil || DecodeExact(line, &exact) != nil || Unmarshal(line, &anyU) != nil || UnmarshalExact(line, &exactU) != nil {
		t.Fatal("not decoded")
	}
	if any.Type != "a" || anyU.Type != "a" || exact.Type != "" || exactU.Type != "" {
		t.Errorf("any case: %q, %q; exact: %q, %q", any.Type, anyU.Type, exact.Type, exactU.Type)
	}
}
