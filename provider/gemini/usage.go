package gemini

import (
	"time"

	"github.com/agt-project/agt"
)

// tokens is a session message's token count (one API response):
// input = promptTokenCount (cached included), output = candidatesTokenCount,
// cached = cachedContentTokenCount, thoughts = thoughtsTokenCount,
// tool = toolUsePromptTokenCount, total = totalTokenCount.
type tokens struct {
	Input    agt.Count `json:"input"`
	Output   agt.Count `json:"output"`
	Cached   agt.Count `json:"cached"`
	Thoughts agt.Count `json:"thoughts"`
	Tool     agt.Count `json:"tool"`
	Total    agt.Count `json:"total"`
}

// usage turns a message's tokens into one model call's usage. Its total is
// Gemini's total: input + output + thoughts + tool.
func (t tokens) usage() *agt.Usage {
	u := &agt.Usage{
		Scope:     agt.ScopeCall,
		Input:     int64(t.Input - t.Cached + t.Tool),
		CacheRead: int64(t.Cached),
		Output:    int64(t.Output + t.Thoughts),
		Reasoning: int64(t.Thoughts),
	}
	agt.Taint(u, t.Total)
	u.Sum()
	return u
}

// modelTokens is stats.models[m].tokens of the json output. input is
// prompt - cached (absent in older releases).
type modelTokens struct {
	Input      *agt.Count `json:"input"`
	Prompt     agt.Count  `json:"prompt"`
	Candidates agt.Count  `json:"candidates"`
	Total      agt.Count  `json:"total"`
	Cached     agt.Count  `json:"cached"`
	Thoughts   agt.Count  `json:"thoughts"`
	Tool       agt.Count  `json:"tool"`
}

func (t modelTokens) usage() *agt.Usage {
	in := t.Prompt - t.Cached
	if t.Prompt == 0 && t.Input != nil {
		in = *t.Input
	}
	u := &agt.Usage{
		Scope:     agt.ScopeRun,
		Input:     int64(in + t.Tool),
		CacheRead: int64(t.Cached),
		Output:    int64(t.Candidates + t.Thoughts),
		Reasoning: int64(t.Thoughts),
	}
	agt.Taint(u, t.Prompt, t.Total)
	u.Sum()
	return u
}

// streamTokens is result.stats (or stats.models[m]) of the stream-json
// output: input_tokens = prompt (cached included), output_tokens =
// candidates, total_tokens = everything (thoughts and tool-use prompt
// included, neither reported on its own).
type streamTokens struct {
	Total  agt.Count  `json:"total_tokens"`
	Prompt agt.Count  `json:"input_tokens"`
	Output agt.Count  `json:"output_tokens"`
	Cached agt.Count  `json:"cached"`
	Input  *agt.Count `json:"input"`
}

func (t streamTokens) usage() *agt.Usage {
	in := t.Prompt - t.Cached
	if t.Prompt == 0 && t.Input != nil {
		in = *t.Input
	}
	out := t.Output
	if rest := t.Total - t.Prompt; rest > out {
		out = rest
	}
	u := &agt.Usage{
		Scope:     agt.ScopeRun,
		Input:     int64(in),
		CacheRead: int64(t.Cached),
		Output:    int64(out),
		Reasoning: int64(out - t.Output),
	}
	agt.Taint(u, t.Prompt, t.Total)
	u.Sum()
	return u
}

// zero reports whether u counts no token at all.
func zero(u *agt.Usage) bool {
	return u.Input == 0 && u.CacheRead == 0 && u.CacheWrite == 0 && u.Output == 0
}

// ts returns s as RFC 3339 UTC with milliseconds ("" stays "", text that is
// no time is kept as given).
func ts(s string) string {
	if len(s) == 24 && s[10] == 'T' && s[19] == '.' && s[23] == 'Z' {
		return s
	}
	if s == "" {
		return ""
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}
