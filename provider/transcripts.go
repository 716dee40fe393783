package provider

import (
	"fmt"
	"strconv"

	"github.com/agt-project/agt"
	"github.com/google/uuid"
)

// FormatTranscripts is the format of input that is agt.transcript/1 lines
// (agt-transcript's output), which a usage report (agt.Options.Usage)
// reads back as the usage of their sessions; the other filters do not
// take transcripts.
const FormatTranscripts = "agt.transcript/1"

func isTranscripts(h agt.Head) bool {
	if len(h.Lines) == 0 {
		return false
	}
	var p struct {
		Schema string `json:"schema"`
	}
	return agt.API.Unmarshal(h.Lines[0], &p) == nil && p.Schema == FormatTranscripts
}

// transcriptLine is what a usage report reads of a transcript: the
// session, its folder, and the usage of each message, its subagents'
// included.
type transcriptLine struct {
	Schema        string              `json:"schema"`
	Session       string              `json:"session"`
	NativeSession string              `json:"native_session"`
	Provider      string              `json:"provider"`
	Format        string              `json:"format"`
	Model         string              `json:"model"`
	Cwd           string              `json:"cwd"`
	StartedAt     string              `json:"started_at"`
	EndedAt       string              `json:"ended_at"`
	Usage         agt.Usage           `json:"usage"`
	CostUSD       *float64            `json:"cost_usd"`
	NativeCostUSD *float64            `json:"native_cost_usd"`
	Messages      []transcriptMessage `json:"messages"`
	Subagents     []struct {
		Stream   string              `json:"stream"`
		Messages []transcriptMessage `json:"messages"`
	} `json:"subagents"`
}

type transcriptMessage struct {
	TS    string     `json:"ts"`
	Model string     `json:"model"`
	Usage *agt.Usage `json:"usage"`
}

// transcripts reads agt.transcript/1 lines into the events a usage report
// reads: a meta event with the session's folder, a usage event of scope
// call for each message with usage (the subagents' on their streams), and
// a usage event of scope run, without a time (a transcript does not say
// when), for what the session's totals hold beyond its messages (the run
// totals a source gave). Event
// ids are made from the session and the place of the usage in it, so that
// a transcript read twice counts once. The usage events keep the
// transcript's costs, which agt-normalize worked out from the logs (a
// call's speed, which transcripts do not keep, among them): their meta
// type is MetaTranscript, and the report does not price them again.
type transcripts struct{}

// MetaTranscript is the meta type of the events read from transcripts.
const MetaTranscript = "transcript"

func (transcripts) Decode(rec []byte) (any, error) {
	t := &transcriptLine{}
	if err := agt.Decode(rec, t); err != nil {
		if agt.IsFieldError(err) {
			return nil, fmt.Errorf("not an agt.transcript/1 line: %v", err)
		}
		return nil, err
	}
	if t.Schema != FormatTranscripts {
		return nil, fmt.Errorf("not an agt.transcript/1 line (schema %q)", agt.Printable(t.Schema[:min(len(t.Schema), 64)]))
	}
	if t.Provider == "" || t.NativeSession == "" {
		return nil, fmt.Errorf("not a valid agt.transcript/1 line: no provider or native_session")
	}
	if err := t.checkTimes(); err != nil {
		return nil, fmt.Errorf("not a valid agt.transcript/1 line: %v", err)
	}
	return t, nil
}

// checkTimes tells a time that is not RFC 3339 (as agt.event/1 input does):
// its usage would count on no day.
func (t *transcriptLine) checkTimes() error {
	bad := func(what, ts string) error {
		if ts == "" || agt.Timestamp(ts) != "" {
			return nil
		}
		return fmt.Errorf("%s %q is not an RFC 3339 time", what, agt.Printable(ts[:min(len(ts), 64)]))
	}
	if err := bad("started_at", t.StartedAt); err != nil {
		return err
	}
	msgs := func(where string, ms []transcriptMessage) error {
		for i := range ms {
			if err := bad(fmt.Sprintf("%smessages[%d].ts", where, i), ms[i].TS); err != nil {
				return err
			}
		}
		return nil
	}
	if err := msgs("", t.Messages); err != nil {
		return err
	}
	for i, s := range t.Subagents {
		if err := msgs(fmt.Sprintf("subagents[%d].", i), s.Messages); err != nil {
			return err
		}
	}
	return nil
}

func (transcripts) Apply(em *agt.Emitter, v any) {
	t := v.(*transcriptLine)
	sid := agt.SessionID(t.Provider, t.NativeSession)
	ns := uuid.MustParse(sid)
	src := em.Src()
	seq := int64(0)
	pass := func(ev agt.Event, key string) {
		ev.Schema, ev.ID, ev.Session, ev.NativeSession = agt.Schema, agt.EventID(ns, key, "transcript"), sid, t.NativeSession
		ev.Provider, ev.Format, ev.Seq, ev.Src = t.Provider, t.Format, seq, src
		if ev.Stream == "" {
			ev.Stream = agt.StreamMain
		}
		seq++
		em.Pass(ev)
	}
	pass(agt.Event{Kind: agt.KindMeta, TS: agt.Timestamp(t.StartedAt), Meta: &agt.Meta{Type: MetaTranscript, Cwd: t.Cwd}}, "session")
	rest := t.Usage
	rest.CostUSD, rest.NativeCostUSD = t.CostUSD, t.NativeCostUSD
	n := 0 // usage events of messages
	calls := func(stream string, msgs []transcriptMessage) {
		for i, m := range msgs {
			if m.Usage == nil {
				continue
			}
			n++
			u := *m.Usage
			u.Scope = agt.ScopeCall
			sub(&rest, &u)
			pass(agt.Event{Kind: agt.KindUsage, Stream: stream, TS: agt.Timestamp(m.TS), Model: m.Model, Usage: &u,
				Meta: &agt.Meta{Type: MetaTranscript}}, stream+"\x00"+strconv.Itoa(i))
		}
	}
	calls(agt.StreamMain, t.Messages)
	for _, s := range t.Subagents {
		calls(s.Stream, s.Messages)
	}
	// what the totals hold beyond the messages; a session whose only usage
	// is a run total of nothing still has usage (its cost is set)
	if rest.Input != 0 || rest.CacheRead != 0 || rest.CacheWrite != 0 || rest.Output != 0 || cents(rest.CostUSD) || cents(rest.NativeCostUSD) ||
		n == 0 && t.CostUSD != nil {
		rest.Scope, rest.ContextWindow, rest.MessageID = agt.ScopeRun, 0, ""
		rest.Sum()
		if rest.Reasoning > rest.Output {
			rest.Reasoning = rest.Output
		}
		pass(agt.Event{Kind: agt.KindUsage, Model: t.Model, Usage: &rest,
			Meta: &agt.Meta{Type: MetaTranscript}}, "run")
	}
}

func (transcripts) Finish(*agt.Emitter) {}

// sub takes u's counts and costs off r (never below zero).
func sub(r, u *agt.Usage) {
	for _, p := range [...]struct{ a, b *int64 }{{&r.Input, &u.Input}, {&r.CacheRead, &u.CacheRead}, {&r.CacheWrite, &u.CacheWrite},
		{&r.CacheWrite1h, &u.CacheWrite1h}, {&r.Output, &u.Output}, {&r.Reasoning, &u.Reasoning}} {
		*p.a = max(0, *p.a-*p.b)
	}
	for _, p := range [...]struct{ a, b **float64 }{{&r.CostUSD, &u.CostUSD}, {&r.NativeCostUSD, &u.NativeCostUSD}} {
		if *p.a != nil && *p.b != nil {
			left := max(0, **p.a-**p.b)
			*p.a = &left
		}
	}
}

// cents tells whether a cost is a cent or more.
func cents(c *float64) bool { return c != nil && *c >= 0.005 }
