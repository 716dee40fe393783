package codex

import (
	"strings"
	"time"

	"github.com/agt-project/agt"
)

// rolloutLine is one line of a current rollout.
type rolloutLine struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   item   `json:"payload"`
}

// item is the union of the payloads this package reads: session_meta,
// turn_context, compacted, every ResponseItem and every EventMsg, and the
// bare records of the legacy formats. Fields whose type differs between
// payload types stay raw.
type item struct {
	Type       string `json:"type"`
	RecordType string `json:"record_type"` // legacy {"record_type":"state"}
	ID         string `json:"id"`
	SessionID  string `json:"session_id"`
	Timestamp  string `json:"timestamp"`

	// session_meta, legacy header, turn_context
	Cwd            string   `json:"cwd"`
	Originator     string   `json:"originator"`
	CLIVersion     string   `json:"cli_version"`
	Source         agt.Raw  `json:"source"` // string | {"subagent": …}; exec_command_end: "agent" | "user_shell"
	ModelProvider  string   `json:"model_provider"`
	Git            *gitInfo `json:"git"`
	ForkedFromID   string   `json:"forked_from_id"`
	ParentThreadID string   `json:"parent_thread_id"`
	AgentNickname  string   `json:"agent_nickname"`
	AgentRole      string   `json:"agent_role"`
	Model          string   `json:"model"`

	// message, agent_message (response item), reasoning
	Role    string  `json:"role"`
	Content agt.Raw `json:"content"`
	Summary agt.Raw `json:"summary"` // reasoning: [{text}]; turn_context: "auto"
	Author  string  `json:"author"`

	// tool calls and outputs
	Name          string  `json:"name"`
	Namespace     string  `json:"namespace"`
	Arguments     agt.Raw `json:"arguments"` // function_call: JSON string; tool_search_call: object
	CallID        string  `json:"call_id"`
	Input         agt.Raw `json:"input"`
	Output        agt.Raw `json:"output"`
	Status        agt.Raw `json:"status"`
	Action        agt.Raw `json:"action"`
	Tools         agt.Raw `json:"tools"`
	Result        agt.Raw `json:"result"`
	RevisedPrompt agt.Raw `json:"revised_prompt"`

	// event_msg
	Message          agt.Raw     `json:"message"`
	Text             agt.Raw     `json:"text"`
	Kind             agt.Raw     `json:"kind"`
	Info             *tokenInfo  `json:"info"`
	ExitCode         *int        `json:"exit_code"`
	Success          *bool       `json:"success"`
	Invocation       *invocation `json:"invocation"`
	Command          agt.Raw     `json:"command"`
	AggregatedOutput agt.Raw     `json:"aggregated_output"`
	Stdout           agt.Raw     `json:"stdout"`
	Stderr           agt.Raw     `json:"stderr"`
	Changes          agt.Raw     `json:"changes"`
	Query            agt.Raw     `json:"query"`
	Results          agt.Raw     `json:"results"`
	ThreadName       string      `json:"thread_name"`
}

type gitInfo struct {
	Branch string `json:"branch"`
}

type invocation struct {
	Server    string  `json:"server"`
	Tool      string  `json:"tool"`
	Arguments agt.Raw `json:"arguments"`
}

// part is one content item of a message or one summary item of a reasoning
// item.
type part struct {
	Type string  `json:"type"`
	Text agt.Raw `json:"text"`
}

// textTypes are the content item types that carry text.
var textTypes = map[string]bool{
	"input_text": true, "output_text": true, "text": true, "summary_text": true, "reasoning_text": true,
}

// joinText returns the text of content items as one JSON string, the parts
// separated by a blank line. A single part is returned as given.
func joinText(content agt.Raw) agt.Raw {
	if len(content) == 0 || content[0] != '[' {
		if len(content) > 0 && content[0] == '"' {
			return content
		}
		return nil
	}
	var parts []part
	if agt.API.Unmarshal(content, &parts) != nil {
		return nil
	}
	var texts []agt.Raw
	for _, p := range parts {
		if textTypes[p.Type] && len(p.Text) > 0 && p.Text[0] == '"' {
			texts = append(texts, p.Text)
		}
	}
	switch len(texts) {
	case 0:
		return nil
	case 1:
		return texts[0]
	}
	var b strings.Builder
	for i, t := range texts {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(t.Str())
	}
	return agt.String(b.String())
}

// str is the text of a raw JSON string, "" for anything else.
func str(r agt.Raw) string {
	if len(r) == 0 || r[0] != '"' {
		return ""
	}
	return r.Str()
}

// text keeps r when it is a non-empty JSON string.
func text(r agt.Raw) agt.Raw {
	if len(r) < 3 || r[0] != '"' {
		return nil
	}
	return r
}

const tsLayout = "2006-01-02T15:04:05.000Z"

// normTS returns an RFC 3339 UTC timestamp with milliseconds, or "" when s
// is not a timestamp.
func normTS(s string) string {
	if len(s) == len(tsLayout) && s[4] == '-' && s[10] == 'T' && s[19] == '.' && s[23] == 'Z' && digits(s[:4]) && digits(s[20:23]) {
		return s
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return ""
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return ""
	}
	return t.UTC().Format(tsLayout)
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
