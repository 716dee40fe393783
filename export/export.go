// Package export holds what the renderings of a consolidated transcript in
// other formats share (the packages below it: atif, otlp, agentv): its
// conversations (the session's and each subagent's) with their own usage
// and cost, the usage no model call carries, prompt token counts as the
// other formats count them, the agents' display names, the session id they
// carry and the writing of one document as a JSON line.
package export

import (
	"io"
	"math"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/transcript"
)

// Conv is one conversation of a session: the main one or a subagent's.
type Conv struct {
	Stream    string // agt.StreamMain for the session's own
	Model     string
	StartedAt string
	EndedAt   string
	Messages  []transcript.Message
	Usage     agt.Usage // this conversation's alone
	CostUSD   *float64
	Outcome   transcript.Outcome // how the conversation ended (the session's for the main one)
}

// SessionID is the session's id in the other formats: the agent's own (the
// native session id), else agt's.
func SessionID(t *transcript.Transcript) string {
	if t.NativeSession != "" {
		return t.NativeSession
	}
	return t.Session
}

// WriteJSON writes v as one JSON document on one line.
func WriteJSON(w io.Writer, v any) error {
	_, err := w.Write(transcript.AppendJSON(nil, v))
	return err
}

// Main is whether c is the session's own conversation.
func (c *Conv) Main() bool { return c.Stream == agt.StreamMain }

// Convs returns the session's conversation, then its subagents', each with
// its own usage (the transcript's usage is the sum of all of them).
func Convs(t *transcript.Transcript) []Conv {
	main := Conv{Stream: agt.StreamMain, Model: t.Model, StartedAt: t.StartedAt, EndedAt: t.EndedAt, Messages: t.Messages, Usage: t.Usage, CostUSD: t.CostUSD, Outcome: t.Outcome}
	out := make([]Conv, 0, 1+len(t.Subagents))
	out = append(out, main)
	for i := range t.Subagents {
		s := &t.Subagents[i]
		out = append(out, Conv{Stream: s.Stream, Model: s.Model, StartedAt: s.StartedAt, EndedAt: s.EndedAt, Messages: s.Messages, Usage: s.Usage, CostUSD: s.CostUSD, Outcome: s.Outcome})
		sub(&out[0].Usage, &s.Usage)
		out[0].CostUSD = subCost(out[0].CostUSD, s.CostUSD)
	}
	return out
}

// Unattributed is the usage of c that no message carries (a session total
// some logs give instead of, or beside, per-call usage), with its cost; ok
// is false when there is none.
func Unattributed(c *Conv) (u agt.Usage, ok bool) {
	u = c.Usage
	u.NativeCostUSD = nil
	cost := c.CostUSD
	for i := range c.Messages {
		if mu := c.Messages[i].Usage; mu != nil {
			sub(&u, mu)
			cost = subCost(cost, mu.CostUSD)
		}
	}
	u.Sum()
	ok = u.Input != 0 || u.CacheRead != 0 || u.CacheWrite != 0 || u.Output != 0 || u.Reasoning != 0
	if !ok || cost != nil && *cost == 0 {
		cost = nil
	}
	u.CostUSD = cost
	return u, ok
}

func sub(u, v *agt.Usage) {
	u.Input -= v.Input
	u.CacheRead -= v.CacheRead
	u.CacheWrite -= v.CacheWrite
	u.CacheWrite1h -= v.CacheWrite1h
	u.Output -= v.Output
	u.Reasoning -= v.Reasoning
	u.Total -= v.Total
}

// subCost is a - b; a tiny difference left by rounding is 0.
func subCost(a, b *float64) *float64 {
	if a == nil || b == nil {
		return a
	}
	d := *a - *b
	if math.Abs(d) < 1e-9 {
		d = 0
	}
	return &d
}

// Prompt is the prompt tokens of u as OpenTelemetry's GenAI conventions and
// ATIF count them: every input token, read from a cache or written to one
// included.
func Prompt(u *agt.Usage) int64 { return u.Input + u.CacheRead + u.CacheWrite }

// Text is a JSON value as text: a string's value, any other value as its
// JSON, nothing as "".
func Text(r agt.Raw) string {
	if r.IsNull() {
		return ""
	}
	if r[0] == '"' {
		return r.Str()
	}
	return string(r)
}

// Agent is the display name of a provider's agent, as the provider
// declares it in the registry (the provider's name when it is not
// registered, "unknown" for none).
func Agent(name string) string { return provider.Display(name) }
