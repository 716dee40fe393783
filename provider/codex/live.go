package codex

import (
	"github.com/agt-project/agt"
	"github.com/bytedance/sonic/ast"
)

// liveLine is one line of `codex exec --json`: a thread/turn/item event
// (≥0.41), or a raw protocol event {"id", "msg"} (≤0.41) with the config
// summary and prompt lines that precede those.
type liveLine struct {
	Type      string    `json:"type"`
	ThreadID  string    `json:"thread_id"`
	SessionID string    `json:"session_id"` // 0.41–0.43 session.created
	Timestamp string    `json:"timestamp"`
	Usage     *tokens   `json:"usage"`
	Error     *liveErr  `json:"error"`
	Message   agt.Raw   `json:"message"`
	Item      *liveItem `json:"item"`

	Msg    *item   `json:"msg"`    // ≤0.41 protocol event
	Prompt agt.Raw `json:"prompt"` // ≤0.41 prompt line
	Model  string  `json:"model"`  // ≤0.41 config summary
}

type liveErr struct {
	Message agt.Raw `json:"message"`
}

// liveItem is a thread item; its fields are flattened into it.
type liveItem struct {
	ID                string  `json:"id"`
	Type              string  `json:"type"`
	ItemType          string  `json:"item_type"` // 0.41–0.43 spelling of type
	Text              agt.Raw `json:"text"`
	Message           agt.Raw `json:"message"`
	Command           agt.Raw `json:"command"`
	AggregatedOutput  agt.Raw `json:"aggregated_output"`
	ExitCode          *int    `json:"exit_code"`
	Status            string  `json:"status"`
	Changes           agt.Raw `json:"changes"`
	Server            string  `json:"server"`
	Tool              string  `json:"tool"`
	Arguments         agt.Raw `json:"arguments"`
	Result            agt.Raw `json:"result"`
	Error             agt.Raw `json:"error"`
	Query             agt.Raw `json:"query"`
	Action            agt.Raw `json:"action"`
	Items             agt.Raw `json:"items"`
	SenderThreadID    string  `json:"sender_thread_id"`
	ReceiverThreadIDs agt.Raw `json:"receiver_thread_ids"`
	Prompt            agt.Raw `json:"prompt"`
	AgentsStates      agt.Raw `json:"agents_states"`
}

// liveParser reads codex-exec-json.
type liveParser struct {
	*conv
	runs totals // turn.completed totals per thread
}

func newLive() *liveParser {
	c := newConv(false)
	c.live = true
	return &liveParser{conv: c}
}

func (p *liveParser) Decode(rec []byte) (any, error) {
	var r liveLine
	err := agt.DecodeExact(rec, &r)
	if err != nil {
		if !agt.IsFieldError(err) {
			return nil, err
		}
	}
	if r.Msg != nil {
		if e := r.Msg.prepare(rec, "msg"); err == nil {
			err = e
		}
	}
	if it := r.Item; it != nil && it.Type == "web_search" {
		// The line holds "id" twice (item id, then the search's own id):
		// the decoder kept the last, the item id is the first.
		if n, err := ast.NewSearcher(string(rec)).GetByPath("item", "id"); err == nil {
			if id, err := n.String(); err == nil {
				it.ID = id
			}
		}
	}
	return &r, err
}

// liveTypes maps the event types of exec output to their handlers.
var liveTypes = map[string]func(p *liveParser, em *agt.Emitter, r *liveLine){
	"thread.started":     (*liveParser).threadStarted,
	"session.created":    (*liveParser).threadStarted,
	"turn.started":       liveMeta,
	"turn.completed":     (*liveParser).turnCompleted,
	"turn.failed":        (*liveParser).turnFailed,
	"error":              (*liveParser).errorLine,
	"item.started":       (*liveParser).item,
	"item.updated":       (*liveParser).item,
	"item.completed":     (*liveParser).item,
	"item.plan.delta":    liveMeta,
	"request_user_input": liveMeta,
	"":                   (*liveParser).untyped,
}

func (p *liveParser) Apply(em *agt.Emitter, v any) {
	r := v.(*liveLine)
	p.ts = normTS(r.Timestamp)
	h := liveTypes[r.Type]
	if h == nil {
		em.Unknown("", "", r.Type)
		return
	}
	h(p, em, r)
}

func (p *liveParser) Finish(em *agt.Emitter) { p.finish(em) }

func liveMeta(p *liveParser, em *agt.Emitter, r *liveLine) {
	p.meta(em, &agt.Meta{Type: r.Type})
}

func (p *liveParser) threadStarted(em *agt.Emitter, r *liveLine) {
	id := firstOf(r.ThreadID, r.SessionID)
	if id != "" {
		em.Session(id)
		p.thread = id
	}
	p.meta(em, &agt.Meta{Type: r.Type})
}

// turnCompleted turns the thread's cumulative usage into the usage of this
// run: the difference from the previous turn.completed of the thread.
func (p *liveParser) turnCompleted(em *agt.Emitter, r *liveLine) {
	m := &agt.Meta{Type: r.Type, Outcome: outcome(liveOutcomes, r.Type, nil)}
	if r.Usage == nil {
		p.meta(em, m)
		return
	}
	d, ok := p.runs.step(p.thread, *r.Usage)
	if !ok {
		p.meta(em, m)
		return
	}
	p.emit(em, agt.Event{Kind: agt.KindUsage, Model: p.model, Usage: d.usage(agt.ScopeRun), Meta: m}, "", "usage")
}

func (p *liveParser) turnFailed(em *agt.Emitter, r *liveLine) {
	var t agt.Raw
	if r.Error != nil {
		t = text(r.Error.Message)
	}
	p.say(em, agt.KindSystem, t, &agt.Meta{Type: r.Type, Outcome: outcome(liveOutcomes, r.Type, t)}, "error")
}

func (p *liveParser) errorLine(em *agt.Emitter, r *liveLine) {
	p.say(em, agt.KindSystem, text(r.Message), &agt.Meta{Type: r.Type, Outcome: outcome(liveOutcomes, r.Type, text(r.Message))}, "error")
}

// liveSpec says how a thread item becomes events: a text event of kind text
// when it completes, or a tool call (on start, or on completion when no
// start was seen) and its result (on completion).
type liveSpec struct {
	text   string
	name   func(*liveItem) string
	input  func(*liveItem) agt.Raw
	result func(*liveItem) agt.Result
	keep   bool // an update keeps the input as meta data (todo_list)
}

// failed are the statuses of a failed item.
var failed = map[string]bool{"failed": true, "declined": true}

// liveItems maps thread item types to their specs.
var liveItems = map[string]liveSpec{
	"agent_message":     {text: agt.KindAssistant},
	"assistant_message": {text: agt.KindAssistant},
	"reasoning":         {text: agt.KindReasoning},
	"plan":              {text: agt.KindAssistant},
	"error":             {text: agt.KindSystem},
	"command_execution": {
		name:  fixed("command_execution"),
		input: func(it *liveItem) agt.Raw { return object("command", it.Command) },
		result: func(it *liveItem) agt.Result {
			return agt.Result{Output: it.AggregatedOutput, ExitCode: it.ExitCode, IsError: failed[it.Status]}
		},
	},
	"file_change": {
		name:  fixed("file_change"),
		input: func(it *liveItem) agt.Raw { return object("changes", it.Changes) },
		result: func(it *liveItem) agt.Result {
			return agt.Result{Output: it.Changes, IsError: failed[it.Status]}
		},
	},
	"mcp_tool_call": {
		name:  func(it *liveItem) string { return mcpName(it.Server, it.Tool) },
		input: func(it *liveItem) agt.Raw { return agt.ToolArgs(it.Arguments) },
		result: func(it *liveItem) agt.Result {
			if !it.Error.IsNull() {
				return agt.Result{Output: it.Error, IsError: true}
			}
			return agt.Result{Output: it.Result, IsError: failed[it.Status]}
		},
	},
	"web_search": {
		name:  fixed("web_search"),
		input: func(it *liveItem) agt.Raw { return object("query", it.Query, "action", it.Action) },
		result: func(it *liveItem) agt.Result {
			return agt.Result{Output: it.Action, IsError: failed[it.Status]}
		},
	},
	"todo_list": {
		name:  fixed("todo_list"),
		input: func(it *liveItem) agt.Raw { return object("items", it.Items) },
		result: func(it *liveItem) agt.Result {
			return agt.Result{Output: it.Items, IsError: failed[it.Status]}
		},
		keep: true,
	},
	"collab_tool_call": {
		name: func(it *liveItem) string { return firstOf(it.Tool, "collab_tool_call") },
		input: func(it *liveItem) agt.Raw {
			return object("prompt", it.Prompt, "sender_thread_id", it.SenderThreadID, "receiver_thread_ids", it.ReceiverThreadIDs)
		},
		result: func(it *liveItem) agt.Result {
			return agt.Result{Output: it.AgentsStates, IsError: failed[it.Status]}
		},
	},
}

func fixed(name string) func(*liveItem) string { return func(*liveItem) string { return name } }

func (p *liveParser) item(em *agt.Emitter, r *liveLine) {
	it := r.Item
	if it == nil {
		p.meta(em, &agt.Meta{Type: r.Type})
		return
	}
	typ := firstOf(it.Type, it.ItemType)
	spec, ok := liveItems[typ]
	if !ok {
		em.Unknown("", "", r.Type+"/"+typ)
		return
	}
	m := &agt.Meta{Type: r.Type, Subtype: typ}
	if spec.text != "" {
		if r.Type != "item.completed" {
			p.meta(em, m)
			return
		}
		t := text(it.Text)
		if t == nil {
			t = text(it.Message)
		}
		if spec.text != agt.KindSystem && typ != "plan" {
			m = nil
		}
		p.say(em, spec.text, t, m, "text")
		return
	}
	st := p.calls[it.ID]
	open := it.ID != "" && st != nil && !st.done
	switch r.Type {
	case "item.started":
		p.call(em, it.ID, spec.name(it), spec.input(it))
	case "item.updated":
		if !open {
			p.call(em, it.ID, spec.name(it), spec.input(it))
			return
		}
		if spec.keep {
			m.Data = spec.input(it)
		}
		p.meta(em, m)
	default:
		if !open {
			p.call(em, it.ID, spec.name(it), spec.input(it))
		}
		p.result(em, it.ID, spec.result(it))
	}
}

// untyped handles the lines of ≤0.41 output: protocol events, the prompt
// and the config summary.
func (p *liveParser) untyped(em *agt.Emitter, r *liveLine) {
	switch {
	case r.Msg != nil:
		h, ok := protoMsgs[r.Msg.Type]
		if !ok {
			h, ok = eventMsgs[r.Msg.Type]
		}
		if !ok {
			em.Unknown("", "", "msg/"+r.Msg.Type)
			return
		}
		h(p.conv, em, r.Msg)
	case r.Prompt != nil:
		p.say(em, agt.KindUser, text(r.Prompt), nil, "prompt")
	default:
		if r.Model != "" {
			p.model = r.Model
		}
		p.meta(em, &agt.Meta{Type: "config", Data: agt.Compact(em.Line())})
	}
}

// protoMsgs are the ≤0.41 protocol events that differ from rollout event
// messages: the session and the begin events that carry the calls.
var protoMsgs = map[string]itemHandler{
	"session_configured":  (*conv).sessionConfigured,
	"exec_command_begin":  (*conv).execBegin,
	"patch_apply_begin":   (*conv).patchBegin,
	"mcp_tool_call_begin": (*conv).mcpBegin,
}

func (c *conv) sessionConfigured(em *agt.Emitter, it *item) {
	if it.SessionID != "" {
		em.Session(it.SessionID)
		c.thread = it.SessionID
	}
	if it.Model != "" {
		c.model = it.Model
	}
	c.emit(em, agt.Event{Kind: agt.KindMeta, Model: it.Model, Meta: evMeta(it)}, "", "meta")
}

func (c *conv) execBegin(em *agt.Emitter, it *item) {
	c.call(em, it.CallID, "exec_command", it.in)
}

func (c *conv) patchBegin(em *agt.Emitter, it *item) {
	c.call(em, it.CallID, "apply_patch", it.in)
}

func (c *conv) mcpBegin(em *agt.Emitter, it *item) {
	c.callMCP(em, it.CallID, it.name, it.in, it.mcp)
}
