package cline

import (
	"strconv"

	"github.com/agt-project/agt"
)

// says are the panel's say records, by the value of "say".
var says = map[string]uiHandler{
	"task":                       (*taskParser).user,
	"text":                       (*taskParser).sayText,
	"user_feedback":              (*taskParser).user,
	"user_feedback_diff":         (*taskParser).user,
	"reasoning":                  (*taskParser).reasoning,
	"api_req_started":            (*taskParser).request,
	"api_req_finished":           (*taskParser).request,
	"tool":                       (*taskParser).tool,
	"command":                    (*taskParser).command,
	"command_output":             (*taskParser).commandOutput,
	"completion_result":          (*taskParser).completion,
	"use_mcp_server":             (*taskParser).mcp,
	"mcp_server_response":        (*taskParser).mcpResponse,
	"browser_action_launch":      (*taskParser).browserLaunch,
	"browser_action":             (*taskParser).browserAction,
	"browser_action_result":      (*taskParser).browserResult,
	"subtask_result":             (*taskParser).subtaskResult,
	"error":                      (*taskParser).error,
	"diff_error":                 (*taskParser).error,
	"clineignore_error":          (*taskParser).error,
	"rooignore_error":            (*taskParser).error,
	"api_req_retried":            (*taskParser).meta,
	"api_req_retry_delayed":      (*taskParser).meta,
	"error_retry":                (*taskParser).meta,
	"checkpoint_created":         (*taskParser).meta,
	"checkpoint_saved":           (*taskParser).meta,
	"task_progress":              (*taskParser).meta,
	"load_mcp_documentation":     (*taskParser).meta,
	"mcp_server_request_started": (*taskParser).meta,
	"shell_integration_warning":  (*taskParser).meta,
	"info":                       (*taskParser).meta,
	"deleted_api_reqs":           (*taskParser).spent,
	"subagent_usage":             (*taskParser).spent,
	"condense_context":           (*taskParser).meta,
	"condense_context_error":     (*taskParser).error,
	"codebase_search_result":     (*taskParser).meta,
	"inspect_site_result":        (*taskParser).meta,
	"hook":                       (*taskParser).meta,
	"hook_output":                (*taskParser).meta,
	"generate_explanation":       (*taskParser).meta,
	"image":                      (*taskParser).meta,
}

// asks are the panel's ask records, by the value of "ask".
var asks = map[string]uiHandler{
	"followup":                      (*taskParser).followup,
	"plan_mode_respond":             (*taskParser).planRespond,
	"act_mode_respond":              (*taskParser).planRespond,
	"command":                       (*taskParser).command,
	"command_output":                (*taskParser).commandOutput,
	"tool":                          (*taskParser).tool,
	"use_mcp_server":                (*taskParser).mcp,
	"browser_action_launch":         (*taskParser).browserLaunch,
	"new_task":                      (*taskParser).newTask,
	"completion_result":             (*taskParser).completed,
	"api_req_failed":                (*taskParser).failed,
	"mistake_limit_reached":         (*taskParser).failed,
	"auto_approval_max_req_reached": (*taskParser).maxRequests,
	"resume_task":                   (*taskParser).meta,
	"resume_completed_task":         (*taskParser).meta,
	"condense":                      (*taskParser).meta,
	"summarize_task":                (*taskParser).meta,
	"report_bug":                    (*taskParser).meta,
}

// meta emits a panel record that is not part of the conversation.
func (p *taskParser) meta(em *agt.Emitter, m *uiMessage) {
	p.emit(em, m, agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: m.Type, Subtype: m.Say + m.Ask}})
}

// user emits what the user wrote: the task, or feedback.
func (p *taskParser) user(em *agt.Emitter, m *uiMessage) {
	p.emit(em, m, agt.Event{Kind: agt.KindUser, Text: agt.String(m.text())})
}

// sayText is the task (before the first request) or the model's text.
func (p *taskParser) sayText(em *agt.Emitter, m *uiMessage) {
	if !p.asked {
		p.user(em, m)
		return
	}
	p.emit(em, m, agt.Event{Kind: agt.KindAssistant, Text: agt.String(m.text())})
}

func (p *taskParser) reasoning(em *agt.Emitter, m *uiMessage) {
	p.emit(em, m, agt.Event{Kind: agt.KindReasoning, Text: agt.String(m.text())})
}

func (p *taskParser) error(em *agt.Emitter, m *uiMessage) {
	p.emit(em, m, agt.Event{Kind: agt.KindSystem, Text: agt.String(m.text()), Meta: &agt.Meta{Type: m.Say + m.Ask}})
}

// request is an API request: its usage (the record's text is JSON) and,
// for a request cancelled or failed while streaming, its outcome.
func (p *taskParser) request(em *agt.Emitter, m *uiMessage) {
	var r apiRequest
	read := true
	if t := m.text(); t != "" {
		if err := agt.Decode([]byte(t), &r); err != nil {
			em.Errorf("%s: %v", m.Say, err)
			if !agt.IsFieldError(err) {
				r, read = apiRequest{}, false
			}
		}
	}
	if m.Say == "api_req_started" {
		p.requestResult(em, m, r.Request)
		p.pending = nil
		p.reqs++
		p.asked = true
	}
	if !read {
		p.meta(em, m)
		return
	}
	u := r.usage()
	if u == nil {
		p.meta(em, m)
	} else {
		u.MessageID = p.msgID()
		p.emit(em, m, agt.Event{Kind: agt.KindUsage, Usage: u})
	}
	if o := cancelled[r.CancelReason]; o != "" {
		reason := r.CancelReason
		if r.Failed != "" {
			reason = r.Failed
		}
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: millis(m.TS), Meta: &agt.Meta{Type: "cancelled", Outcome: &agt.Outcome{Status: o, Reason: reason}}}, "", "cancel")
	}
}

// spent is usage the panel sums beside its requests' (Cline's
// getApiMetrics): deleted_api_reqs, what the requests the user deleted
// had spent; subagent_usage, what the subagents of a use_subagents call
// spent. The text is JSON in the shape of a request's; the usage is of
// scope run, no request's. Nothing spent is a meta event.
func (p *taskParser) spent(em *agt.Emitter, m *uiMessage) {
	var r apiRequest
	if err := agt.Decode([]byte(m.text()), &r); err != nil {
		em.Errorf("%s: %v", m.Say, err)
		if !agt.IsFieldError(err) {
			p.meta(em, m)
			return
		}
	}
	u := r.usage()
	if u == nil {
		p.meta(em, m)
		return
	}
	u.Scope = agt.ScopeRun
	em.Emit(agt.Event{TS: millis(m.TS), Kind: agt.KindUsage, Model: p.model(m), Usage: u, Meta: &agt.Meta{Type: m.Type, Subtype: m.Say}}, "", "ui")
}

// cancelled maps a request's cancelReason to the outcome it says.
var cancelled = map[string]string{
	"user_cancelled":   agt.OutcomeInterrupted,
	"streaming_failed": agt.OutcomeError,
}

// completion is the model's attempt_completion: its result is the text.
// The model presents the task as done: the call says success (a subtask
// of Roo Code ends here, with no question after it); the user's feedback,
// if any, comes after it.
func (p *taskParser) completion(em *agt.Emitter, m *uiMessage) {
	in := agt.Marshal(struct {
		Result string `json:"result"`
	}{m.text()})
	id := "ui-" + strconv.FormatFloat(deref(m.TS), 'f', -1, 64)
	ev := p.emit(em, m, agt.Event{Kind: agt.KindToolCall, Tool: &agt.Tool{ID: id, Name: "attempt_completion", NativeName: "attempt_completion", Input: in, NativeInput: in},
		Meta: &agt.Meta{Type: "completion_result", Outcome: &agt.Outcome{Status: agt.OutcomeSuccess, Reason: "completion_result"}}})
	p.pending = append(p.pending, pendingCall{"attempt_completion", taskCall{id, ev}})
}

// completed is the panel's question after a completion: the task is done.
func (p *taskParser) completed(em *agt.Emitter, m *uiMessage) {
	p.emit(em, m, agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "ask", Subtype: m.Ask,
		Outcome: &agt.Outcome{Status: agt.OutcomeSuccess, Reason: "completion_result"}}})
}

// failed is a request that failed or a run of mistakes the model gave up
// on: the user is asked whether to retry.
func (p *taskParser) failed(em *agt.Emitter, m *uiMessage) {
	reason := m.text()
	if reason == "" {
		reason = m.Ask
	}
	p.emit(em, m, agt.Event{Kind: agt.KindSystem, Text: agt.String(m.text()), Meta: &agt.Meta{Type: "ask", Subtype: m.Ask,
		Outcome: &agt.Outcome{Status: agt.OutcomeError, Reason: reason}}})
}

// maxRequests is the stop after the auto-approved requests ran out.
func (p *taskParser) maxRequests(em *agt.Emitter, m *uiMessage) {
	p.emit(em, m, agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "ask", Subtype: m.Ask,
		Outcome: &agt.Outcome{Status: agt.OutcomeMaxTurns, Reason: m.Ask}}})
}

// command is an execute_command call: the text is the command.
func (p *taskParser) command(em *agt.Emitter, m *uiMessage) {
	p.call(em, m, "execute_command", agt.Marshal(struct {
		Command string `json:"command"`
	}{m.text()}), nil, "command")
}

// commandOutput is the output of the last command: the first piece
// holds the text of all (task.go), the others are meta events.
func (p *taskParser) commandOutput(em *agt.Emitter, m *uiMessage) {
	if p.line.Cont {
		p.emit(em, m, agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: m.Type, Subtype: "command_output", Data: agt.Marshal(map[string]string{"continues": "the output of the command_output record before"})}})
		return
	}
	p.result(em, m, "command", m.text()+p.line.More, false)
}

// followup is ask_followup_question: the text is JSON {question, options}
// (older versions: the question).
func (p *taskParser) followup(em *agt.Emitter, m *uiMessage) {
	p.call(em, m, "ask_followup_question", jsonOr(m.text(), "question"), nil, "")
}

// planRespond is plan_mode_respond (act_mode_respond): JSON {response,
// options} or the response.
func (p *taskParser) planRespond(em *agt.Emitter, m *uiMessage) {
	name := "plan_mode_respond"
	if m.Ask == "act_mode_respond" {
		name = m.Ask
	}
	p.call(em, m, name, jsonOr(m.text(), "response"), nil, "")
}

// newTask is Cline's new_task: the text is the new task's context.
func (p *taskParser) newTask(em *agt.Emitter, m *uiMessage) {
	p.call(em, m, "new_task", agt.Marshal(struct {
		Context string `json:"context"`
	}{m.text()}), nil, "subtask")
}

// subtaskResult is Roo Code's result of a subtask, given to its parent.
func (p *taskParser) subtaskResult(em *agt.Emitter, m *uiMessage) {
	p.result(em, m, "subtask", m.text(), false)
}

// mcpUse is the text of a use_mcp_server record.
type mcpUse struct {
	Type       string `json:"type"` // use_mcp_tool or access_mcp_resource
	ServerName string `json:"serverName"`
	ToolName   string `json:"toolName"`
	Arguments  string `json:"arguments"` // JSON text
	URI        string `json:"uri"`
}

// mcp is a call of an MCP server's tool (use_mcp_tool: mcp names the
// server and tool, the input is the arguments) or a read of its resource
// (access_mcp_resource).
func (p *taskParser) mcp(em *agt.Emitter, m *uiMessage) {
	var u mcpUse
	if err := agt.Decode([]byte(m.text()), &u); err != nil {
		if !agt.IsFieldError(err) {
			em.Errorf("use_mcp_server: %v", err)
			p.meta(em, m)
			return
		}
		em.Field("text", agt.Raw(m.text()), &u) // says which member
	}
	if u.Type == "access_mcp_resource" {
		p.call(em, m, "access_mcp_resource", agt.Marshal(struct {
			Server string `json:"server_name"`
			URI    string `json:"uri"`
		}{u.ServerName, u.URI}), nil, "mcp")
		return
	}
	p.call(em, m, "use_mcp_tool", agt.ToolArgs(agt.String(u.Arguments)), &agt.MCP{Server: u.ServerName, Tool: u.ToolName}, "mcp")
}

func (p *taskParser) mcpResponse(em *agt.Emitter, m *uiMessage) {
	p.result(em, m, "mcp", m.text(), isErrorText(m.text()))
}

// browserLaunch opens the browser at the text's URL.
func (p *taskParser) browserLaunch(em *agt.Emitter, m *uiMessage) {
	p.call(em, m, "browser_action", agt.Marshal(struct {
		Action string `json:"action"`
		URL    string `json:"url"`
	}{"launch", m.text()}), nil, "browser")
}

// browserAction is a later browser action: the text is JSON {action,
// coordinate, text}.
func (p *taskParser) browserAction(em *agt.Emitter, m *uiMessage) {
	p.call(em, m, "browser_action", jsonOr(m.text(), "action"), nil, "browser")
}

func (p *taskParser) browserResult(em *agt.Emitter, m *uiMessage) {
	p.result(em, m, "browser", m.text(), false)
}

// jsonOr is text when it is a JSON object, else {key: text}.
func jsonOr(text, key string) agt.Raw {
	if len(text) > 0 && text[0] == '{' && agt.Valid([]byte(text)) {
		return agt.Compact([]byte(text))
	}
	return agt.Marshal(map[string]string{key: text})
}
