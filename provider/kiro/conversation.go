package kiro

import (
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
)

// The conversation of the legacy chat (Amazon Q Developer CLI, Kiro CLI
// before its V2 engine): the whole ConversationState the CLI keeps, one
// JSON document, as its /save command writes it and as it stands in the
// value column of the conversations tables of its data.sqlite3.
//
//   - The document is a meta event (type conversation: the working folder
//     of the first user message, the model of model_info, the history's
//     valid range and the number of transcript lines in data) and names
//     the session (conversation_id).
//   - Each history entry is {user, assistant, request_metadata} (earlier,
//     a [user, assistant] pair); its events point into the document
//     (/history/N). A user message's content is one of Prompt (a user
//     event), ToolUseResults (a tool result per result: a lone Text is the
//     output, a shell's lone Json block {exit_status, stdout, stderr} its
//     stdout then its stderr with exit_status the exit code, else the
//     blocks; status Error is an error) or
//     CancelledToolUses (the results of the calls the user cancelled, then
//     the prompt that came instead). An assistant message is Response (an
//     assistant event) or ToolUse (its text, if any, then a tool call per
//     tool use), both with their message_id; the entry's request_metadata
//     names the model (model_id) and the times (request_start_timestamp_ms
//     for the user message when it has no timestamp of its own,
//     stream_end_timestamp_ms for the reply).
//   - A tool listed under an MCP server in the document's tools (every
//     key but native___) is that server's tool (Tool.MCP).
//   - latest_summary, the summary a compaction left ([text, metadata]), is
//     a summary event.
//   - The document holds no token counts (user_turn_metadata counts
//     credits, not tokens): there are no usage events.

// conversation is the document; its history kept raw to be read entry by
// entry.
type conversation struct {
	ID            string         `json:"conversation_id"`
	History       []agt.Raw      `json:"history"`
	ValidRange    agt.Raw        `json:"valid_history_range"`
	Transcript    []agt.Raw      `json:"transcript"`
	LatestSummary agt.Raw        `json:"latest_summary"`
	Tools         map[string]any `json:"tools"`
	ModelInfo     *convModelInfo `json:"model_info"`
	Model         *string        `json:"model"`
	TurnMeta      *convTurnMeta  `json:"user_turn_metadata"`
}

type convModelInfo struct {
	ModelID       string `json:"model_id"`
	ModelName     string `json:"model_name"`
	ContextWindow int64  `json:"context_window_tokens"`
}

type convTurnMeta struct {
	UsageInfo agt.Raw `json:"usage_info"`
}

// convEntry is one history entry.
type convEntry struct {
	User      *convUser      `json:"user"`
	Assistant *convAssistant `json:"assistant"`
	Meta      *convRequest   `json:"request_metadata"`
}

type convUser struct {
	Env *struct {
		State *struct {
			Cwd string `json:"current_working_directory"`
		} `json:"env_state"`
	} `json:"env_context"`
	Content *struct {
		Prompt *struct {
			Prompt string `json:"prompt"`
		} `json:"Prompt"`
		Results *struct {
			Results []convResult `json:"tool_use_results"`
		} `json:"ToolUseResults"`
		Cancelled *struct {
			Prompt  string       `json:"prompt"`
			Results []convResult `json:"tool_use_results"`
		} `json:"CancelledToolUses"`
	} `json:"content"`
	Timestamp *string `json:"timestamp"`
}

type convResult struct {
	ID      string               `json:"tool_use_id"`
	Content []map[string]agt.Raw `json:"content"`
	Status  string               `json:"status"`
}

type convAssistant struct {
	Response *struct {
		MessageID string `json:"message_id"`
		Content   string `json:"content"`
	} `json:"Response"`
	ToolUse *struct {
		MessageID string `json:"message_id"`
		Content   string `json:"content"`
		ToolUses  []struct {
			ID       string  `json:"id"`
			Name     string  `json:"name"`
			OrigName string  `json:"orig_name"`
			Args     agt.Raw `json:"args"`
		} `json:"tool_uses"`
	} `json:"ToolUse"`
}

type convRequest struct {
	MessageID string `json:"message_id"`
	Start     int64  `json:"request_start_timestamp_ms"`
	End       int64  `json:"stream_end_timestamp_ms"`
	ModelID   string `json:"model_id"`
}

// decodeEntry reads a history entry: an object, or a [user, assistant]
// pair.
func decodeEntry(raw agt.Raw) (*convEntry, error) {
	e := &convEntry{}
	if len(raw) > 0 && raw[0] == '[' {
		var pair []agt.Raw
		if err := agt.API.Unmarshal(raw, &pair); err != nil {
			return nil, err
		}
		var err error
		if len(pair) > 0 {
			e.User = &convUser{}
			err = agt.Decode(pair[0], e.User)
		}
		if len(pair) > 1 && (err == nil || agt.IsFieldError(err)) {
			e.Assistant = &convAssistant{}
			if err2 := agt.Decode(pair[1], e.Assistant); err == nil {
				err = err2
			}
		}
		return e, err
	}
	err := agt.Decode(raw, e)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	return e, err
}

// convParser reads one conversation document.
type convParser struct {
	raw   bool
	calls map[string]string // tool use id → event id of the call
}

// convValue is a decoded document and its entries, with the row of the
// database that held it, if any.
type convValue struct {
	c       *conversation
	entries []*convEntry
	errs    []error
	row     *convRow
}

// Decode reads the document and each of its history entries; an entry
// that cannot be read is an error event at its place.
func (*convParser) Decode(rec []byte) (any, error) {
	c := &conversation{}
	err := agt.Decode(rec, c)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	v := &convValue{c: c, entries: make([]*convEntry, len(c.History)), errs: make([]error, len(c.History))}
	for i, raw := range c.History {
		e, err := decodeEntry(raw)
		v.entries[i], v.errs[i] = e, err
	}
	return v, err
}

// Apply emits the document's events, entry by entry.
func (p *convParser) Apply(em *agt.Emitter, v any) {
	cv := v.(*convValue)
	c := cv.c
	p.calls = map[string]string{}
	if c.ID != "" {
		em.Session(c.ID)
	} else {
		em.Session(em.Fallback())
	}
	model := ""
	if c.ModelInfo != nil {
		model = c.ModelInfo.ModelID
	}
	if model == "" && c.Model != nil {
		model = *c.Model
	}
	base, line := em.Src(), em.Line()
	m := &agt.Meta{Type: "conversation", Cwd: firstCwd(cv.entries)}
	ts := ""
	if r := cv.row; r != nil {
		if m.Cwd == "" {
			m.Cwd = r.Key
		}
		ts = msTime(r.Created)
	}
	data := map[string]any{"transcript_lines": len(c.Transcript)}
	if len(c.ValidRange) > 0 {
		data["valid_history_range"] = c.ValidRange
	}
	if c.TurnMeta != nil && len(c.TurnMeta.UsageInfo) > 0 && string(c.TurnMeta.UsageInfo) != "[]" {
		data["usage_info"] = c.TurnMeta.UsageInfo
	}
	m.Data = agt.Marshal(data)
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: ts, Model: model, Meta: m}, c.ID, "conversation")
	mcp := mcpTools(c.Tools)
	for i, e := range cv.entries {
		raw := agt.Raw(nil)
		if p.raw || cv.errs[i] != nil {
			raw = c.History[i]
		}
		em.SetSrc(agt.Src{Path: base.Path, Line: base.Line, Ptr: base.Ptr + "/history/" + strconv.Itoa(i)}, raw)
		if cv.errs[i] != nil {
			em.Errorf("history entry %d: %v", i, cv.errs[i])
		}
		if e == nil {
			continue
		}
		n := em.Count()
		p.entry(em, e, model, mcp)
		if em.Count() == n {
			em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "history_entry"}}, "", "meta")
		}
	}
	if s := summaryText(c.LatestSummary); s != "" {
		em.SetSrc(agt.Src{Path: base.Path, Line: base.Line, Ptr: base.Ptr + "/latest_summary"}, nil)
		em.Emit(agt.Event{Kind: agt.KindSummary, Text: agt.String(s), Meta: &agt.Meta{Type: "latest_summary"}}, "", "summary")
	}
	em.SetSrc(base, line)
}

// Finish emits nothing: a document is read whole.
func (*convParser) Finish(*agt.Emitter) {}

// entry emits one history entry: the user message, then the reply.
func (p *convParser) entry(em *agt.Emitter, e *convEntry, model string, mcp map[string]string) {
	var req convRequest
	if e.Meta != nil {
		req = *e.Meta
	}
	if req.ModelID != "" {
		model = req.ModelID
	}
	if u := e.User; u != nil && u.Content != nil {
		ts := ""
		if u.Timestamp != nil {
			ts = rfcTime(*u.Timestamp)
		}
		if ts == "" {
			ts = msTime(req.Start)
		}
		ct := u.Content
		switch {
		case ct.Prompt != nil:
			if ct.Prompt.Prompt != "" {
				em.Emit(agt.Event{Kind: agt.KindUser, TS: ts, Text: agt.String(ct.Prompt.Prompt)}, "", "user")
			}
		case ct.Results != nil:
			p.results(em, ct.Results.Results, ts, false)
		case ct.Cancelled != nil:
			p.results(em, ct.Cancelled.Results, ts, true)
			if ct.Cancelled.Prompt != "" {
				em.Emit(agt.Event{Kind: agt.KindUser, TS: ts, Text: agt.String(ct.Cancelled.Prompt)}, "", "user")
			}
		default:
			em.Emit(agt.Event{Kind: agt.KindMeta, TS: ts, Meta: &agt.Meta{Type: "user_content"}}, "", "user")
		}
	}
	a := e.Assistant
	if a == nil {
		return
	}
	ts := msTime(req.End)
	if ts == "" {
		ts = msTime(req.Start)
	}
	switch {
	case a.Response != nil:
		em.Emit(agt.Event{Kind: agt.KindAssistant, TS: ts, Model: model, MessageID: a.Response.MessageID, Text: agt.String(a.Response.Content)}, "", "assistant")
	case a.ToolUse != nil:
		tu := a.ToolUse
		if strings.TrimSpace(tu.Content) != "" {
			em.Emit(agt.Event{Kind: agt.KindAssistant, TS: ts, Model: model, MessageID: tu.MessageID, Text: agt.String(tu.Content)}, "", "assistant")
		}
		for i, u := range tu.ToolUses {
			in := u.Args
			if len(in) == 0 || in[0] != '{' {
				in = agt.Raw(`{}`)
			}
			t := &agt.Tool{ID: u.ID, Name: u.Name, NativeName: u.Name, Input: in, NativeInput: in}
			if server := mcp[u.Name]; server != "" {
				tool := u.OrigName
				if tool == "" {
					tool = u.Name
				}
				t.MCP = &agt.MCP{Server: server, Tool: tool}
			}
			suffix := "tool:" + u.ID
			if u.ID == "" {
				t.ID = em.Key() + "#" + strconv.Itoa(i)
				suffix = "tool#" + strconv.Itoa(i)
			}
			id := em.Emit(agt.Event{Kind: agt.KindToolCall, TS: ts, Model: model, MessageID: tu.MessageID, Tool: t}, "", suffix)
			if u.ID != "" {
				p.calls[u.ID] = id
			}
		}
	default:
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: ts, Meta: &agt.Meta{Type: "assistant_content"}}, "", "assistant")
	}
}

// results emits tool results; cancelled ones are errors (the CLI records
// them as such, with its own text).
func (p *convParser) results(em *agt.Emitter, rs []convResult, ts string, cancelled bool) {
	for i, r := range rs {
		res := &agt.Result{ID: r.ID, Output: r.output(), IsError: r.Status == "Error" || cancelled, ExitCode: r.exitCode()}
		if res.ExitCode != nil && *res.ExitCode != 0 {
			res.IsError = true
		}
		suffix := "result#" + strconv.Itoa(i)
		if r.ID != "" {
			res.Call = p.calls[r.ID]
			delete(p.calls, r.ID)
			suffix = "result:" + r.ID
		}
		em.Emit(agt.Event{Kind: agt.KindToolResult, TS: ts, Result: res}, "", suffix)
	}
}

// output is a result's output: the text of a lone Text block, what a
// shell printed (a lone Json block's stdout, then its stderr), else the
// blocks as they are.
func (r *convResult) output() agt.Raw {
	if len(r.Content) == 1 {
		if t, ok := r.Content[0]["Text"]; ok && len(t) > 0 && t[0] == '"' {
			return t
		}
		var sh struct {
			Stdout *string `json:"stdout"`
			Stderr *string `json:"stderr"`
		}
		if j, ok := r.Content[0]["Json"]; ok && agt.API.Unmarshal(j, &sh) == nil && sh.Stdout != nil && sh.Stderr != nil {
			out := *sh.Stdout
			if *sh.Stderr != "" {
				if out != "" && !strings.HasSuffix(out, "\n") {
					out += "\n"
				}
				out += *sh.Stderr
			}
			return agt.String(out)
		}
	}
	if len(r.Content) == 0 {
		return nil
	}
	return agt.Marshal(r.Content)
}

// exitCode is the exit code a shell's Json block states ({exit_status:
// "0", stdout, stderr}).
func (r *convResult) exitCode() *int {
	for _, b := range r.Content {
		j, ok := b["Json"]
		if !ok {
			continue
		}
		var v struct {
			ExitStatus *string `json:"exit_status"`
		}
		if agt.API.Unmarshal(j, &v) != nil || v.ExitStatus == nil {
			continue
		}
		s := strings.TrimSpace(*v.ExitStatus)
		for _, prefix := range [...]string{"exit status:", "exit code:"} {
			s = strings.TrimSpace(strings.TrimPrefix(s, prefix))
		}
		if n, err := strconv.Atoi(s); err == nil {
			return &n
		}
	}
	return nil
}

// mcpTools maps the name of each MCP server's tool to its server: the
// document's tools, by server (native___ holds the built-in tools).
func mcpTools(tools map[string]any) map[string]string {
	m := map[string]string{}
	for server, specs := range tools {
		if server == "native___" {
			continue
		}
		list, _ := specs.([]any)
		for _, s := range list {
			spec, _ := s.(map[string]any)
			ts, _ := spec["ToolSpecification"].(map[string]any)
			if name, _ := ts["name"].(string); name != "" {
				m[name] = server
			}
		}
	}
	return m
}

// firstCwd is the working folder of the first user message that names one.
func firstCwd(entries []*convEntry) string {
	for _, e := range entries {
		if e != nil && e.User != nil && e.User.Env != nil && e.User.Env.State != nil && e.User.Env.State.Cwd != "" {
			return e.User.Env.State.Cwd
		}
	}
	return ""
}

// summaryText is the text of latest_summary: [text, metadata], or (older)
// the text alone.
func summaryText(r agt.Raw) string {
	if len(r) > 0 && r[0] == '"' {
		return r.Str()
	}
	var pair []agt.Raw
	if agt.API.Unmarshal(r, &pair) == nil && len(pair) > 0 && len(pair[0]) > 0 && pair[0][0] == '"' {
		return pair[0].Str()
	}
	return ""
}

// rfcTime reads an RFC 3339 time with its offset.
func rfcTime(s string) string {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return agt.FormatTime(t)
	}
	return ""
}

// msTime is a time in Unix milliseconds, "" for none.
func msTime(ms int64) string {
	if ms <= 0 {
		return ""
	}
	return agt.FormatTime(time.UnixMilli(ms))
}

// sniffConversation recognises a conversation document: an object with a
// conversation_id and a history list.
func sniffConversation(doc []byte) bool {
	var c struct {
		ID      string  `json:"conversation_id"`
		History agt.Raw `json:"history"`
	}
	return agt.API.Unmarshal(doc, &c) == nil && c.ID != "" && len(c.History) > 0 && c.History[0] == '['
}
