package agt

import (
	"math"
	"strings"
	"testing"
)

func good() Event {
	return Event{Schema: Schema, ID: "i", Session: "s", Stream: StreamMain, Kind: KindUser, Text: String("hi"), Src: Src{Path: "f", Line: 1}}
}

func TestCheckEvent(t *testing.T) {
	nan, inf, neg := math.NaN(), math.Inf(1), -1.0
	cases := []struct {
		name string
		edit func(ev *Event)
		want string // "" = valid
	}{
		{"good", func(*Event) {}, ""},
		{"no id", func(ev *Event) { ev.ID = "" }, "no id"},
		{"no session", func(ev *Event) { ev.Session = "" }, "no session"},
		{"no stream", func(ev *Event) { ev.Stream = "" }, "no stream"},
		{"no kind", func(ev *Event) { ev.Kind = "" }, "no kind"},
		{"unknown kind", func(ev *Event) { ev.Kind = "chat" }, `unknown kind "chat"`},
		{"schema", func(ev *Event) { ev.Schema = "agt.event/2" }, "schema"},
		{"seq", func(ev *Event) { ev.Seq = -1 }, "seq -1"},
		{"no path", func(ev *Event) { ev.Src.Path = "" }, "no src.path"},
		{"line", func(ev *Event) { ev.Src.Line = -2 }, "src.line -2"},
		{"text object", func(ev *Event) { ev.Text = Raw(`{"a":1}`) }, "text is a JSON object"},
		{"tool_call", func(ev *Event) { ev.Kind = KindToolCall }, "tool_call without tool"},
		{"tool_call ok", func(ev *Event) { ev.Kind, ev.Tool = KindToolCall, &Tool{} }, ""},
		{"tool_result", func(ev *Event) { ev.Kind = KindToolResult }, "tool_result without result"},
		{"usage", func(ev *Event) { ev.Kind = KindUsage }, "usage without usage"},
		{"meta", func(ev *Event) { ev.Kind = KindMeta }, "meta without meta"},
		{"meta type", func(ev *Event) { ev.Kind, ev.Meta = KindMeta, &Meta{} }, "meta without meta.type"},
		{"error", func(ev *Event) { ev.Kind = KindError }, "error without error"},
		{"error message", func(ev *Event) { ev.Kind, ev.Error = KindError, &Error{} }, "error without error.message"},
		{"unknown", func(ev *Event) { ev.Kind = KindUnknown }, "unknown without raw"},
		{"usage ok", func(ev *Event) {
			ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeCall, Input: 1, Output: 2, Reasoning: 1, Total: 3}
		}, ""},
		{"scope", func(ev *Event) { ev.Kind, ev.Usage = KindUsage, &Usage{Scope: "session"} }, `usage.scope "session"`},
		{"negative", func(ev *Event) { ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeRun, Input: -5, Total: -5} }, "usage.input -5 is outside"},
		{"huge", func(ev *Event) {
			ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeRun, Output: math.MaxInt64, Total: math.MaxInt64}
		}, "usage.output 9223372036854775807 is outside"},
		{"2^53", func(ev *Event) {
			ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeRun, Output: MaxCount, Total: MaxCount}
		}, ""},
		{"total", func(ev *Event) { ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeRun, Input: 1, Total: 2} }, "usage.total 2 is not"},
		{"reasoning", func(ev *Event) { ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeRun, Reasoning: 1} }, "usage.reasoning 1 is more"},
		{"1h", func(ev *Event) { ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeRun, CacheWrite1h: 1} }, "usage.cache_write_1h 1 is more"},
		{"nan", func(ev *Event) { ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeRun, CostUSD: &nan} }, "usage.cost_usd NaN"},
		{"inf", func(ev *Event) { ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeRun, NativeCostUSD: &inf} }, "usage.native_cost_usd +Inf"},
		{"negative cost", func(ev *Event) { ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeRun, CostUSD: &neg} }, "usage.cost_usd -1"},
		{"window", func(ev *Event) { ev.Kind, ev.Usage = KindUsage, &Usage{Scope: ScopeRun, ContextWindow: -1} }, "usage.context_window"},
		{"usage on another kind", func(ev *Event) { ev.Usage = &Usage{Scope: ScopeRun, Input: -1} }, "usage.input"},
	}
	for _, c := range cases {
		ev := good()
		c.edit(&ev)
		err := CheckEvent(&ev)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestEmitterChecks: a parser's usage with a bad figure becomes an error
// event on its record; a cost that is not finite is left out with a warning.
func TestEmitterChecks(t *testing.T) {
	em := NewEmitter("x", "x-log", Options{})
	em.At(Src{Path: "f.jsonl", Line: 1}, Raw(`{"n":1}`))
	em.Session("s1")
	em.Emit(Event{Kind: KindUsage, Usage: &Usage{Scope: ScopeCall, Input: -3, Total: -3}}, "k1", "usage")
	inf := math.Inf(1)
	em.At(Src{Path: "f.jsonl", Line: 2}, Raw(`{"n":2}`))
	em.Emit(Event{Kind: KindUsage, Usage: &Usage{Scope: ScopeCall, Input: 3, Total: 3, NativeCostUSD: &inf}}, "k2", "usage")
	em.Emit(Event{Kind: KindToolResult}, "k3", "result")
	evs, diags := em.Take()
	if len(evs) != 3 || evs[0].Kind != KindError || evs[0].Error.LineText != `{"n":1}` || evs[0].Src.Line != 1 ||
		evs[1].Kind != KindUsage || evs[1].Usage.NativeCostUSD != nil || evs[2].Kind != KindError {
		t.Fatalf("events %+v", evs)
	}
	for _, ev := range evs {
		if err := CheckEvent(&ev); err != nil {
			t.Errorf("emitted event fails the check: %v", err)
		}
	}
	if len(diags) != 3 || !diags[0].Data || diags[1].Data || !diags[2].Data ||
		!strings.Contains(diags[0].Text, "usage.input -3") || !strings.Contains(diags[1].Text, "native_cost_usd +Inf") {
		t.Errorf("diagnostics %+v", diags)
	}
}

func TestUsageAddSaturates(t *testing.T) {
	u := Usage{Input: math.MaxInt64 - 1, Total: 5}
	big := 1e300
	u.Add(&Usage{Input: 10, Total: -10, CostUSD: &big})
	u.Add(&Usage{CostUSD: &big})
	if u.Input != math.MaxInt64 || u.Total != -5 {
		t.Errorf("sum %+v", u)
	}
	u.Add(nil)
	n := Usage{Input: math.MinInt64 + 1}
	n.Add(&Usage{Input: -5})
	if n.Input != math.MinInt64 {
		t.Errorf("negative sum %d", n.Input)
	}
}

func TestPrintable(t *testing.T) {
	cases := map[string]string{
		"plain path/f.jsonl":        "plain path/f.jsonl",
		"a\nb\r\tc":                 `a\nb\r\tc`,
		"\x1b]52;c;aGk=\x07":        `\x1b]52;c;aGk=\x07`,
		"\x1b[2J":                   `\x1b[2J`,
		"c1 \u009b2J \u0085":        `c1 \x9b2J \x85`,
		"bidi \u202eevil\u2066":     `bidi \u202eevil\u2066`,
		"sep\u2028x":                `sep\u2028x`,
		"bad \xff\xfe utf8":         `bad \xff\xfe utf8`,
		"ünïcode ✓ and back\\slash": "ünïcode ✓ and back\\slash",
		"del\x7f":                   `del\x7f`,
	}
	for in, want := range cases {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPathText(t *testing.T) {
	for in, want := range map[string]string{
		"ok/ünï.jsonl":       "ok/ünï.jsonl",
		"bad\xff.jsonl":      `bad\xff.jsonl`,
		"cut\xc3.jsonl":      `cut\xc3.jsonl`,
		"nl\nkept\x1b.jsonl": "nl\nkept\x1b.jsonl",
	} {
		if got := PathText(in); got != want {
			t.Errorf("PathText(%q) = %q, want %q", in, got, want)
		}
	}
	em := NewEmitter("x", "x-log", Options{})
	em.At(Src{Path: "d/s\xff.jsonl", Line: 1}, Raw(`{}`))
	em.Unknown("", "", "")
	em.At(Src{Path: "d/s\xff.jsonl", Line: 2}, Raw(`{}`))
	em.Unknown("", "", "")
	em.Done()
	evs, _ := em.Take()
	for _, ev := range evs {
		if ev.Src.Path != `d/s\xff.jsonl` || ev.NativeSession != `s\xff` {
			t.Errorf("src.path %q, session %q", ev.Src.Path, ev.NativeSession)
		}
	}
}

func TestDiagString(t *testing.T) {
	d := Diag{Src: Src{Path: "a\nb\xff.jsonl", Line: 3}, Text: "bad \x1b[2J text"}
	if got, want := d.String(), `a\nb\xff.jsonl:3: bad \x1b[2J text`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestFieldErrorNamesKey(t *testing.T) {
	var ev Event
	err := Decode([]byte(`{"schema":"agt.event/1", "kind" : 5}`), &ev)
	if err == nil || err.Error() != `unexpected field type: "kind": a number where a string belongs` {
		t.Errorf("%v", err)
	}
	err = Decode([]byte(`{"usage":{"input":"7"}}`), &ev)
	if err == nil || err.Error() != `unexpected field type: "input": a string where an integer belongs` {
		t.Errorf("%v", err)
	}
}

func TestFieldErrorTooLarge(t *testing.T) {
	var ev Event
	for in, want := range map[string]string{
		`{"usage":{"input":9223372036854775808}}`: `"input": a number too large`,
		`{"usage":{"input":1.5}}`:                 `"input": a number where an integer belongs`,
		`{"usage":{"cost_usd":1e999}}`:            `"cost_usd": a number too large`,
	} {
		if err := Decode([]byte(in), &ev); err == nil || err.Error() != "unexpected field type: "+want {
			t.Errorf("%s: %v, want %s", in, err, want)
		}
	}
}

func TestCheckMessagesShort(t *testing.T) {
	ev := good()
	ev.Kind = strings.Repeat("k", 10000)
	if err := CheckEvent(&ev); err == nil || len(err.Error()) > 100 {
		t.Errorf("%.200v", err)
	}
}
