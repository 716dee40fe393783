package copilot

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/agt-project/agt"
)

// envelope is one session event: {type, data, id, timestamp, parentId,
// ephemeral?, agentId?}, plus the fields of the live stream's result line.
type envelope[D any] struct {
	Type      string `json:"type"`
	Data      D      `json:"data"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	AgentID   string `json:"agentId"`
	// the last line of `copilot -p --output-format json`
	SessionID string  `json:"sessionId"`
	ExitCode  *int    `json:"exitCode"`
	Usage     agt.Raw `json:"usage"`
	Outcome   string  `json:"outcome"`
	Blocker   agt.Raw `json:"blocker"`
}

// data holds the fields of the record types read in full (those with a
// handler). Fields whose type differs between record types are Raw.
type data struct {
	SessionID      string  `json:"sessionId"`
	CopilotVersion string  `json:"copilotVersion"`
	SelectedModel  string  `json:"selectedModel"`
	Context        agt.Raw `json:"context"`

	Content            agt.Raw `json:"content"`
	TransformedContent agt.Raw `json:"transformedContent"`
	Message            agt.Raw `json:"message"`
	ErrorType          string  `json:"errorType"`
	Summary            agt.Raw `json:"summary"`
	SummaryContent     agt.Raw `json:"summaryContent"`
	Kind               agt.Raw `json:"kind"`

	MessageID        string        `json:"messageId"`
	Model            string        `json:"model"`
	ToolRequests     []toolRequest `json:"toolRequests"`
	ReasoningText    agt.Raw       `json:"reasoningText"`
	ReasoningID      string        `json:"reasoningId"`
	OutputTokens     *agt.Count    `json:"outputTokens"`
	APICallID        string        `json:"apiCallId"`
	ParentToolCallID string        `json:"parentToolCallId"`

	ToolCallID     string  `json:"toolCallId"`
	ToolName       string  `json:"toolName"`
	Arguments      agt.Raw `json:"arguments"`
	MCPServerName  string  `json:"mcpServerName"`
	MCPToolName    string  `json:"mcpToolName"`
	Success        *bool   `json:"success"`
	Result         agt.Raw `json:"result"`
	Error          agt.Raw `json:"error"`
	ShellExecution *struct {
		ExitCode *int `json:"exitCode"`
	} `json:"shellExecution"`

	InputTokens      agt.Count `json:"inputTokens"`
	CacheReadTokens  agt.Count `json:"cacheReadTokens"`
	CacheWriteTokens agt.Count `json:"cacheWriteTokens"`
	ReasoningTokens  agt.Count `json:"reasoningTokens"`

	ModelMetrics agt.Raw `json:"modelMetrics"`
	TokenDetails agt.Raw `json:"tokenDetails"`
	CurrentModel string  `json:"currentModel"`
	ShutdownType string  `json:"shutdownType"`

	HookInvocationID string `json:"hookInvocationId"`
	HookType         string `json:"hookType"`
	Input            *struct {
		SessionID string `json:"sessionId"`
	} `json:"input"`

	Name          agt.Raw `json:"name"`
	Path          agt.Raw `json:"path"`
	PluginName    agt.Raw `json:"pluginName"`
	PluginVersion agt.Raw `json:"pluginVersion"`
	Description   agt.Raw `json:"description"`

	Command string `json:"command"`
}

type toolRequest struct {
	ToolCallID    string  `json:"toolCallId"`
	Name          string  `json:"name"`
	ToolName      string  `json:"toolName"` // the name as some versions write it
	Arguments     agt.Raw `json:"arguments"`
	MCPServerName string  `json:"mcpServerName"`
	MCPToolName   string  `json:"mcpToolName"`
}

// call is a tool call read from a record, its input already an object.
type call struct {
	id, name string
	input    agt.Raw
	mcp      *agt.MCP
}

// outcome is a tool result read from tool.execution_complete.
type outcome struct {
	output  agt.Raw
	isError bool
	exit    *int
}

// rec is a decoded line.
type rec struct {
	bad     bool  // not a JSON object: only err
	err     error // a data error of the line
	typ     string
	spec    typeSpec
	known   bool
	id      string
	ts      string
	stream  string
	session string // the session id the record states
	d       *data
	raw     agt.Raw // the record's data, when its type keeps it
	mf      metaFields
	res     *envelope[agt.Raw] // the live result line

	calls []call
	out   *outcome
	usage *agt.Usage
	shut  *shutdownInfo
	ctx   *contextInfo
}

type contextInfo struct {
	Cwd    string `json:"cwd"`
	Branch string `json:"branch"`
}

// maxHeld bounds the records held while no session id is known (a session
// file whose session.start is not first; the live stream holds none: it has
// a provisional session); past it they go to the fallback session, as the
// core does with pending events.
const maxHeld = 4096

type held struct {
	src agt.Src
	raw agt.Raw
	r   *rec
}

// open is a tool call emitted and not yet answered.
type open struct {
	toolID  string // the call id in events (see uniqueCall)
	event   string // the tool_call event id
	started bool   // tool.execution_start seen
}

// sessionParser reads events.jsonl (copilot-session) and the live JSONL stream
// (copilot-json): the same SessionEvent objects.
type sessionParser struct {
	live  bool // copilot-json: no hold, a provisional session until one is named
	sid   string
	hold  []held
	keys  map[string]bool
	calls map[string]*open // native call id → open call
	used  map[string]int   // native call id → times used by a call or an unanswered result
	resp  map[string]int   // response id → times used by an assistant.message
	model string
	seg   segment
	carry map[string]int64 // output emitted as open usage since the last shutdown with totals, per model
	pend  []pending        // tool requests waiting for their tool.execution_start
	last  string           // the time of the last record read, for the usage of a run that ended unsaid
}

// pending is a tool request of an assistant message whose call is not
// emitted yet: its tool.execution_start names the MCP server and tool
// (the request names at most the server). It is emitted, with the
// message's place and key, when that start comes or when any other record
// comes first (then no start follows it).
type pending struct {
	src   agt.Src
	raw   agt.Raw
	r     *rec
	key   string
	c     call
	model string
	msg   string // the response's id (message_id)
}

func newSessionParser() *sessionParser {
	return &sessionParser{keys: map[string]bool{}, calls: map[string]*open{}, used: map[string]int{}, resp: map[string]int{}, seg: newSegment()}
}

// peekType reads the type of a line, cheaply when it comes first.
func peekType(line []byte) (string, error) {
	t := bytes.TrimLeft(line, " \t\ufeff")
	const pre = `{"type":"`
	if bytes.HasPrefix(t, []byte(pre)) {
		rest := t[len(pre):]
		if i := bytes.IndexAny(rest, "\"\\"); i >= 0 && rest[i] == '"' {
			return string(rest[:i]), nil
		}
	}
	var v struct {
		Type string `json:"type"`
	}
	err := agt.Decode(line, &v)
	if agt.IsFieldError(err) {
		return "", nil
	}
	return v.Type, err
}

// Decode reads one line. It touches no parser state.
// Its errors are kept in the record and emitted by Apply, so that they
// keep their place among records held until the session is known.
func (p *sessionParser) Decode(line []byte) (any, error) {
	r, err := decodeRec(line)
	if err != nil {
		if !agt.IsFieldError(err) {
			return &rec{bad: true, err: err}, nil // not a JSON object
		}
		r.err = err // a field of the wrong type; the rest is read
	}
	return r, nil
}

func decodeRec(line []byte) (*rec, error) {
	typ, err := peekType(line)
	if err != nil {
		return nil, err
	}
	r := &rec{typ: typ}
	r.spec, r.known = types[typ]
	switch {
	case r.known && r.spec.handle != nil:
		err = r.decodeFull(line)
	case r.known && r.spec.keep:
		var e envelope[agt.Raw]
		err = agt.Decode(line, &e)
		r.envelope(e.ID, e.Timestamp, e.AgentID)
		r.raw = agt.Compact(e.Data)
		if len(r.raw) > 0 && r.raw[0] == '{' {
			if ferr := agt.API.Unmarshal(r.raw, &r.mf); ferr != nil && err == nil {
				err = &agt.FieldError{Msg: ferr.Error()}
			}
		}
	default:
		var e envelope[metaFields]
		err = agt.Decode(line, &e)
		if agt.IsFieldError(err) && !r.known {
			err = nil // kept whole as an unknown event
		}
		r.mf = e.Data
		r.envelope(e.ID, e.Timestamp, e.AgentID)
	}
	if err != nil {
		if !agt.IsFieldError(err) {
			return nil, err
		}
	}
	if r.d == nil {
		r.stream = stream(r.stream, r.mf.ParentToolCallID)
	}
	return r, err
}

func (r *rec) envelope(id, ts, agent string) {
	r.id, r.ts = id, stamp(ts)
	if agent != "" {
		r.stream = "subagent:" + agent
	}
}

// stream is the stream of a record: its agentId, or the deprecated
// parentToolCallId of sub-agent events.
func stream(agent, parentCall string) string {
	if agent != "" || parentCall == "" {
		return agent
	}
	return "subagent:" + parentCall
}

// decodeFull reads a record of a type with a handler and prepares what its
// handler needs.
func (r *rec) decodeFull(line []byte) error {
	var err error
	if r.spec.keep {
		var e envelope[agt.Raw]
		err = agt.Decode(line, &e)
		r.envelope(e.ID, e.Timestamp, e.AgentID)
		r.raw = agt.Compact(e.Data)
		r.d = &data{}
		if len(r.raw) > 0 && r.raw[0] == '{' {
			if derr := agt.Decode(r.raw, r.d); derr != nil && err == nil {
				err = derr
			}
		}
	} else {
		var e envelope[data]
		err = agt.Decode(line, &e)
		r.envelope(e.ID, e.Timestamp, e.AgentID)
		r.d = &e.Data
		if r.typ == "result" {
			r.res = &envelope[agt.Raw]{Type: e.Type, SessionID: e.SessionID, ExitCode: e.ExitCode, Usage: e.Usage, Outcome: e.Outcome, Blocker: e.Blocker}
			r.session = e.SessionID
		}
	}
	d := r.d
	r.stream = stream(r.stream, d.ParentToolCallID)
	switch r.typ {
	case "session.start":
		r.session = d.SessionID
		r.ctx = readContext(d.Context, &err)
	case "session.resume":
		r.ctx = readContext(d.Context, &err)
	case "hook.start":
		if d.Input != nil {
			r.session = d.Input.SessionID
		}
	case "assistant.message":
		for _, t := range d.ToolRequests {
			name := t.Name
			if name == "" {
				name = t.ToolName
			}
			r.calls = append(r.calls, call{id: t.ToolCallID, name: name, input: agt.ToolArgs(t.Arguments), mcp: requestMCP(t.MCPServerName, t.MCPToolName, name)})
		}
	case "tool.execution_start":
		r.calls = []call{{id: d.ToolCallID, name: d.ToolName, input: agt.ToolArgs(d.Arguments), mcp: mcp(d.MCPServerName, d.MCPToolName)}}
	case "tool.execution_complete":
		r.out = readOutcome(d, &err)
	case "assistant.usage":
		r.usage = readCallUsage(d)
	case "session.shutdown":
		var serr error
		r.shut, serr = readShutdown(d)
		if err == nil {
			err = serr
		}
	}
	return err
}

func readContext(raw agt.Raw, err *error) *contextInfo {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var c contextInfo
	field(err, "context", raw, &c)
	return &c
}

// requestMCP is the MCP tool of a tool request, which names the server
// but not the tool: the tool is the name less "<server>-".
func requestMCP(server, tool, name string) *agt.MCP {
	if server != "" && tool == "" {
		tool = strings.TrimPrefix(name, server+"-")
	}
	return mcp(server, tool)
}

func mcp(server, tool string) *agt.MCP {
	if server == "" || tool == "" {
		return nil
	}
	return &agt.MCP{Server: server, Tool: tool}
}

// readOutcome reads a tool result: the content sent to the model (the
// error message when the tool failed without one); an error when success
// is false, an error is given or the shell exit code is not 0.
func readOutcome(d *data, err *error) *outcome {
	o := &outcome{}
	var res struct {
		Content agt.Raw `json:"content"`
	}
	if len(d.Result) > 0 && d.Result[0] == '{' {
		field(err, "result", d.Result, &res)
	}
	var fail struct {
		Message agt.Raw `json:"message"`
	}
	failed := !d.Error.IsNull()
	if failed && d.Error[0] == '{' {
		field(err, "error", d.Error, &fail)
	} else if failed {
		fail.Message = d.Error
	}
	o.output = res.Content
	if o.output.IsNull() {
		o.output = fail.Message
	}
	if d.ShellExecution != nil && d.ShellExecution.ExitCode != nil {
		o.exit = d.ShellExecution.ExitCode
	} else {
		o.exit = shellExit(res.Content)
	}
	o.isError = (d.Success != nil && !*d.Success) || failed || (o.exit != nil && *o.exit != 0)
	return o
}

// Apply emits the events of a record; records seen before the session id
// is known are held until it is, but in the live stream, where they go to
// a provisional session at once.
func (p *sessionParser) Apply(em *agt.Emitter, v any) {
	r := v.(*rec)
	switch {
	case r.typ == "session.start" && r.session != "" && r.session != p.sid:
		p.setSession(em, r.session)
	case p.sid == "" && r.session != "":
		p.setSession(em, r.session)
	case p.sid == "" && p.live:
		em.Provisional()
	case p.sid == "":
		p.hold = append(p.hold, held{em.Src(), em.Line(), r})
		if len(p.hold) >= maxHeld {
			p.setSession(em, fallbackSession(em.Src().Path))
		}
		return
	}
	p.apply(em, r)
}

// setSession makes id the current session and emits the records held so
// far into it.
func (p *sessionParser) setSession(em *agt.Emitter, id string) {
	p.flush(em)
	if p.sid != "" {
		p.calls, p.used, p.resp = map[string]*open{}, map[string]int{}, map[string]int{}
	}
	p.sid = id
	em.Session(id)
	if len(p.hold) == 0 {
		return
	}
	src, line := em.Src(), em.Line()
	for _, h := range p.hold {
		em.SetSrc(h.src, h.raw)
		p.apply(em, h.r)
	}
	p.hold = nil
	em.SetSrc(src, line)
}

// Finish emits held records into the fallback session and the output
// tokens of a run that ended without session.shutdown.
func (p *sessionParser) Finish(em *agt.Emitter) {
	if p.sid == "" && len(p.hold) > 0 {
		p.setSession(em, fallbackSession(p.hold[0].src.Path))
	}
	p.flush(em)
	p.openUsage(em, "", "open-usage")
}

func (p *sessionParser) apply(em *agt.Emitter, r *rec) {
	if r.ts != "" {
		defer func() { p.last = r.ts }() // after the record: a run it ends keeps the time of its own last one
	}
	if r.typ != "tool.execution_start" || r.d == nil || p.pendingAt(r.d.ToolCallID) < 0 {
		// no start follows the requests; one that names no tool waits
		// through the tool records for the start that names it
		p.flushNamed(em, strings.HasPrefix(r.typ, "tool.") || strings.HasPrefix(r.typ, "hook."))
	}
	if r.typ == "tool.execution_complete" && r.d != nil {
		if i := p.pendingAt(r.d.ToolCallID); i >= 0 { // its result: no start will name it
			pd := p.pend[i]
			p.pend = append(p.pend[:i], p.pend[i+1:]...)
			p.emitPending(em, pd)
		}
	}
	if r.err != nil {
		em.Errorf("%v", r.err)
	}
	if r.bad {
		return
	}
	if !r.known {
		em.Unknown("", r.stream, r.typ)
		return
	}
	if r.spec.handle != nil {
		r.spec.handle(p, em, r)
		return
	}
	m := &agt.Meta{Type: r.typ, Agent: r.mf.AgentName, Data: r.raw}
	if r.spec.sub != nil {
		m.Subtype = r.spec.sub(&r.mf)
	}
	if r.typ == "session.title_changed" {
		m.Title = r.mf.Title
	}
	m.Outcome = r.outcome(m.Subtype)
	ev := agt.Event{Kind: agt.KindMeta, TS: r.ts, Stream: r.stream, Meta: m}
	if r.spec.model != nil {
		ev.Model = r.spec.model(&r.mf)
		if ev.Model != "" && r.stream == "" && r.spec.switches {
			p.model = ev.Model
		}
	}
	em.Emit(ev, p.key(r.id), "meta")
}

// key is the native id of a record as the key of its events, or "" (the
// line) when the record has none or repeats one (scrubbed fixtures).
func (p *sessionParser) key(id string) string {
	if id == "" || p.keys[id] {
		return ""
	}
	p.keys[id] = true
	return id
}

// meta emits a record with no conversational content.
func (p *sessionParser) meta(em *agt.Emitter, r *rec, key string, m *agt.Meta, model string) {
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: r.ts, Stream: r.stream, Model: model, Meta: m}, key, "meta")
}

func (p *sessionParser) start(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	p.openUsage(em, k, "open-usage")
	p.seg = newSegment()
	p.carry = nil
	p.session(em, r, k)
}

func (p *sessionParser) resume(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	p.openUsage(em, k, "open-usage")
	p.seg = newSegment()
	p.session(em, r, k)
}

func (p *sessionParser) session(em *agt.Emitter, r *rec, k string) {
	d := r.d
	if d.SelectedModel != "" {
		p.model = d.SelectedModel
	}
	m := &agt.Meta{Type: r.typ, Version: d.CopilotVersion, Data: r.raw}
	if r.ctx != nil {
		m.Cwd, m.GitBranch = r.ctx.Cwd, r.ctx.Branch
	}
	p.meta(em, r, k, m, d.SelectedModel)
}

func (p *sessionParser) userMessage(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	if t := text(r.d.Content); t != nil {
		em.Emit(agt.Event{Kind: agt.KindUser, TS: r.ts, Stream: r.stream, Text: t}, k, "text")
		return
	}
	// no text of the user: a prompt the runtime injected (an autopilot
	// continuation) is in transformedContent
	if t := text(r.d.TransformedContent); t != nil {
		em.Emit(agt.Event{Kind: agt.KindSystem, TS: r.ts, Stream: r.stream, Text: t, Meta: &agt.Meta{Type: r.typ}}, k, "text")
		return
	}
	p.meta(em, r, k, &agt.Meta{Type: r.typ}, "")
}

func (p *sessionParser) systemMessage(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	if t := text(r.d.Content); t != nil {
		em.Emit(agt.Event{Kind: agt.KindSystem, TS: r.ts, Stream: r.stream, Text: t}, k, "text")
		return
	}
	p.meta(em, r, k, &agt.Meta{Type: r.typ}, "")
}

func (p *sessionParser) notification(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	var kind struct {
		Type string `json:"type"`
	}
	if len(r.d.Kind) > 0 && r.d.Kind[0] == '{' {
		em.Field("kind", r.d.Kind, &kind)
	}
	m := &agt.Meta{Type: r.typ, Subtype: kind.Type, Data: agt.Compact(r.d.Kind)}
	if t := text(r.d.Content); t != nil {
		em.Emit(agt.Event{Kind: agt.KindSystem, TS: r.ts, Stream: r.stream, Text: t, Meta: m}, k, "text")
		return
	}
	p.meta(em, r, k, m, "")
}

func (p *sessionParser) sessionError(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	m := &agt.Meta{Type: r.typ, Subtype: r.d.ErrorType, Data: r.raw, Outcome: r.outcome(text(r.d.Message).Str())}
	if t := text(r.d.Message); t != nil {
		em.Emit(agt.Event{Kind: agt.KindSystem, TS: r.ts, Stream: r.stream, Text: t, Meta: m}, k, "text")
		return
	}
	p.meta(em, r, k, m, "")
}

func (p *sessionParser) taskComplete(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	m := &agt.Meta{Type: r.typ, Outcome: r.outcome("")}
	if t := text(r.d.Summary); t != nil {
		em.Emit(agt.Event{Kind: agt.KindSummary, TS: r.ts, Stream: r.stream, Text: t, Meta: m}, k, "text")
		return
	}
	p.meta(em, r, k, m, "")
}

// compactionComplete: the summary of the compacted history. The tokens of
// the compaction call (compactionTokensUsed) are not a usage event: they
// have no model and are taken to be inside the shutdown's modelMetrics.
func (p *sessionParser) compactionComplete(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	if t := text(r.d.SummaryContent); t != nil {
		em.Emit(agt.Event{Kind: agt.KindSummary, TS: r.ts, Stream: r.stream, Text: t, Meta: &agt.Meta{Type: r.typ}}, k, "text")
		return
	}
	p.meta(em, r, k, &agt.Meta{Type: r.typ, Data: r.raw}, "")
}

func (p *sessionParser) hookStart(em *agt.Emitter, r *rec) {
	d := r.d
	m := &agt.Meta{Type: r.typ, Subtype: d.HookType, Data: agt.Marshal(struct {
		ID   string `json:"hookInvocationId,omitempty"`
		Type string `json:"hookType,omitempty"`
	}{d.HookInvocationID, d.HookType})}
	p.meta(em, r, p.key(r.id), m, "")
}

// skill: a skill's instructions were loaded into the conversation (the
// skill file's content is left out).
func (p *sessionParser) skill(em *agt.Emitter, r *rec) {
	d := r.d
	m := &agt.Meta{Type: r.typ, Subtype: str(d.Name), Data: agt.Marshal(struct {
		Name          agt.Raw `json:"name,omitempty"`
		Path          agt.Raw `json:"path,omitempty"`
		PluginName    agt.Raw `json:"pluginName,omitempty"`
		PluginVersion agt.Raw `json:"pluginVersion,omitempty"`
		Description   agt.Raw `json:"description,omitempty"`
	}{d.Name, d.Path, d.PluginName, d.PluginVersion, d.Description})}
	p.meta(em, r, p.key(r.id), m, "")
}

func (p *sessionParser) command(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	if r.d.Command != "" {
		em.Emit(agt.Event{Kind: agt.KindSlashCommand, TS: r.ts, Stream: r.stream, Text: agt.String(r.d.Command), Meta: &agt.Meta{Type: r.typ}}, k, "text")
		return
	}
	p.meta(em, r, k, &agt.Meta{Type: r.typ}, "")
}

func (p *sessionParser) reasoning(em *agt.Emitter, r *rec) {
	k := p.key(r.id)
	if t := text(r.d.Content); t != nil {
		em.Emit(agt.Event{Kind: agt.KindReasoning, TS: r.ts, Stream: r.stream, Text: t, Model: p.modelOf(r)}, k, "reasoning")
		return
	}
	p.meta(em, r, k, &agt.Meta{Type: r.typ}, "")
}

// modelOf is the model of a record: its own, else the session's current
// one for records of the main stream.
func (p *sessionParser) modelOf(r *rec) string {
	if r.d != nil && r.d.Model != "" {
		return r.d.Model
	}
	if r.stream == "" {
		return p.model
	}
	return ""
}

// assistantMessage emits the reasoning text, the text and one tool_call per
// tool request of an assistant message.
func (p *sessionParser) assistantMessage(em *agt.Emitter, r *rec) {
	d := r.d
	k := p.key(r.id)
	model := p.modelOf(r)
	if d.Model != "" && r.stream == "" {
		p.model = d.Model
	}
	id := p.response(d)
	n := 0
	if t := text(d.ReasoningText); t != nil {
		em.Emit(agt.Event{Kind: agt.KindReasoning, TS: r.ts, Stream: r.stream, Text: t, Model: model, MessageID: id}, k, "reasoning")
		n++
	}
	if t := text(d.Content); t != nil {
		em.Emit(agt.Event{Kind: agt.KindAssistant, TS: r.ts, Stream: r.stream, Text: t, Model: model, MessageID: id}, k, "text")
		n++
	}
	for _, c := range r.calls {
		p.pend = append(p.pend, pending{src: em.Src(), raw: em.Line(), r: r, key: k, c: c, model: model, msg: id})
		n++
	}
	if d.OutputTokens != nil {
		p.seg.addOutput(model, int64(*d.OutputTokens))
	}
	if n == 0 { // a response with no text and no call is still a response
		em.Emit(agt.Event{Kind: agt.KindAssistant, TS: r.ts, Stream: r.stream, Model: model, MessageID: id}, k, "text")
	}
}

// response is the model call an assistant.message stands for (each one is a
// response of its own): its apiCallId, the id assistant.usage names, else its
// messageId; an id met again in the session (scrubbed fixtures repeat them)
// becomes id#n, so that two responses never fold into one message.
func (p *sessionParser) response(d *data) string {
	id := d.APICallID
	if id == "" {
		id = d.MessageID
	}
	if id == "" {
		return ""
	}
	n := p.resp[id]
	p.resp[id] = n + 1
	if n == 0 {
		return id
	}
	return id + "#" + strconv.Itoa(n)
}

// emitCall emits a tool_call and opens it.
func (p *sessionParser) emitCall(em *agt.Emitter, r *rec, k string, c call, model, msg string) {
	id := p.uniqueCall(c.id)
	ev := agt.Event{Kind: agt.KindToolCall, TS: r.ts, Stream: r.stream, Model: model, MessageID: msg,
		Tool: &agt.Tool{ID: id, Name: c.name, NativeName: c.name, MCP: c.mcp, Input: c.input, NativeInput: c.input}}
	eid := em.Emit(ev, k, "tool:"+id)
	p.calls[c.id] = &open{toolID: id, event: eid}
}

// pendingAt is the index of the pending request with call id, or -1.
func (p *sessionParser) pendingAt(id string) int {
	for i := range p.pend {
		if p.pend[i].c.id == id {
			return i
		}
	}
	return -1
}

// flush emits the pending requests, in order.
func (p *sessionParser) flush(em *agt.Emitter) { p.flushNamed(em, false) }

// flushNamed is flush, keeping the requests that name no tool when
// keepNameless.
func (p *sessionParser) flushNamed(em *agt.Emitter, keepNameless bool) {
	pend := p.pend
	p.pend = nil
	for _, pd := range pend {
		if keepNameless && pd.c.name == "" {
			p.pend = append(p.pend, pd)
			continue
		}
		p.emitPending(em, pd)
	}
}

// emitPending emits a pending request's call at its message's place.
func (p *sessionParser) emitPending(em *agt.Emitter, pd pending) {
	src, line := em.Src(), em.Line()
	em.SetSrc(pd.src, pd.raw)
	p.emitCall(em, pd.r, pd.key, pd.c, pd.model, pd.msg)
	em.SetSrc(src, line)
}

// uniqueCall returns the id a new call with native id gets: the id itself,
// or id#n when the id was used before in the session (only scrubbed
// fixtures repeat call ids), so that each result pairs with one call.
func (p *sessionParser) uniqueCall(id string) string {
	n := p.used[id]
	p.used[id] = n + 1
	if n == 0 {
		return id
	}
	return id + "#" + strconv.Itoa(n+1)
}

// toolStart: the call was emitted from the assistant message's tool
// requests; the start is a meta event then. A call seen first here (no
// tool request before it) is emitted here.
func (p *sessionParser) toolStart(em *agt.Emitter, r *rec) {
	d := r.d
	if i := p.pendingAt(d.ToolCallID); i >= 0 {
		pd := p.pend[i]
		p.pend = append(p.pend[:i], p.pend[i+1:]...)
		if m := mcp(d.MCPServerName, d.MCPToolName); m != nil {
			pd.c.mcp = m
		}
		if pd.c.name == "" {
			pd.c.name = d.ToolName // a request that did not name its tool
		}
		p.emitPending(em, pd)
	}
	k := p.key(r.id)
	if c := p.calls[d.ToolCallID]; c != nil && !c.started {
		c.started = true
		p.meta(em, r, k, &agt.Meta{Type: r.typ, Subtype: d.ToolName, Data: agt.Marshal(struct {
			ID     string `json:"toolCallId,omitempty"`
			Name   string `json:"toolName,omitempty"`
			Server string `json:"mcpServerName,omitempty"`
			Tool   string `json:"mcpToolName,omitempty"`
		}{c.toolID, d.ToolName, d.MCPServerName, d.MCPToolName})}, d.Model)
		return
	}
	p.emitCall(em, r, k, r.calls[0], p.modelOf(r), "")
	p.calls[d.ToolCallID].started = true
}

// toolComplete emits the result and closes its call.
func (p *sessionParser) toolComplete(em *agt.Emitter, r *rec) {
	d := r.d
	res := &agt.Result{ID: d.ToolCallID, Output: r.out.output, IsError: r.out.isError, ExitCode: r.out.exit}
	if c := p.calls[d.ToolCallID]; c != nil {
		res.ID, res.Call = c.toolID, c.event
		delete(p.calls, d.ToolCallID)
	} else {
		res.ID = p.uniqueCall(d.ToolCallID) // a result whose call is not in the input
	}
	em.Emit(agt.Event{Kind: agt.KindToolResult, TS: r.ts, Stream: r.stream, Model: d.Model, Result: res}, p.key(r.id), "result")
}

// field decodes raw, the member name of a record, into v (agt.DecodeValue);
// a wrong type becomes *err unless it holds an error already.
func field(err *error, name string, raw agt.Raw, v any) {
	if e := agt.DecodeValue(name, raw, v); e != nil && *err == nil {
		*err = e
	}
}
