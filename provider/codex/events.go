package codex

import (
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

	// Meta events; the payload is kept as data for those marked so.
	"task_started":                      eventMeta(false),
	"task_complete":                     eventMeta(false),
	"turn_started":                      eventMeta(false),
	"turn_complete":                     eventMeta(false),
	"turn_aborted":                      eventMeta(true),
	"context_compacted":                 eventMeta(false),
	"thread_rolled_back":                eventMeta(true),
	"entered_review_mode":               eventMeta(true),
	"exited_review_mode":                eventMeta(true),
	"undo_started":                      eventMeta(false),
	"undo_completed":                    eventMeta(true),
	"thread_goal_updated":               eventMeta(true),
	"thread_settings_applied":           eventMeta(true),
	"session_configured":                eventMeta(false),
	"agent_message_delta":               eventMeta(false),
	"agent_reasoning_delta":             eventMeta(false),
	"agent_reasoning_raw_content_delta": eventMeta(false),
	"agent_reasoning_section_break":     eventMeta(false),
	"exec_command_begin":                eventMeta(false),
	"exec_command_output_delta":         eventMeta(false),
	"patch_apply_begin":                 eventMeta(false),
	"mcp_tool_call_begin":               eventMeta(false),
	"web_search_begin":                  eventMeta(false),
	"image_generation_begin":            eventMeta(false),
	"view_image_tool_call":              eventMeta(false),
	"dynamic_tool_call_request":         eventMeta(false),
	"dynamic_tool_call_response":        eventMeta(false),
	"guardian_assessment":               eventMeta(false),
	"item_started":                      eventMeta(false),
	"item_completed":                    eventMeta(false),
	"sub_agent_activity":                eventMeta(false),
	"plan_update":                       eventMeta(true),
	"turn_diff":                         eventMeta(false),
	"background_event":                  eventMeta(true),
	"deprecation_notice":                eventMeta(true),
	"shutdown_complete":                 eventMeta(false),
	"collab_agent_spawn_begin":          eventMeta(false),
	"collab_agent_spawn_end":            eventMeta(true),
	"collab_agent_interaction_begin":    eventMeta(false),
	"collab_agent_interaction_end":      eventMeta(true),
	"collab_waiting_begin":              eventMeta(false),
	"collab_waiting_end":                eventMeta(true),
	"collab_close_begin":                eventMeta(false),
	"collab_close_end":                  eventMeta(true),
	"collab_resume_begin":               eventMeta(false),
	"collab_resume_end":                 eventMeta(true),
	"exec_approval_request":             eventMeta(false),
	"apply_patch_approval_request":      eventMeta(false),
	"request_user_input":                eventMeta(false),
	"elicitation_request":               eventMeta(false),
	"mcp_startup_update":                eventMeta(false),
	"mcp_startup_complete":              eventMeta(false),
	"mcp_list_tools_response":           eventMeta(false),
	"list_custom_prompts_response":      eventMeta(false),
	"get_history_entry_response":        eventMeta(false),
	"raw_response_item":                 eventMeta(false),
	"user_message_delta":                eventMeta(false),
	"context_window_exceeded":           eventMeta(true),
	"model_reroute":                     eventMeta(true),
}

func evMeta(it *item) *agt.Meta { return &agt.Meta{Type: "event_msg", Subtype: it.Type} }

// eventMeta emits a meta event, keeping the payload as data when data is
// set.
func eventMeta(data bool) itemHandler {
	return func(c *conv, em *agt.Emitter, it *item) {
		m := evMeta(it)
		if data {
			m.Data = payloadOf(em.Line())
		}
		c.meta(em, m)
	}
}

// payloadOf cuts the payload out of a rollout line.
func payloadOf(line agt.Raw) agt.Raw {
	n, err := ast.NewSearcher(string(line)).GetByPath("payload")
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
		c.say(em, kind, text(t), m, it.Type)
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
	kind := userKinds[str(it.Kind)]
	var m *agt.Meta
	if kind == "" || kind == agt.KindSystem {
		kind, m = agt.KindSystem, evMeta(it)
	}
	c.say(em, kind, text(it.Message), m, "user")
}

// tokenCount emits the difference between this total and the previous one
// of the thread in effect as a usage event, or a meta event.
func (c *conv) tokenCount(em *agt.Emitter, it *item) {
	if it.Info == nil || it.Info.Total == nil {
		c.meta(em, evMeta(it))
		return
	}
	d, ok := c.totals.step(c.thread, *it.Info.Total)
	if !ok {
		c.meta(em, evMeta(it))
		return
	}
	u := d.usage(agt.ScopeCall)
	u.ContextWindow = it.Info.ContextWindow
	c.emit(em, agt.Event{Kind: agt.KindUsage, Model: c.model, Usage: u}, "", "usage")
}

func (c *conv) threadName(em *agt.Emitter, it *item) {
	m := evMeta(it)
	m.Title = it.ThreadName
	c.meta(em, m)
}

func (c *conv) execEnd(em *agt.Emitter, it *item) {
	out := it.AggregatedOutput
	if str(out) == "" {
		out = it.Stdout
	}
	r := agt.Result{Output: out, ExitCode: it.ExitCode}
	c.end(em, evMeta(it), it.CallID, "exec_command", object("command", it.Command, "cwd", it.Cwd, "source", it.Source), r)
}

func (c *conv) patchEnd(em *agt.Emitter, it *item) {
	out := it.Stdout
	if str(out) == "" {
		out = it.Stderr
	}
	r := agt.Result{Output: out, IsError: it.Success != nil && !*it.Success}
	c.end(em, evMeta(it), it.CallID, "apply_patch", object("changes", it.Changes), r)
}

// mcpResult reads mcp_tool_call_end.result: {"Ok": CallToolResult} or
// {"Err": message}.
func mcpResult(res agt.Raw) agt.Result {
	var v struct {
		Ok  agt.Raw `json:"Ok"`
		Err agt.Raw `json:"Err"`
	}
	if len(res) == 0 || res[0] != '{' || agt.API.Unmarshal(res, &v) != nil {
		return agt.Result{Output: res}
	}
	if v.Err != nil {
		return agt.Result{Output: v.Err, IsError: true}
	}
	var ok struct {
		IsError bool `json:"isError"`
	}
	agt.API.Unmarshal(v.Ok, &ok)
	return agt.Result{Output: v.Ok, IsError: ok.IsError}
}

// mcpName is the name of an MCP tool called by an end event or exec item.
func mcpName(server, tool string) string { return "mcp__" + server + "__" + tool }

func (c *conv) mcpEnd(em *agt.Emitter, it *item) {
	var inv invocation
	if it.Invocation != nil {
		inv = *it.Invocation
	}
	c.end(em, evMeta(it), it.CallID, mcpName(inv.Server, inv.Tool), toolInput(inv.Arguments), mcpResult(it.Result))
}

func (c *conv) webSearchEnd(em *agt.Emitter, it *item) {
	q := str(it.Query)
	if q == "" {
		q = webQuery(it.Action)
	}
	r := agt.Result{Output: it.Results}
	var st *callState
	if it.CallID != "" {
		st = c.calls[it.CallID]
	}
	if st == nil {
		st = pop(c.web, "call\x00"+q) // an id-less web_search_call
	}
	switch {
	case st != nil && st.done:
		c.meta(em, evMeta(it))
	case st != nil:
		c.resultOf(em, st, it.CallID, r)
	default:
		input := toolInput(it.Action)
		if it.Action == nil {
			input = object("query", it.Query)
		}
		st = c.end(em, evMeta(it), it.CallID, "web_search", input, r)
		c.web["end\x00"+q] = append(c.web["end\x00"+q], st)
	}
}

func (c *conv) imageGenerationEnd(em *agt.Emitter, it *item) {
	r := agt.Result{Output: it.Result, IsError: isString(it.Status, "failed")}
	c.end(em, evMeta(it), it.CallID, "image_generation", object("revised_prompt", it.RevisedPrompt), r)
}
