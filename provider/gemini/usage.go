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
	Input    int64 `json:"input"`
	Output   int64 `json:"output"`
	Cached   int64 `json:"cached"`
	Thoughts int64 `json:"thoughts"`
	Tool     int64 `json:"tool"`
	Total    int64 `json:"total"`
}

// usage turns a message's tokens into one model call's usage. Its total is
// Gemini's total: input + output + thoughts + tool.
func (t tokens) usage() *agt.Usage {
	u := &agt.Usage{
		Scope:     agt.ScopeCall,
		Input:     t.Input - t.Cached + t.Tool,
		CacheRead: t.Cached,
		Output:    t.Output + t.Thoughts,
		Reasoning: t.Thoughts,
	}
	u.Sum()
	return u
}

// modelTokens is stats.models[m].tokens of the json output. input is
// prompt - cached (absent in older releases).
type modelTokens struct {
	Input      *int64 `json:"input"`
	Prompt     int64  `json:"prompt"`
	Candidates int64  `json:"candidates"`
	Total      int64  `json:"total"`
	Cached     int64  `json:"cached"`
	Thoughts   int64  `json:"thoughts"`
	Tool       int64  `json:"tool"`
}

func (t modelTokens) usage() *agt.Usage {
	in := t.Prompt - t.Cached
	if t.Prompt == 0 && t.Input != nil {
		in = *t.Input
	}
	u := &agt.Usage{
		Scope:     agt.ScopeRun,
		Input:     in + t.Tool,
		CacheRead: t.Cached,
		Output:    t.Candidates + t.Thoughts,
		Reasoning: t.Thoughts,
	}
	u.Sum()
	return u
}

// streamTokens is result.stats (or stats.models[m]) of the stream-json
// output: input_tokens = prompt (cached included), output_tokens =
// candidates, total_tokens = everything (thoughts and tool-use prompt
// included, neither reported on its own).
type streamTokens struct {
	Total  int64  `json:"total_tokens"`
	Prompt int64  `json:"input_tokens"`
	Output int64  `json:"output_tokens"`
	Cached int64  `json:"cached"`
	Input  *int64 `json:"input"`
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
		Input:     in,
		CacheRead: t.Cached,
		Output:    out,
		Reasoning: out - t.Output,
	}
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
