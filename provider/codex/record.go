package codex

import (
	"strings"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
)

// raw is a JSON value of the line kept as it is, as agt.Raw, but not
// copied: it shares the line's memory (what outlives the line is copied
// where it is kept: see endOf, heldMessage). Copies of every member were a
// sixth of the bytes the fused run allocated on the Codex bench tree.
type raw []byte

// UnmarshalJSON keeps b itself (null as nil, as agt.Raw does); the JSON
// library hands it a view of the line it decodes.
func (r *raw) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = nil
		return nil
	}
	*r = b[:len(b):len(b)]
	return nil
}

// MarshalJSON returns r itself, as agt.Raw does.
func (r raw) MarshalJSON() ([]byte, error) { return agt.Raw(r).MarshalJSON() }

// rolloutLine is one line of a current rollout.
type rolloutLine struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   item   `json:"payload"`

	// Derived in Decode.
	sum    [12]byte // the XXH3-128 of its content (see contentKeys), with summed
	summed bool
	spawn  bool // the output a spawned sub-agent's copy ends with (see spawned; not set on a skimmed line)
	skim   bool // read for a usage report: its types and time only (see skim)
}

// item is the union of the payloads this package reads: session_meta,
// turn_context, compacted, every ResponseItem and every EventMsg, and the
// bare records of the legacy formats. Fields whose type differs between
// payload types stay raw.
type item struct {
	err        error  // a member of the wrong type (field)
	Type       string `json:"type"`
	RecordType string `json:"record_type"` // legacy {"record_type":"state"}
	ID         string `json:"id"`
	SessionID  string `json:"session_id"`
	Timestamp  string `json:"timestamp"`
	TurnID     string `json:"turn_id"` // turn_context, turn events (UUIDv7 in current versions)

	// session_meta, legacy header, turn_context
	Cwd            string   `json:"cwd"`
	Originator     string   `json:"originator"`
	CLIVersion     string   `json:"cli_version"`
	Source         raw      `json:"source"` // string | {"subagent": …}; exec_command_end: "agent" | "user_shell"
	ModelProvider  string   `json:"model_provider"`
	Git            *gitInfo `json:"git"`
	ForkedFromID   string   `json:"forked_from_id"`
	ParentThreadID string   `json:"parent_thread_id"`
	AgentNickname  string   `json:"agent_nickname"`
	AgentRole      string   `json:"agent_role"`
	Model          string   `json:"model"`
	Metadata       raw      `json:"metadata"` // turn_context: some writers put the model here

	// message, agent_message (response item), reasoning
	Role    string `json:"role"`
	Content raw    `json:"content"`
	Summary raw    `json:"summary"` // reasoning: [{text}]; turn_context: "auto"
	Author  string `json:"author"`

	// tool calls and outputs
	Name          string `json:"name"`
	Namespace     string `json:"namespace"`
	Arguments     raw    `json:"arguments"` // function_call: JSON string; tool_search_call: object
	CallID        string `json:"call_id"`
	Input         raw    `json:"input"`
	Output        raw    `json:"output"`
	Status        raw    `json:"status"`
	Action        raw    `json:"action"`
	Tools         raw    `json:"tools"`
	Result        raw    `json:"result"`
	RevisedPrompt raw    `json:"revised_prompt"`

	// event_msg
	Message          raw         `json:"message"`
	Reason           string      `json:"reason"` // turn_aborted
	Text             raw         `json:"text"`
	Kind             raw         `json:"kind"`
	Info             *tokenInfo  `json:"info"`
	ExitCode         *int        `json:"exit_code"`
	Duration         *duration   `json:"duration"` // exec_command_end
	Success          *bool       `json:"success"`
	Invocation       *invocation `json:"invocation"`
	Command          raw         `json:"command"`
	AggregatedOutput raw         `json:"aggregated_output"`
	Stdout           raw         `json:"stdout"`
	Stderr           raw         `json:"stderr"`
	Changes          raw         `json:"changes"`
	Query            raw         `json:"query"`
	Results          raw         `json:"results"`
	ThreadName       string      `json:"thread_name"`

	// Derived by prepare, in Decode.
	in     agt.Raw    // the tool input
	name   string     // the tool name, when built from the record
	mcp    *agt.MCP   // the MCP server and tool an invocation names
	exit   *int       // the exit code an output reports
	joined agt.Raw    // the text of the content (or reasoning summary)
	query  string     // the query of a web search
	res    agt.Result // the result an end event reports
	data   agt.Raw    // the payload, for meta events that keep it
}

// prepare derives what the handlers need from a decoded record, so that
// the work runs in Decode, in parallel. key names the payload in line
// ("payload", "msg", or "" for a bare record).
func (it *item) prepare(line []byte, key string) error {
	if f := preparers[it.Type]; f != nil {
		f(it)
	}
	if key != "" && metaData[it.Type] {
		it.data = payloadOf(line, key)
	}
	return it.err
}

// field decodes a member the item keeps as raw JSON into v (agt.DecodeValue);
// the first wrong type is kept in it.err, for Decode to return.
func (it *item) field(name string, raw agt.Raw, v any) {
	if err := agt.DecodeValue(name, raw, v); err != nil && it.err == nil {
		it.err = err
	}
}

// preparers derive the tool inputs, exit codes and texts, by record type.
var preparers = map[string]func(*item){
	"message":                 prepareMessage,
	"agent_message":           func(it *item) { it.joined = joinText(agt.Raw(it.Content)) },
	"reasoning":               func(it *item) { it.joined = firstRaw(joinText(agt.Raw(it.Summary)), joinText(agt.Raw(it.Content))) },
	"function_call":           func(it *item) { it.in = agt.ToolArgs(agt.Raw(it.Arguments)) },
	"custom_tool_call":        func(it *item) { it.in = agt.ToolArgs(agt.Raw(it.Input)) },
	"local_shell_call":        func(it *item) { it.in = agt.ToolArgs(agt.Raw(it.Action)) },
	"tool_search_call":        func(it *item) { it.in = agt.ToolArgs(agt.Raw(it.Arguments)) },
	"web_search_call":         func(it *item) { it.in, it.query = agt.ToolArgs(agt.Raw(it.Action)), it.webQuery() },
	"image_generation_call":   func(it *item) { it.in = object("revised_prompt", it.RevisedPrompt) },
	"image_generation_end":    func(it *item) { it.in = object("revised_prompt", it.RevisedPrompt) },
	"function_call_output":    func(it *item) { it.exit = outputExit(agt.Raw(it.Output)) },
	"custom_tool_call_output": func(it *item) { it.exit = outputExit(agt.Raw(it.Output)) },
	"exec_command_begin":      prepareExec,
	"exec_command_end":        prepareExec,
	"patch_apply_begin":       func(it *item) { it.in = object("changes", it.Changes) },
	"patch_apply_end":         func(it *item) { it.in = object("changes", it.Changes) },
	"mcp_tool_call_begin":     prepareMCP,
	"mcp_tool_call_end":       prepareMCP,
	"web_search_end":          prepareWebEnd,
}

// prepareMessage joins the text of user, developer and system messages
// (a rollout's user item is matched with its user_message by text); the
// text of assistant messages is read only in the legacy formats (see
// legacyText).
func prepareMessage(it *item) {
	if it.Role != "assistant" {
		it.joined = joinText(agt.Raw(it.Content))
	}
}

// legacyText joins the text of every message, for the legacy formats.
func (it *item) legacyText() {
	if it.Type == "message" && it.joined == nil {
		it.joined = joinText(agt.Raw(it.Content))
	}
}

func prepareExec(it *item) { it.in = object("command", it.Command, "cwd", it.Cwd, "source", it.Source) }

func prepareMCP(it *item) {
	var inv invocation
	if it.Invocation != nil {
		inv = *it.Invocation
	}
	it.name, it.in, it.res = mcpName(inv.Server, inv.Tool), agt.ToolArgs(inv.Arguments), it.mcpResult()
	if inv.Server != "" && inv.Tool != "" {
		it.mcp = &agt.MCP{Server: inv.Server, Tool: inv.Tool}
		if !it.res.IsError {
			it.mcp.Skill = skillReturned(it.res.Output)
		}
	}
}

// skillReturned is the skill whose SKILL.md an MCP call returned (a text
// item of its CallToolResult), "" when it returned none: the server serves
// skills, whatever its name (canon.SkillDoc).
func skillReturned(out agt.Raw) string {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if len(out) == 0 || out[0] != '{' || agt.API.Unmarshal(out, &r) != nil {
		return ""
	}
	for _, c := range r.Content {
		if c.Type == "text" {
			if s := canon.SkillDoc(c.Text); s != "" {
				return s
			}
		}
	}
	return ""
}

func prepareWebEnd(it *item) {
	it.query = str(agt.Raw(it.Query))
	if it.query == "" {
		it.query = it.webQuery()
	}
	it.in = agt.ToolArgs(agt.Raw(it.Action))
	if it.Action == nil {
		it.in = object("query", it.Query)
	}
}

func firstRaw(r ...agt.Raw) agt.Raw {
	for _, v := range r {
		if v != nil {
			return v
		}
	}
	return nil
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
	Type string `json:"type"`
	Text raw    `json:"text"`
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
	if agt.Unmarshal(content, &parts) != nil { // in place: content is the line's
		return nil
	}
	var texts []agt.Raw
	for _, p := range parts {
		if textTypes[p.Type] && len(p.Text) > 0 && p.Text[0] == '"' {
			texts = append(texts, agt.Raw(p.Text))
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

// duration is a Rust Duration as Codex writes it.
type duration struct {
	Secs  int64 `json:"secs"`
	Nanos int64 `json:"nanos"`
}

// ms is d in whole milliseconds; nil when d is absent or out of range.
func (d *duration) ms() *int64 {
	if d == nil || d.Secs < 0 || d.Nanos < 0 || d.Nanos >= 1e9 || d.Secs > 1<<40 {
		return nil
	}
	v := d.Secs*1000 + d.Nanos/1e6
	return &v
}
