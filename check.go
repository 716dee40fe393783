package agt

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// MaxCount is the largest token count (and context window) an event may
// carry: 2^53, the largest integer every JSON reader holds exactly. Sums of
// counts in range cannot wrap an int64 (Usage.Add saturates besides).
const MaxCount = 1 << 53

// MaxCost is the largest cost in dollars an event may carry.
const MaxCost = 1 << 53

// kinds are the event kinds of agt.event/1.
var kinds = map[string]bool{
	KindUser: true, KindAssistant: true, KindReasoning: true, KindToolCall: true,
	KindToolResult: true, KindUsage: true, KindSystem: true, KindSummary: true,
	KindSlashCommand: true, KindMeta: true, KindUnknown: true, KindError: true,
}

// CheckEvent reports why an event read from an agt.event/1 line cannot be
// used: its envelope (schema, id, session, stream, kind, src.path) or its
// payload (see CheckPayload). Fields not named here are optional; fields of
// the wrong JSON type were already refused by the decoder.
func CheckEvent(ev *Event) error {
	switch {
	case ev.Schema != Schema:
		return fmt.Errorf("schema %q, want %q", short(ev.Schema), Schema)
	case ev.ID == "":
		return errors.New("no id")
	case ev.Session == "":
		return errors.New("no session")
	case ev.Stream == "":
		return errors.New("no stream")
	case ev.Kind == "":
		return errors.New("no kind")
	case !kinds[ev.Kind]:
		return fmt.Errorf("unknown kind %q", short(ev.Kind))
	case ev.Seq < 0:
		return fmt.Errorf("seq %d is negative", ev.Seq)
	case ev.Src.Path == "":
		return errors.New("no src.path")
	case ev.Src.Line < 0:
		return fmt.Errorf("src.line %d is negative", ev.Src.Line)
	}
	return CheckPayload(ev)
}

// CheckPayload reports why the payload of an event does not fit its kind:
//
//	tool_call    tool
//	tool_result  result
//	usage        usage, scope call or run, counts and costs in range (Usage.Check)
//	meta         meta, with a type
//	error        error, with a message
//	unknown      raw
//
// and text, where present, is a JSON string; meta.outcome, where present,
// has a status a signal may carry. Every emitter-made event is
// checked the same way (Emitter.Emit), so that what agt-parse writes always
// passes.
func CheckPayload(ev *Event) error {
	switch ev.Kind {
	case KindToolCall:
		if ev.Tool == nil {
			return errors.New("tool_call without tool")
		}
	case KindToolResult:
		if ev.Result == nil {
			return errors.New("tool_result without result")
		}
	case KindUsage:
		if ev.Usage == nil {
			return errors.New("usage without usage")
		}
		if err := ev.Usage.Check(); err != nil {
			return err
		}
	case KindMeta:
		switch {
		case ev.Meta == nil:
			return errors.New("meta without meta")
		case ev.Meta.Type == "":
			return errors.New("meta without meta.type")
		}
	case KindError:
		switch {
		case ev.Error == nil:
			return errors.New("error without error")
		case ev.Error.Message == "":
			return errors.New("error without error.message")
		}
	case KindUnknown:
		if ev.Raw.IsNull() {
			return errors.New("unknown without raw")
		}
	}
	if len(ev.Text) > 0 && ev.Text[0] != '"' && !ev.Text.IsNull() {
		return fmt.Errorf("text is a JSON %s, want a string", jsonKind(ev.Text[0]))
	}
	if m := ev.Meta; m != nil && m.Outcome != nil && !signalled[m.Outcome.Status] {
		return fmt.Errorf("meta.outcome.status %q, want success, error, max_turns or interrupted", short(m.Outcome.Status))
	}
	if ev.Usage != nil && ev.Kind != KindUsage {
		if err := ev.Usage.Check(); err != nil {
			return err
		}
	}
	return nil
}

// Check reports a usage whose scope is not call or run, whose token counts
// or context window are outside 0…2^53, whose figures disagree (total is
// input + cache_read + cache_write + output; reasoning is a part of output,
// cache_write_1h of cache_write), or whose costs are not finite numbers in
// 0…2^53.
func (u *Usage) Check() error {
	if u.Scope != ScopeCall && u.Scope != ScopeRun {
		return fmt.Errorf("usage.scope %q, want %q or %q", short(u.Scope), ScopeCall, ScopeRun)
	}
	for _, f := range [...]struct {
		name string
		n    int64
	}{
		{"input", u.Input}, {"cache_read", u.CacheRead}, {"cache_write", u.CacheWrite},
		{"cache_write_1h", u.CacheWrite1h}, {"output", u.Output}, {"reasoning", u.Reasoning},
		{"total", u.Total}, {"context_window", u.ContextWindow},
	} {
		switch {
		case BadFigure(f.n):
			return fmt.Errorf("usage.%s: the log's token count is not a whole number in 0…2^53", f.name)
		case f.n < 0 || f.n > MaxCount:
			return fmt.Errorf("usage.%s %d is outside 0…2^53", f.name, f.n)
		}
	}
	switch {
	case u.Total != u.Input+u.CacheRead+u.CacheWrite+u.Output:
		return fmt.Errorf("usage.total %d is not input + cache_read + cache_write + output (%d)", u.Total, u.Input+u.CacheRead+u.CacheWrite+u.Output)
	case u.Reasoning > u.Output:
		return fmt.Errorf("usage.reasoning %d is more than output %d (output includes reasoning)", u.Reasoning, u.Output)
	case u.CacheWrite1h > u.CacheWrite:
		return fmt.Errorf("usage.cache_write_1h %d is more than cache_write %d (it is a part of it)", u.CacheWrite1h, u.CacheWrite)
	}
	if err := checkCost("cost_usd", u.CostUSD); err != nil {
		return err
	}
	return checkCost("native_cost_usd", u.NativeCostUSD)
}

func checkCost(name string, c *float64) error {
	if c != nil && !GoodCost(*c) {
		return fmt.Errorf("usage.%s %v is not a number in 0…2^53", name, *c)
	}
	return nil
}

// GoodCost reports whether c is a finite cost in 0…2^53 dollars.
func GoodCost(c float64) bool { return !math.IsNaN(c) && c >= 0 && c <= MaxCost }

// short cuts a value quoted in a message to 64 bytes.
func short(s string) string {
	if len(s) <= 64 {
		return s
	}
	return strings.ToValidUTF8(s[:64], "") + "…"
}
