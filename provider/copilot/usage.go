package copilot

import (
	"sort"

	"github.com/agt-project/agt"
)

// segment is the usage of one process run of a session, from session.start
// or session.resume to session.shutdown: the call usage emitted from
// assistant.usage and the output tokens assistant.message states, per model
// in first-seen order.
type segment struct {
	models []string
	calls  map[string]*agt.Usage
	out    map[string]int64
}

func newSegment() segment {
	return segment{calls: map[string]*agt.Usage{}, out: map[string]int64{}}
}

func (s *segment) touch(model string) {
	if _, ok := s.out[model]; !ok {
		s.out[model] = 0
		s.calls[model] = &agt.Usage{}
		s.models = append(s.models, model)
	}
}

func (s *segment) addOutput(model string, n int64) {
	s.touch(model)
	s.out[model] += n
}

func (s *segment) addCall(model string, u *agt.Usage) {
	s.touch(model)
	s.calls[model].Add(u)
}

// netInput is Copilot's inputTokens without the cached tokens: Copilot's
// input is gross (it includes cacheReadTokens and cacheWriteTokens). A
// count smaller than its cache parts is taken as already net.
func netInput(in, cacheRead, cacheWrite int64) int64 {
	if n := in - cacheRead - cacheWrite; n >= 0 {
		return n
	}
	return in
}

// readCallUsage reads assistant.usage, the usage of one model call.
func readCallUsage(d *data) *agt.Usage {
	cr, cw := int64(d.CacheReadTokens), int64(d.CacheWriteTokens)
	u := &agt.Usage{Scope: agt.ScopeCall, Input: netInput(int64(d.InputTokens), cr, cw), CacheRead: cr, CacheWrite: cw,
		Output: int64(d.outputTokens()), Reasoning: int64(d.ReasoningTokens), MessageID: d.APICallID}
	u.Sum()
	return u
}

// outputTokens is outputTokens, 0 when absent.
func (d *data) outputTokens() agt.Count {
	if d.OutputTokens == nil {
		return 0
	}
	return *d.OutputTokens
}

// shutdownInfo is the run usage session.shutdown states: per model from
// modelMetrics, or, when no model has usage there, the session-wide
// tokenDetails for one model.
type shutdownInfo struct {
	models  []modelUsage // sorted by model
	details *modelUsage
}

type modelUsage struct {
	model string
	u     agt.Usage
}

// readShutdown reads modelMetrics.<model>.usage.{inputTokens, outputTokens,
// cacheReadTokens, cacheWriteTokens, reasoningTokens} and tokenDetails.
// {input, output, cache_read, cache_write}.tokenCount (already net).
func readShutdown(d *data) (*shutdownInfo, error) {
	s := &shutdownInfo{}
	var metrics map[string]struct {
		Usage *struct {
			InputTokens      agt.Count `json:"inputTokens"`
			OutputTokens     agt.Count `json:"outputTokens"`
			CacheReadTokens  agt.Count `json:"cacheReadTokens"`
			CacheWriteTokens agt.Count `json:"cacheWriteTokens"`
			ReasoningTokens  agt.Count `json:"reasoningTokens"`
		} `json:"usage"`
	}
	var err error
	if len(d.ModelMetrics) > 0 && d.ModelMetrics[0] == '{' {
		err = agt.Decode(d.ModelMetrics, &metrics)
	}
	var names []string
	for m := range metrics {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		mu := metrics[m].Usage
		if mu == nil {
			continue
		}
		cr, cw := int64(mu.CacheReadTokens), int64(mu.CacheWriteTokens)
		s.models = append(s.models, modelUsage{m, agt.Usage{Input: netInput(int64(mu.InputTokens), cr, cw), CacheRead: cr, CacheWrite: cw,
			Output: int64(mu.OutputTokens), Reasoning: int64(mu.ReasoningTokens)}})
	}
	if len(s.models) == 0 && len(d.TokenDetails) > 0 && d.TokenDetails[0] == '{' {
		var td map[string]struct {
			TokenCount float64 `json:"tokenCount"`
		}
		if derr := agt.Decode(d.TokenDetails, &td); derr != nil && err == nil {
			err = derr
		}
		model := d.CurrentModel
		if len(names) == 1 {
			model = names[0]
		}
		s.details = &modelUsage{model, agt.Usage{Input: int64(td["input"].TokenCount), CacheRead: int64(td["cache_read"].TokenCount),
			CacheWrite: int64(td["cache_write"].TokenCount), Output: int64(td["output"].TokenCount)}}
	}
	return s, err
}

// minus returns a − b per count, never below 0.
func minus(a, b agt.Usage) agt.Usage {
	sub := func(x, y int64) int64 {
		if x > y {
			return x - y
		}
		return 0
	}
	return agt.Usage{Input: sub(a.Input, b.Input), CacheRead: sub(a.CacheRead, b.CacheRead), CacheWrite: sub(a.CacheWrite, b.CacheWrite),
		Output: sub(a.Output, b.Output), Reasoning: sub(a.Reasoning, b.Reasoning)}
}

func (p *sessionParser) emitRun(em *agt.Emitter, r *rec, key, suffix, model string, u agt.Usage) {
	u.Scope = agt.ScopeRun
	u.CacheWrite1h, u.CostUSD, u.NativeCostUSD, u.MessageID = 0, nil, nil, ""
	u.Sum()
	if u.Total == 0 {
		return
	}
	ev := agt.Event{Kind: agt.KindUsage, TS: p.last, Model: model, Usage: &u} // a run that ended unsaid: at its last record
	if r != nil {
		ev.TS = r.ts
	}
	em.Emit(ev, key, suffix+":"+model)
}

// callUsage emits assistant.usage as the usage of one call.
func (p *sessionParser) callUsage(em *agt.Emitter, r *rec) {
	model := p.modelOf(r)
	u := *r.usage
	em.Emit(agt.Event{Kind: agt.KindUsage, TS: r.ts, Stream: r.stream, Model: model, Usage: &u}, p.key(r.id), "usage")
	p.seg.addCall(model, r.usage)
}

// shutdown emits the run's usage per model: what the shutdown states less
// what assistant.usage events of the run already gave, so that no token is
// counted twice. Each process run (start or resume … shutdown) writes its
// own shutdown with its own totals, so shutdowns are not differenced; but
// when a model's totals reach the output emitted as open usage for earlier
// runs (a shutdown without metrics, a run killed before its shutdown) plus
// this run's, they cover those runs too, and that output is not counted
// again.
func (p *sessionParser) shutdown(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	p.meta(em, r, k, &agt.Meta{Type: r.typ, Subtype: r.d.ShutdownType, Data: r.raw}, r.d.CurrentModel)
	s := r.shut
	switch {
	case len(s.models) > 0:
		for _, mu := range s.models {
			var done agt.Usage
			if c := p.seg.calls[mu.model]; c != nil {
				done = *c
			}
			if c, out := p.carried(mu.model, len(s.models) == 1); c > 0 && mu.u.Output >= c+out {
				done.Output += c // the totals cover the earlier runs too
			}
			p.emitRun(em, r, k, "usage", mu.model, minus(mu.u, done))
		}
		p.carry = nil
	case s.details != nil:
		var done agt.Usage
		for _, m := range p.seg.models {
			done.Add(p.seg.calls[m])
		}
		p.emitRun(em, r, k, "usage", s.details.model, minus(s.details.u, done))
	default:
		p.openUsage(em, k, "usage")
	}
	p.seg = newSegment()
}

// openUsage emits, for a run that ended without usage totals (killed
// before session.shutdown, or a shutdown without metrics), the output
// tokens its assistant messages state beyond the call usage already
// emitted, as run usage per model: the only usage such a run leaves.
func (p *sessionParser) openUsage(em *agt.Emitter, key, suffix string) {
	for _, m := range p.seg.models {
		o := p.seg.out[m] - p.seg.calls[m].Output
		if o > 0 {
			p.emitRun(em, nil, key, suffix, m, agt.Usage{Output: o})
			if p.carry == nil {
				p.carry = map[string]int64{}
			}
			p.carry[m] += o
		}
	}
	p.seg = newSegment()
}

// carried is the output emitted as open usage for earlier runs and the
// output this run's messages state, for model; with only model in the
// shutdown, messages of no known model count as model's.
func (p *sessionParser) carried(model string, only bool) (carry, out int64) {
	carry, out = p.carry[model], p.seg.out[model]
	if only && model != "" {
		carry += p.carry[""]
		out += p.seg.out[""]
	}
	return carry, out
}
