package acp

import "strings"

// Ways an agent counts cached input in its prompt usage.
const (
	cacheInferred = iota // decided from totalTokens
	cacheIncluded        // inputTokens include cachedRead and cachedWrite tokens
	cacheExcluded        // inputTokens are the uncached input only
)

// agent is what agt knows of one ACP agent.
type agent struct {
	match    string // a lower-case part of initialize's agentInfo.name or title
	provider string // the provider name its events carry
	cache    int    // how its session/prompt usage counts cached input
	quirks   []quirk
}

// quirk is a message chunk an agent sends as assistant text that is not
// the model's: the whole text of the chunk starts with prefix.
type quirk struct {
	prefix string
	kind   string // "system", or "mode" for a leaked mode change (a meta event)
}

// agents are the agents identified from initialize's agentInfo, first match
// wins. Verified on gemini-cli 0.61.0, @zed-industries/claude-agent-acp
// 0.23.1 and Copilot CLI 1.0.102 (FORMATS.md §L5, §L8).
var agents = []agent{
	{match: "gemini", provider: "gemini", cache: cacheInferred, quirks: []quirk{{"[MODE_UPDATE] ", "mode"}}},
	{match: "claude", provider: "claude", cache: cacheExcluded},
	{match: "copilot", provider: "copilot", cache: cacheIncluded, quirks: []quirk{{"Info: ", "system"}}},
}

// unknownAgent is an agent that never named itself, or one agt does not know.
var unknownAgent = &agent{provider: "acp", cache: cacheInferred}

// findAgent identifies the agent of an initialize result.
func findAgent(info *agentInfo) *agent {
	if info == nil {
		return nil
	}
	for _, s := range []string{info.Name, info.Title} {
		s = strings.ToLower(s)
		for i := range agents {
			if s != "" && strings.Contains(s, agents[i].match) {
				return &agents[i]
			}
		}
	}
	return nil
}

// quirk returns the quirk a chunk's text shows, or nil.
func (a *agent) quirk(text string) *quirk {
	for i := range a.quirks {
		if strings.HasPrefix(text, a.quirks[i].prefix) {
			return &a.quirks[i]
		}
	}
	return nil
}
