package qwen

import "github.com/agt-project/agt"

// record is one ChatRecord.
type record struct {
	UUID           string          `json:"uuid"`
	SessionID      string          `json:"sessionId"`
	Timestamp      string          `json:"timestamp"`
	Type           string          `json:"type"`
	Subtype        string          `json:"subtype"`
	Cwd            string          `json:"cwd"`
	Version        string          `json:"version"`
	GitBranch      string          `json:"gitBranch"`
	AgentID        string          `json:"agentId"`
	Model          string          `json:"model"`
	Message        *content        `json:"message"`
	UsageMetadata  *usageMetadata  `json:"usageMetadata"`
	ToolCallResult *toolCallResult `json:"toolCallResult"`
	SystemPayload  agt.Raw         `json:"systemPayload"`
}

// content is a Gemini Content: a role and its parts.
type content struct {
	Role  string `json:"role"`
	Parts []part `json:"parts"`
}

// part is one Gemini Part; only the members agt reads.
type part struct {
	Text             *string       `json:"text"`
	Thought          bool          `json:"thought"`
	FunctionCall     *functionCall `json:"functionCall"`
	FunctionResponse *functionResp `json:"functionResponse"`
	InlineData       agt.Raw       `json:"inlineData"`
	FileData         agt.Raw       `json:"fileData"`
}

type functionCall struct {
	ID   string  `json:"id"`
	Name string  `json:"name"`
	Args agt.Raw `json:"args"`
}

type functionResp struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Response agt.Raw `json:"response"`
}

// toolCallResult is a tool_result record's ToolCallResponseInfo.
type toolCallResult struct {
	CallID        string  `json:"callId"`
	Status        string  `json:"status"`
	ResultDisplay agt.Raw `json:"resultDisplay"`
	ErrorType     string  `json:"errorType"`
}

// usageMetadata is the response's GenerateContentResponseUsageMetadata.
type usageMetadata struct {
	Prompt     agt.Count `json:"promptTokenCount"`
	Candidates agt.Count `json:"candidatesTokenCount"`
	Thoughts   agt.Count `json:"thoughtsTokenCount"`
	Cached     agt.Count `json:"cachedContentTokenCount"`
	ToolPrompt agt.Count `json:"toolUsePromptTokenCount"`
	Total      agt.Count `json:"totalTokenCount"`
}

// usage is one model call's usage. The prompt count includes the cached
// tokens. Whether the candidates include the thoughts depends on the
// backend: Qwen's OpenAI-compatible one (its default) writes the
// completion tokens, thoughts included, as candidatesTokenCount and the
// reasoning tokens as thoughtsTokenCount; Google's API counts thoughts apart.
// The total tells which: when it equals prompt + candidates (+ tool
// prompt), the thoughts are inside the candidates; with no total, Qwen's
// default is taken.
func (m *usageMetadata) usage() *agt.Usage {
	return callUsage(m.Prompt, m.Cached, m.ToolPrompt, m.Candidates, m.Thoughts, m.Total)
}

// callUsage is usage() over the figures of either record that gives them
// (an assistant record's usageMetadata, an api_response telemetry event).
func callUsage(prompt, cached, toolPrompt, candidates, thoughts, total agt.Count) *agt.Usage {
	out := candidates + thoughts
	if total <= 0 || total == prompt+toolPrompt+candidates {
		out = candidates
	}
	u := &agt.Usage{
		Scope:     agt.ScopeCall,
		Input:     int64(prompt - cached + toolPrompt),
		CacheRead: int64(cached),
		Output:    int64(out),
		Reasoning: int64(thoughts),
	}
	agt.Taint(u, total)
	u.Sum()
	return u
}

// apiResponse is the ui_telemetry event Qwen writes for each model
// response (qwen-code.api_response), the assistant record's or not: a
// sub-agent's call and a call made inside a tool have no assistant record.
type apiResponse struct {
	Event struct {
		Name       string    `json:"event.name"`
		ResponseID string    `json:"response_id"`
		Model      string    `json:"model"`
		Input      agt.Count `json:"input_token_count"`
		Output     agt.Count `json:"output_token_count"`
		Cached     agt.Count `json:"cached_content_token_count"`
		Thoughts   agt.Count `json:"thoughts_token_count"`
		Tool       agt.Count `json:"tool_token_count"`
		Total      agt.Count `json:"total_token_count"`
	} `json:"uiEvent"`
}

// figures are the counts an assistant record's usage and its telemetry
// share.
type figures struct{ prompt, cached, candidates, thoughts, total agt.Count }

// metaSubtypes are the system record subtypes that carry no conversation.
// slash_command is read apart (its invocation is a slash_command event).
var metaSubtypes = map[string]bool{
	"ui_telemetry": true, "attribution_snapshot": true, "chat_compression": true,
	"at_command": true, "notification": true, "cron": true, "custom_title": true,
	"rewind": true, "agent_bootstrap": true, "agent_launch_prompt": true,
	"mid_turn_user_message": true, "slash_command": true,
}
