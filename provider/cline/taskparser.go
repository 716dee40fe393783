package cline

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agt-project/agt"
)

// agents are the agents of the task formats, as a session's meta names
// them.
var agents = map[string]string{
	FormatTask:     "cline",
	FormatRooTask:  "roo-code",
	FormatKiloTask: "kilo-code",
}

// taskParser reads the task lines of one task folder (task.go).
type taskParser struct {
	format  string
	api     *parser             // reads the API history when it is the conversation
	task    string              // the task whose lines are read
	ui      bool                // the task has ui_messages.json: it is the conversation
	reqs    int                 // the api_req_started records read
	asked   bool                // a request was sent: a text is the model's
	last    map[string]taskCall // the last call of each kind of result (command, mcp, browser, subtask)
	started bool                // the session event of the task was emitted
	line    *taskLine           // the line being applied
	pending []pendingCall       // the calls of the current request without a result yet
	models  []modelUse          // the task's models from its metadata, in order
}

// taskCall is a call whose result a later record gives.
type taskCall struct{ id, event string }

// modelUse is an element of task_metadata.json's model_usage: the model
// used from ts on.
type modelUse struct {
	TS    float64 `json:"ts"`
	Model string  `json:"model_id"`
}

// pendingCall is a call of the current request that has no result yet.
type pendingCall struct {
	name string
	taskCall
}

func newTaskParser(format string) *taskParser {
	return &taskParser{format: format, api: &parser{calls: map[string]string{}}, last: map[string]taskCall{}}
}

// taskValue is a decoded task line.
type taskValue struct {
	line taskLine
	ui   *uiMessage
	api  *message
	item *historyItem
}

// uiMessage is one element of ui_messages.json (a ClineMessage).
type uiMessage struct {
	TS        *float64   `json:"ts"`
	Type      string     `json:"type"`
	Say       string     `json:"say"`
	Ask       string     `json:"ask"`
	Text      *string    `json:"text"`
	Partial   bool       `json:"partial"`
	ModelInfo *modelInfo `json:"modelInfo"`
}

// historyItem is Roo Code's and Kilo Code's history_item.json: the task's
// entry in the task list.
type historyItem struct {
	ID        string   `json:"id"`
	TS        *float64 `json:"ts"`
	Task      string   `json:"task"`
	Workspace string   `json:"workspace"`
	Mode      string   `json:"mode"`
	Parent    string   `json:"parentTaskId"`
	Root      string   `json:"rootTaskId"`
}

// Decode reads one task line and its record.
func (p *taskParser) Decode(rec []byte) (any, error) {
	v := &taskValue{}
	if err := agt.Decode(rec, &v.line); err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	var err error
	switch l := &v.line; {
	case len(l.UI) > 0:
		v.ui = &uiMessage{}
		err = agt.Decode(l.UI, v.ui)
	case len(l.API) > 0:
		v.api = &message{}
		err = agt.Decode(l.API, v.api)
	case len(l.Item) > 0:
		v.item = &historyItem{}
		err = agt.Decode(l.Item, v.item)
	}
	if err != nil && !agt.IsFieldError(err) {
		v.ui, v.api, v.item = nil, nil, nil
	}
	return v, err
}

// Apply emits the events of one task line.
func (p *taskParser) Apply(em *agt.Emitter, v any) {
	tv := v.(*taskValue)
	l := &tv.line
	p.line = l
	em.SetSrc(agt.Src{Path: filepath.Join(em.Src().Path, l.File), Ptr: l.Ptr}, em.Line())
	if l.Task != p.task {
		p.task = l.Task
		em.Session(l.Task)
	}
	if !p.started {
		p.started = true
		em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "session", Agent: agents[p.format]}}, "", "session")
	}
	switch {
	case l.Bad != "":
		em.Errorf("not JSON (the file is cut short or malformed): %.80q", l.Bad)
	case len(l.UI) > 0:
		p.ui = true
		if tv.ui != nil {
			p.uiMessage(em, tv.ui)
		}
	case len(l.API) > 0:
		p.ui = p.ui || l.Beside
		p.apiMessage(em, tv.api)
	case len(l.Metadata) > 0:
		var md struct {
			Models []modelUse `json:"model_usage"`
		}
		em.Field("metadata", l.Metadata, &md)
		p.models = md.Models
		em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "task_metadata", Data: l.Metadata}}, "", "metadata")
	case tv.item != nil:
		it := tv.item
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: millis(it.TS), Meta: &agt.Meta{
			Type: "session", Subtype: "history_item", Cwd: it.Workspace, Title: it.Task, ParentSession: it.Parent,
		}}, "", "item")
	case len(l.Item) == 0:
		em.Unknown("", "", "task line")
	}
}

// Finish emits nothing: every record is read whole.
func (*taskParser) Finish(*agt.Emitter) {}

// apiMessage emits a message of the API history: the conversation when
// the task has no ui_messages.json, else a meta event (the panel's
// records tell the same, with their times and the usage).
func (p *taskParser) apiMessage(em *agt.Emitter, m *message) {
	if m == nil {
		return
	}
	if p.ui {
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: millis(m.TS), Meta: &agt.Meta{Type: "api_message", Subtype: m.Role}}, "", "api")
		return
	}
	if m.Role == "assistant" {
		p.reqs++ // one API request per assistant message
		if m.ID == "" {
			m.ID = p.msgID()
		}
	}
	if m.Role == "user" {
		m.Content = p.textResults(m.Content)
	}
	if h := roles[m.Role]; h != nil {
		h(p.api, em, m)
	} else {
		em.Unknown("", "", "role "+m.Role)
	}
	if m.Role == "assistant" {
		p.pending = p.pending[:0]
		var bs []block
		// read again for the ids of its calls: a content of another shape
		// was reported where its blocks were emitted
		_ = agt.API.Unmarshal(m.Content, &bs)
		for _, b := range bs {
			if b.Type == "tool_use" && b.ID != "" {
				p.pending = append(p.pending, pendingCall{b.Name, taskCall{b.ID, p.api.calls[b.ID]}})
			}
		}
	}
}

// textResults makes the text blocks of a user message that give a tool's
// result ("[read_file for 'x'] Result:" and the text, as the extension
// 3.x sends them instead of tool_result blocks) tool_result blocks of the
// previous message's call of that name, each call answered once.
func (p *taskParser) textResults(content agt.Raw) agt.Raw {
	if len(p.pending) == 0 || len(content) == 0 || content[0] != '[' {
		return content
	}
	var bs []agt.Raw
	if agt.API.Unmarshal(content, &bs) != nil {
		return content
	}
	changed := false
	for i, raw := range bs {
		var b block
		if agt.API.Unmarshal(raw, &b) != nil || b.Type != "text" || b.Text == nil {
			continue
		}
		h := resultHead.FindStringSubmatch(*b.Text)
		if h == nil {
			continue
		}
		for j, c := range p.pending {
			if c.name != h[1] {
				continue
			}
			out := strings.TrimLeft((*b.Text)[len(h[0]):], "\n")
			bs[i] = agt.Marshal(map[string]any{"type": "tool_result", "tool_use_id": c.id, "content": out})
			p.pending = slices.Delete(p.pending, j, j+1)
			changed = true
			break
		}
	}
	if !changed {
		return content
	}
	return agt.Marshal(bs)
}

// uiHandler emits the events of one panel record.
type uiHandler func(p *taskParser, em *agt.Emitter, m *uiMessage)

// uiMessage emits a panel record by its say or ask (dispatch tables in
// taskui.go); a partial record is a meta event (the panel saves the whole
// one after it).
func (p *taskParser) uiMessage(em *agt.Emitter, m *uiMessage) {
	table, kind := says, m.Say
	if m.Type == "ask" {
		table, kind = asks, m.Ask
	}
	if m.Partial {
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: millis(m.TS), Meta: &agt.Meta{Type: "partial", Subtype: kind}}, "", "ui")
		return
	}
	if h := table[kind]; h != nil && (m.Type == "say" || m.Type == "ask") {
		h(p, em, m)
		return
	}
	em.Unknown("", "", m.Type+" "+kind)
}

// text is the record's text.
func (m *uiMessage) text() string { return str(m.Text) }

// msgID is the message id of the model's reply to the current request:
// one assistant message per API request.
func (p *taskParser) msgID() string {
	if p.reqs == 0 {
		return ""
	}
	return "req-" + strconv.Itoa(p.reqs)
}

// emit emits ev at m's time, as the model's reply to the current request
// when ev is the model's.
func (p *taskParser) emit(em *agt.Emitter, m *uiMessage, ev agt.Event) string {
	ev.TS = millis(m.TS)
	switch ev.Kind {
	case agt.KindAssistant, agt.KindReasoning, agt.KindToolCall, agt.KindUsage:
		ev.MessageID = p.msgID()
		ev.Model = p.model(m)
	}
	return em.Emit(ev, "", "ui")
}

// model is the model of a record: its modelInfo, else the model the
// task's metadata names for its time.
func (p *taskParser) model(m *uiMessage) string {
	if m.ModelInfo != nil && m.ModelInfo.ModelID != "" {
		return m.ModelInfo.ModelID
	}
	model := ""
	for _, u := range p.models {
		if m.TS != nil && u.TS <= *m.TS {
			model = u.Model
		}
	}
	return model
}

// call emits a tool call of the model; kind names the kind of record that
// gives its result ("" for none).
func (p *taskParser) call(em *agt.Emitter, m *uiMessage, name string, input agt.Raw, mcp *agt.MCP, kind string) {
	id := "ui-" + strconv.FormatFloat(deref(m.TS), 'f', -1, 64)
	ev := p.emit(em, m, agt.Event{Kind: agt.KindToolCall, Tool: &agt.Tool{
		ID: id, Name: name, NativeName: name, MCP: mcp, Input: input, NativeInput: input,
	}})
	if kind != "" {
		p.last[kind] = taskCall{id, ev}
	}
	p.pending = append(p.pending, pendingCall{name, taskCall{id, ev}})
}

// answered drops the call id from the pending calls.
func (p *taskParser) answered(id string) {
	p.pending = slices.DeleteFunc(p.pending, func(c pendingCall) bool { return c.id == id })
}

// result emits the result of the last call of kind.
func (p *taskParser) result(em *agt.Emitter, m *uiMessage, kind string, output string, isError bool) {
	c, ok := p.last[kind]
	if !ok {
		p.emit(em, m, agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: m.Say + m.Ask}, Text: agt.String(output)})
		return
	}
	p.emit(em, m, agt.Event{Kind: agt.KindToolResult, Result: &agt.Result{ID: c.id, Call: c.event, Output: agt.String(output), IsError: isError}})
	p.answered(c.id)
}

// resultHead is the head of the text a request sends for a tool's result:
// "[read_file for 'src/app.ts'] Result:", "[attempt_completion] Result:".
var resultHead = regexp.MustCompile(`^\[([a-z_]+)(?: for [^\]]*)?\] Result:`)

// resultEnds are where the result's text ends in a request: the reminders
// and the environment the extension appends after it.
var resultEnds = []string{"\n\n<environment_details>", "\n\n\n\n# Todo List", "\n\n\n\n# task_progress"}

// requestResult emits, from the text of a request, the result of the
// previous request's call it answers when that call has no result yet
// (the panel shows none for reading or editing a file): the request's
// first lines are what the extension sent the model as the tool's result.
func (p *taskParser) requestResult(em *agt.Emitter, m *uiMessage, request string) {
	h := resultHead.FindStringSubmatch(request)
	if h == nil {
		return
	}
	for i := len(p.pending) - 1; i >= 0; i-- {
		c := p.pending[i]
		if c.name != h[1] {
			continue
		}
		out := strings.TrimLeft(request[len(h[0]):], "\n")
		for _, end := range resultEnds {
			if j := strings.Index(out, end); j >= 0 {
				out = out[:j]
			}
		}
		em.Emit(agt.Event{Kind: agt.KindToolResult, TS: millis(m.TS), Result: &agt.Result{ID: c.id, Call: c.event, Output: agt.String(out), IsError: isErrorText(out)}}, "", "result")
		return
	}
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

// isErrorText tells whether a result's text reports an error (the
// panel's "Error:" prefix).
func isErrorText(s string) bool { return strings.HasPrefix(s, "Error") }
