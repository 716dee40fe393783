package codex

import (
	"fmt"
	"github.com/agt-project/agt"
	"github.com/bytedance/sonic/ast"
)

// eventMsgs maps the EventMsg types of rollouts to their handlers. Types
// not listed are unknown events.
var eventMsgs = map[string]itemHandler{
	"user_message":                (*conv).userMessage,
	"agent_message":               textEvent(agt.KindAssistant, "message"),
	"agent_reasoning":             textEvent(agt.KindReasoning, "text"),
	"agent_reasoning_raw_content": textEvent(agt.KindReasoning, "text"),
	"error":                       textEvent(agt.KindSystem, "message"),
	"stream_error":                textEvent(agt.KindSystem, "message"),
	"warning":                     textEvent(agt.KindSystem, "message"),
	"token_count":                 (*conv).tokenCount,
	"exec_command_end":            (*conv).execEnd,
	"patch_apply_end":             (*conv).patchEnd,
	"mcp_tool_call_end":           (*conv).mcpEnd,
	"web_search_end":              (*conv).webSearchEnd,
	"image_generation_end":        (*conv).imageGenerationEnd,
	"thread_name_updated":         (*conv).threadName,

	// Meta events (the payload is kept as data for the types of metaData).
	"task_started":                      (*conv).eventMeta,
	"task_complete":                     (*conv).eventMeta,
	"turn_started":                      (*conv).eventMeta,
	"turn_complete":                     (*conv).eventMeta,
	"turn_aborted":                      (*conv).eventMeta,
	"context_compacted":                 (*conv).eventMeta,
	"thread_rolled_back":                (*conv).rolledBack,
	"entered_review_mode":               (*conv).eventMeta,
	"exited_review_mode":                (*conv).eventMeta,
	"undo_started":                      (*conv).eventMeta,
	"undo_completed":                    (*conv).eventMeta,
	"thread_goal_updated":               (*conv).eventMeta,
	"thread_settings_applied":           (*conv).eventMeta,
	"session_configured":                (*conv).eventMeta,
	"agent_message_delta":               (*conv).eventMeta,
	"agent_reasoning_delta":             (*conv).eventMeta,
	"agent_reasoning_raw_content_delta": (*conv).eventMeta,
	"agent_reasoning_section_break":     (*conv).eventMeta,
	"exec_command_begin":                (*conv).eventMeta,
	"exec_command_output_delta":         (*conv).eventMeta,
	"patch_apply_begin":                 (*conv).eventMeta,
	"mcp_tool_call_begin":               (*conv).eventMeta,
	"web_search_begin":                  (*conv).eventMeta,
	"image_generation_begin":            (*conv).eventMeta,
	"view_image_tool_call":              (*conv).eventMeta,
	"dynamic_tool_call_request":         (*conv).eventMeta,
	"dynamic_tool_call_response":        (*conv).eventMeta,
	"guardian_assessment":               (*conv).eventMeta,
	"item_started":                      (*conv).eventMeta,
	"item_completed":                    (*conv).eventMeta,
	"sub_agent_activity":                (*conv).eventMeta,
	"plan_update":                       (*conv).eventMeta,
	"turn_diff":                         (*conv).eventMeta,
	"background_event":                  (*conv).eventMeta,
	"deprecation_notice":                (*conv).eventMeta,
	"shutdown_complete":                 (*conv).eventMeta,
	"collab_agent_spawn_begin":          (*conv).eventMeta,
	"collab_agent_spawn_end":            (*conv).eventMeta,
	"collab_agent_interaction_begin":    (*conv).eventMeta,
	"collab_agent_interaction_end":      (*conv).eventMeta,
	"collab_waiting_begin":              (*conv).eventMeta,
	"collab_waiting_end":                (*conv).eventMeta,
	"collab_close_begin":                (*conv).eventMeta,
	"collab_close_end":                  (*conv).eventMeta,
	"collab_resume_begin":               (*conv).eventMeta,
	"collab_resume_end":                 (*conv).eventMeta,
	"exec_approval_request":             (*conv).eventMeta,
	"apply_patch_approval_request":      (*conv).eventMeta,
	"request_user_input":                (*conv).eventMeta,
	"elicitation_request":               (*conv).eventMeta,
	"mcp_startup_update":                (*conv).eventMeta,
	"mcp_startup_complete":              (*conv).eventMeta,
	"mcp_list_tools_response":           (*conv).eventMeta,
	"list_custom_prompts_response":      (*conv).eventMeta,
	"get_history_entry_response":        (*conv).eventMeta,
	"raw_response_item":                 (*conv).eventMeta,
	"user_message_delta":                (*conv).eventMeta,
	"context_window_exceeded":           (*conv).eventMeta,
	"model_reroute":                     (*conv).eventMeta,
}

// metaData are the event_msg types whose meta event keeps the payload as
// data: small records worth keeping.
var metaData = map[string]bool{
	"turn_aborted": true, "thread_rolled_back": true, "entered_review_mode": true, "exited_review_mode": true,
	"undo_completed": true, "thread_goal_updated": true, "thread_settings_applied": true, "plan_update": true,
	"background_event": true, "deprecation_notice": true, "context_window_exceeded": true, "model_reroute": true,
	"collab_agent_spawn_end": true, "collab_agent_interaction_end": true, "collab_waiting_end": true,
	"collab_close_end": true, "collab_resume_end": true,
}

func evMeta(it *item) *agt.Meta {
	reason := agt.Raw(it.Message)
	if it.Reason != "" {
		reason = agt.String(it.Reason)
	}
	return &agt.Meta{Type: "event_msg", Subtype: it.Type, Data: it.data, Outcome: outcome(eventOutcomes, it.Type, reason)}
}

// rolledBack makes a rollback (/undo of turns) visible as a system event.
func (c *conv) rolledBack(em *agt.Emitter, it *item) {
	var p struct {
		N int `json:"num_turns"`
	}
	if !em.Field("payload", it.data, &p) {
		return // the error event says what the line holds
	}
	c.say(em, agt.KindSystem, agt.String(fmt.Sprintf("conversation rolled back %d turns", p.N)), evMeta(it), "system")
}

// eventMeta emits a meta event.
func (c *conv) eventMeta(em *agt.Emitter, it *item) { c.meta(em, evMeta(it)) }

// payloadOf cuts the value of key (payload, or msg) out of a line.
func payloadOf(line []byte, key string) agt.Raw {
	n, err := ast.NewSearcher(string(line)).GetByPath(key)
	if err != nil {
		return nil
	}
	s, err := n.Raw()
	if err != nil {
		return nil
	}
	return agt.Raw(s)
}

// textEvent emits the text of field (message or text) as an event of kind.
func textEvent(kind, field string) itemHandler {
	return func(c *conv, em *agt.Emitter, it *item) {
		t := it.Message
		if field == "text" {
			t = it.Text
		}
		var m *agt.Meta
		if kind == agt.KindSystem {
			m = evMeta(it)
		}
		c.say(em, kind, text(agt.Raw(t)), m, it.Type)
	}
}

// userKinds maps user_message.kind (≈0.2x) to event kinds.
var userKinds = map[string]string{
	"":                    agt.KindUser,
	"plain":               agt.KindUser,
	"user_instructions":   agt.KindSystem,
	"environment_context": agt.KindSystem,
}

func (c *conv) userMessage(em *agt.Emitter, it *item) {
	kind := userKinds[str(agt.Raw(it.Kind))]
	var m *agt.Meta
	if kind == "" || kind == agt.KindSystem {
		kind, m = agt.KindSystem, evMeta(it)
	}
	c.say(em, kind, text(agt.Raw(it.Message)), m, "user")
}

// tokenCount emits the difference between this total and the previous one
// of the thread in effect as a usage event, or a meta event. A count with
// only last_token_usage is that call's usage. A model named in the count
// (info.model) is its call's, and the model in effect when nothing named
// one before.
func (c *conv) tokenCount(em *agt.Emitter, it *item) {
	info := it.Info
	if info == nil || (info.Total == nil && (info.Last == nil || info.Last.zero())) {
		c.meta(em, evMeta(it))
		return
	}
	model := c.model
	if info.Model != "" { // the count names its call's model
		model = info.Model
		if c.model == "" {
			c.model = info.Model
		}
	}
	var d tokens
	switch {
	case info.Total != nil && !info.Total.inRange():
		d = *info.Total // an error event; the running total stays the last one in range
	case info.Total != nil:
		var ok bool
		if d, ok = c.totals.step(c.thread, *info.Total); !ok {
			c.meta(em, evMeta(it))
			return
		}
	default:
		d = *info.Last   // a call's own figures, no running total to take them from
		if d.inRange() { // out of range, it is an error event and counts nothing
			c.totals.advance(c.thread, d)
		}
	}
	u := d.usage(agt.ScopeCall)
	u.ContextWindow = int64(info.ContextWindow)
	c.emit(em, agt.Event{Kind: agt.KindUsage, Model: model, Usage: u}, "", "usage")
}

func (c *conv) threadName(em *agt.Emitter, it *item) {
	m := evMeta(it)
	m.Title = it.ThreadName
	c.meta(em, m)
}

func (c *conv) execEnd(em *agt.Emitter, it *item) {
	out := it.AggregatedOutput
	if str(agt.Raw(out)) == "" {
		out = it.Stdout
	}
	r := agt.Result{Output: agt.Raw(out), ExitCode: it.ExitCode, DurationMS: it.Duration.ms()}
	c.end(em, evMeta(it), it.CallID, "exec_command", it.in, r)
}

func (c *conv) patchEnd(em *agt.Emitter, it *item) {
	out := it.Stdout
	if str(agt.Raw(out)) == "" {
		out = it.Stderr
	}
	r := agt.Result{Output: agt.Raw(out), IsError: it.Success != nil && !*it.Success}
	c.end(em, evMeta(it), it.CallID, "apply_patch", it.in, r)
}

// mcpResult reads mcp_tool_call_end.result: {"Ok": CallToolResult} or
// {"Err": message}.
func (it *item) mcpResult() agt.Result {
	res := it.Result
	var v struct {
		Ok  agt.Raw `json:"Ok"`
		Err agt.Raw `json:"Err"`
	}
	if len(res) == 0 || res[0] != '{' || agt.API.Unmarshal(res, &v) != nil {
		return agt.Result{Output: agt.Raw(res)}
	}
	if v.Err != nil {
		return agt.Result{Output: v.Err, IsError: true}
	}
	var ok struct {
		IsError bool `json:"isError"`
	}
	it.field("Ok", v.Ok, &ok)
	return agt.Result{Output: v.Ok, IsError: ok.IsError}
}

// mcpName is the name of an MCP tool called by an end event or exec item.
func mcpName(server, tool string) string { return "mcp__" + server + "__" + tool }

func (c *conv) mcpEnd(em *agt.Emitter, it *item) {
	r := it.res
	r.DurationMS = it.Duration.ms()
	c.endMCP(em, evMeta(it), it.CallID, it.name, it.in, r, it.mcp)
}

func (c *conv) webSearchEnd(em *agt.Emitter, it *item) {
	q := it.query
	r := agt.Result{Output: agt.Raw(it.Results)}
	var st *callState
	if it.CallID != "" {
		st = c.calls[it.CallID]
	}
	if st == nil {
		st = popOpen(c.web, "call\x00"+q) // a web_search_call of another id, or none
	} else {
		remove(c.web, "call\x00"+q, st)
	}
	switch {
	case st != nil && st.done:
		c.meta(em, evMeta(it))
	case st != nil:
		c.resultOf(em, st, it.CallID, r)
	default:
		st = c.end(em, evMeta(it), it.CallID, "web_search", it.in, r)
		c.web["end\x00"+q] = append(c.web["end\x00"+q], st)
	}
}

func (c *conv) imageGenerationEnd(em *agt.Emitter, it *item) {
	r := agt.Result{Output: agt.Raw(it.Result), IsError: isString(agt.Raw(it.Status), "failed")}
	c.end(em, evMeta(it), it.CallID, "image_generation", it.in, r)
}
