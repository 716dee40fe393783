package codex

import "github.com/agt-project/agt"

// tokenInfo is event_msg token_count.info.
type tokenInfo struct {
	Total         *tokens   `json:"total_token_usage"`
	Last          *tokens   `json:"last_token_usage"` // the latest call's; read when no total comes with it
	ContextWindow agt.Count `json:"model_context_window"`
	Model         string    `json:"model"` // written by some versions beside the counts
}

// tokens is a Codex token count (OpenAI semantics: input_tokens includes
// the cached and cache-write tokens, output_tokens includes reasoning).
type tokens struct {
	Input      agt.Count `json:"input_tokens"`
	Cached     agt.Count `json:"cached_input_tokens"`
	CacheWrite agt.Count `json:"cache_write_input_tokens"`
	Output     agt.Count `json:"output_tokens"`
	Reasoning  agt.Count `json:"reasoning_output_tokens"`
}

func (t tokens) sub(p tokens) tokens {
	return tokens{t.Input - p.Input, t.Cached - p.Cached, t.CacheWrite - p.CacheWrite, t.Output - p.Output, t.Reasoning - p.Reasoning}
}

// add is t + p, each count held at the int64 bounds (agt.Usage.Add).
func (t tokens) add(p tokens) tokens {
	var s, a, b agt.Usage
	a = agt.Usage{Input: int64(t.Input), CacheRead: int64(t.Cached), CacheWrite: int64(t.CacheWrite), Output: int64(t.Output), Reasoning: int64(t.Reasoning)}
	b = agt.Usage{Input: int64(p.Input), CacheRead: int64(p.Cached), CacheWrite: int64(p.CacheWrite), Output: int64(p.Output), Reasoning: int64(p.Reasoning)}
	s.Add(&a)
	s.Add(&b)
	return tokens{agt.Count(s.Input), agt.Count(s.CacheRead), agt.Count(s.CacheWrite), agt.Count(s.Output), agt.Count(s.Reasoning)}
}

// below reports whether some count of t is smaller than p's.
func (t tokens) below(p tokens) bool {
	return t.Input < p.Input || t.Cached < p.Cached || t.CacheWrite < p.CacheWrite || t.Output < p.Output || t.Reasoning < p.Reasoning
}

func (t tokens) zero() bool { return t == tokens{} }

// inRange reports counts that are all within 0…2^53, as usage events must be.
func (t tokens) inRange() bool {
	for _, v := range [...]agt.Count{t.Input, t.Cached, t.CacheWrite, t.Output, t.Reasoning} {
		if v < 0 || v > 1<<53 {
			return false
		}
	}
	return true
}

// usage converts a Codex count to agt's meaning.
func (t tokens) usage(scope string) *agt.Usage {
	u := &agt.Usage{Scope: scope, Input: agt.Uncached(t.Input, t.Cached, t.CacheWrite), CacheRead: int64(t.Cached), CacheWrite: int64(t.CacheWrite), Output: int64(t.Output), Reasoning: int64(t.Reasoning)}
	u.Sum()
	return u
}

// totals turns cumulative totals into differences, per thread.
type totals struct {
	seed bool // a thread's first total may continue the latest total
	prev map[string]tokens
	last *tokens // the latest total seen, of any thread
}

// step returns the difference between t and the previous total of thread,
// and whether it is one: a repeated total is not. A total below the previous
// one is a counter that started again from zero (a resumed session, a new
// process after /compact): it counts in full and is the new baseline, so no
// interval is lost. A thread's first total counts from zero, or, with seed,
// from the latest total of the input when it is not below it (a forked
// thread's counter is seeded from its parent's).
func (s *totals) step(thread string, t tokens) (tokens, bool) {
	if s.prev == nil {
		s.prev = map[string]tokens{}
	}
	p, seen := s.prev[thread]
	if !seen && s.seed && s.last != nil && !t.below(*s.last) {
		p, seen = *s.last, true
	}
	s.prev[thread] = t
	s.last = &t
	if seen && t == p {
		return tokens{}, false
	}
	if !seen || t.below(p) {
		return t, !t.zero()
	}
	return t.sub(p), true
}

// advance counts a call's own figures (a token_count with last_token_usage
// only) into the thread's running total, so that a later cumulative total
// does not count them again.
func (s *totals) advance(thread string, t tokens) {
	if s.prev == nil {
		s.prev = map[string]tokens{}
	}
	p := s.prev[thread].add(t)
	s.prev[thread] = p
	s.last = &p
}
