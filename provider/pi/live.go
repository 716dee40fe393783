package pi

import "github.com/agt-project/agt"

// liveEvents maps the event types of pi --mode json and --mode rpc to their
// handlers. Only message_end carries conversation (each message also
// appears in message_start, turn_end and agent_end); compaction_end carries
// the summary.
var liveEvents = map[string]handler{
	"session":               header,
	"agent_start":           liveMeta(nil),
	"agent_end":             liveMeta(nil),
	"turn_start":            liveMeta(nil),
	"turn_end":              liveMeta(nil),
	"message_start":         messageStart,
	"message_update":        messageUpdate,
	"message_end":           messageEnd,
	"tool_execution_start":  liveMeta(toolData),
	"tool_execution_update": liveMeta(toolData),
	"tool_execution_end":    liveMeta(toolData),
	"queue_update":          liveMeta(nil),
	"compaction_start":      liveMeta(func(r *record) agt.Raw { return obj("reason", r.Reason) }),
	"auto_compaction_start": liveMeta(func(r *record) agt.Raw { return obj("reason", r.Reason) }),
	"compaction_end":        compactionEnd,
	"auto_compaction_end":   compactionEnd,
	"auto_retry_start":      liveMeta(retryData),
	"auto_retry_end":        liveMeta(retryData),
	"extension_error": liveMeta(func(r *record) agt.Raw {
		return obj("extensionPath", r.Extension, "event", r.Event, "error", r.Error)
	}),
	"extension_ui_request": extensionUIRequest,
	"response":             response,
}

func toolData(r *record) agt.Raw {
	return obj("toolCallId", r.ToolCallID, "toolName", r.ToolName, "isError", r.IsError)
}

func retryData(r *record) agt.Raw {
	return obj("attempt", r.Attempt, "maxAttempts", r.MaxAttempts, "delayMs", r.DelayMs,
		"errorMessage", r.ErrorMessage, "success", r.Success, "finalError", r.FinalError)
}

// liveMeta is the handler of a live event that becomes one meta event of
// its type, keyed by line, with the data that data picks.
func liveMeta(data func(r *record) agt.Raw) handler {
	return func(p *parser, em *agt.Emitter, r *record) {
		var d agt.Raw
		if data != nil {
			d = data(r)
		}
		em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: r.Type, Data: d}}, "", "meta")
	}
}

func messageStart(p *parser, em *agt.Emitter, r *record) {
	role := ""
	if r.msg != nil {
		role = r.msg.Role
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: r.Type, Subtype: role}}, "", "meta")
}

// messageUpdate keeps only the kind of delta: the partial message it
// carries is complete in the message_end that follows.
func messageUpdate(p *parser, em *agt.Emitter, r *record) {
	sub, reason := "", ""
	if e := r.AssistantMessageEvent; e != nil {
		sub, reason = e.Type, e.Reason
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: r.Type, Subtype: sub, Data: obj("reason", reason)}}, "", "meta")
}

func messageEnd(p *parser, em *agt.Emitter, r *record) {
	if r.msg == nil {
		em.Errorf("%s without a message", r.Type)
		return
	}
	p.message(em, r.msg, at{"", timeOf(r.msg.Timestamp)})
}

// compactionEnd carries the summary of a compaction that succeeded.
func compactionEnd(p *parser, em *agt.Emitter, r *record) {
	var res struct {
		Summary          agt.Raw `json:"summary"`
		FirstKeptEntryID string  `json:"firstKeptEntryId"`
		TokensBefore     *int64  `json:"tokensBefore"`
	}
	if !r.Result.IsNull() && r.Result[0] == '{' {
		em.Field("result", r.Result, &res)
	}
	meta := &agt.Meta{Type: r.Type, Data: obj("reason", r.Reason, "aborted", r.Aborted, "willRetry", r.WillRetry,
		"errorMessage", r.ErrorMessage, "firstKeptEntryId", res.FirstKeptEntryID, "tokensBefore", res.TokensBefore)}
	if emptyText(res.Summary) {
		em.Emit(agt.Event{Kind: agt.KindMeta, Meta: meta}, "", "meta")
		return
	}
	em.Emit(agt.Event{Kind: agt.KindSummary, Text: res.Summary, Meta: meta}, "", "summary")
}

func extensionUIRequest(p *parser, em *agt.Emitter, r *record) {
	em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: r.Type, Subtype: r.Method, Data: obj("id", r.ID)}}, "", "meta")
}

// bulkyResponses are the RPC commands whose response data (lists of
// messages, models, commands) is left out of the meta event.
var bulkyResponses = map[string]bool{
	"get_messages":         true,
	"get_available_models": true,
	"get_commands":         true,
	"get_fork_messages":    true,
}

// response is an RPC command's answer. get_session_stats totals repeat the
// per-message usage and are kept as data, not as usage.
func response(p *parser, em *agt.Emitter, r *record) {
	data := r.Data
	if bulkyResponses[r.Command] {
		data = nil
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: r.Type, Subtype: r.Command,
		Data: obj("id", r.ID, "success", r.Success, "error", r.Error, "data", data)}}, "", "meta")
}
