package cursor

import (
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
)

// line is one line of live output.
type line struct {
	Type        string   `json:"type"`
	Subtype     string   `json:"subtype"`
	SessionID   string   `json:"session_id"`
	Cwd         string   `json:"cwd"`
	Model       string   `json:"model"`
	Message     *message `json:"message"`
	Text        *string  `json:"text"`
	CallID      string   `json:"call_id"`
	ToolCall    agt.Raw  `json:"tool_call"`
	ModelCallID string   `json:"model_call_id"`
	TimestampMS *int64   `json:"timestamp_ms"`
	RequestID   string   `json:"request_id"`
	IsError     bool     `json:"is_error"`
	Usage       *usage   `json:"usage"`
	Error       agt.Raw  `json:"error"`
	Status      string   `json:"status"`
	Result      agt.Raw  `json:"result"`
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

// block is a content block of a message.
type block struct {
	Type  string  `json:"type"`
	Text  *string `json:"text"`
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Input agt.Raw `json:"input"`
}

// usage is result.usage of newer builds.
type usage struct {
	Input      agt.Count `json:"inputTokens"`
	Output     agt.Count `json:"outputTokens"`
	CacheRead  agt.Count `json:"cacheReadTokens"`
	CacheWrite agt.Count `json:"cacheWriteTokens"`
}

// liveParser reads stream-json and json output.
type liveParser struct {
	calls    map[string]string // call_id → event id
	model    string            // the init line's model
	text     strings.Builder   // assistant deltas not yet followed by their whole line
	thinking strings.Builder   // thinking deltas not yet completed
	textTS   string
}

// Decode reads one line.
func (p *liveParser) Decode(rec []byte) (any, error) {
	l := &line{}
	if err := agt.Decode(rec, l); err != nil {
		return nil, err
	}
	return l, nil
}

// liveHandlers emit the events of each line type.
var liveHandlers = map[string]func(p *liveParser, em *agt.Emitter, l *line, ts string){
	"system":     (*liveParser).system,
	"user":       (*liveParser).user,
	"assistant":  (*liveParser).assistant,
	"thinking":   (*liveParser).think,
	"tool_call":  (*liveParser).toolCall,
	"result":     (*liveParser).result,
	"turn_ended": (*liveParser).turnEnded,
}

// Apply emits the events of one line.
func (p *liveParser) Apply(em *agt.Emitter, v any) {
	l, ok := v.(*line)
	if !ok {
		return
	}
	if l.SessionID != "" {
		em.Session(l.SessionID)
	}
	ts := ""
	if l.TimestampMS != nil && *l.TimestampMS > 0 {
		ts = agt.FormatTime(time.UnixMilli(*l.TimestampMS))
	}
	if l.Type != "thinking" {
		p.flushThinking(em)
	}
	if !(l.Type == "assistant") {
		p.flushText(em)
	}
	h := liveHandlers[l.Type]
	if h == nil {
		em.Unknown("", "", l.Type)
		return
	}
	h(p, em, l, ts)
}

// Finish emits the deltas no whole line followed.
func (p *liveParser) Finish(em *agt.Emitter) {
	p.flushThinking(em)
	p.flushText(em)
}

func (p *liveParser) system(em *agt.Emitter, l *line, ts string) {
	if l.Subtype == "init" && l.Model != "" {
		p.model = l.Model
	}
	em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Model: l.Model,
		Meta: &agt.Meta{Type: orText(l.Subtype, "system"), Cwd: l.Cwd, Data: agt.Compact(em.Line())}}, "", "meta")
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (p *liveParser) user(em *agt.Emitter, l *line, ts string) {
	n := em.Count()
	if l.Message != nil {
		for i, b := range l.Message.Content {
			if b.Text != nil {
				em.Emit(agt.Event{TS: ts, Kind: agt.KindUser, Text: agt.String(*b.Text)}, "", "b"+strconv.Itoa(i))
			}
		}
	}
	if em.Count() == n {
		em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: &agt.Meta{Type: "user"}}, "", "meta")
	}
}

// assistant: a delta (timestamp_ms and no model_call_id) is held; a whole
// line replaces the deltas before it.
func (p *liveParser) assistant(em *agt.Emitter, l *line, ts string) {
	text := l.messageText()
	if l.TimestampMS != nil && l.ModelCallID == "" {
		if p.text.Len() == 0 {
			p.textTS = ts
		}
		p.text.WriteString(text)
		em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: &agt.Meta{Type: "assistant_delta"}}, "", "delta")
		return
	}
	p.text.Reset()
	if ts == "" {
		ts = p.textTS
	}
	p.textTS = ""
	if text == "" {
		em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: &agt.Meta{Type: "assistant"}}, "", "meta")
		return
	}
	em.Emit(agt.Event{TS: ts, Kind: agt.KindAssistant, Model: p.model, MessageID: l.ModelCallID, Text: agt.String(text)}, "", "text")
}

func (l *line) messageText() string {
	if l.Message == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range l.Message.Content {
		if c.Text != nil {
			b.WriteString(*c.Text)
		}
	}
	return b.String()
}

func (p *liveParser) flushText(em *agt.Emitter) {
	if p.text.Len() == 0 {
		return
	}
	em.Emit(agt.Event{TS: p.textTS, Kind: agt.KindAssistant, Model: p.model, Text: agt.String(p.text.String())}, "", "deltas")
	p.text.Reset()
	p.textTS = ""
}

// think: deltas are held, the completed line emits their text as one
// reasoning event.
func (p *liveParser) think(em *agt.Emitter, l *line, ts string) {
	if l.Text != nil {
		p.thinking.WriteString(*l.Text)
	}
	if l.Subtype == "completed" {
		if p.thinking.Len() > 0 {
			em.Emit(agt.Event{TS: ts, Kind: agt.KindReasoning, Model: p.model, Text: agt.String(p.thinking.String())}, "", "thinking")
			p.thinking.Reset()
			return
		}
	}
	em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: &agt.Meta{Type: "thinking_" + orText(l.Subtype, "delta")}}, "", "meta")
}

func (p *liveParser) flushThinking(em *agt.Emitter) {
	if p.thinking.Len() == 0 {
		return
	}
	em.Emit(agt.Event{Kind: agt.KindReasoning, Model: p.model, Text: agt.String(p.thinking.String())}, "", "thinking")
	p.thinking.Reset()
}

// toolBody is the object under a tool_call's single key.
type toolBody struct {
	Args   agt.Raw `json:"args"`
	Result agt.Raw `json:"result"`
}

// toolOf reads tool_call: its single key and the object under it.
func toolOf(em *agt.Emitter, tc agt.Raw) (name string, body toolBody, ok bool) {
	var m map[string]agt.Raw
	if len(tc) == 0 || tc[0] != '{' || agt.API.Unmarshal(tc, &m) != nil || len(m) == 0 {
		return "", body, false
	}
	// the single key; builds that add toolCallId or startedAtMs beside it
	// keep the tool under the key ending in ToolCall (or "function")
	var under agt.Raw
	for k, v := range m {
		if strings.HasSuffix(k, "ToolCall") || k == "function" || len(m) == 1 {
			if name == "" || k < name {
				name, under = k, v
			}
		}
	}
	if len(under) > 0 && under[0] == '{' {
		em.Field(name, under, &body)
	}
	return name, body, name != ""
}

func (p *liveParser) toolCall(em *agt.Emitter, l *line, ts string) {
	name, body, ok := toolOf(em, l.ToolCall)
	if !ok {
		em.Unknown("", "", "tool_call")
		return
	}
	switch l.Subtype {
	case "started":
		in := agt.ToolArgs(body.Args)
		id := em.Emit(agt.Event{TS: ts, Kind: agt.KindToolCall, Model: p.model, MessageID: l.ModelCallID,
			Tool: &agt.Tool{ID: l.CallID, Name: name, NativeName: name, Input: in, NativeInput: in}}, l.CallID, "call")
		p.calls[l.CallID] = id
	case "completed":
		out, isErr, code := toolResult(em, body.Result)
		em.Emit(agt.Event{TS: ts, Kind: agt.KindToolResult,
			Result: &agt.Result{ID: l.CallID, Call: p.calls[l.CallID], Output: out, IsError: isErr, ExitCode: code}}, l.CallID, "result")
	default:
		em.Unknown("", "", "tool_call")
	}
}

// toolResult reads a tool's result: {success: {…}}, {error: …} or
// {rejected: …}. The output is the success's content, or its stdout (with
// stderr after it) for a shell, else the whole object.
func toolResult(em *agt.Emitter, r agt.Raw) (out agt.Raw, isErr bool, code *int) {
	var res struct {
		Success  agt.Raw `json:"success"`
		Error    agt.Raw `json:"error"`
		Failure  agt.Raw `json:"failure"`
		Rejected agt.Raw `json:"rejected"`
	}
	if len(r) == 0 || r[0] != '{' || agt.API.Unmarshal(r, &res) != nil {
		return r, false, nil
	}
	switch {
	case !res.Error.IsNull():
		return res.Error, true, nil
	case !res.Failure.IsNull():
		return res.Failure, true, exitCode(res.Failure)
	case !res.Rejected.IsNull():
		return res.Rejected, true, nil
	case res.Success.IsNull():
		return r, false, nil
	}
	var s struct {
		Content agt.Raw `json:"content"`
		Stdout  *string `json:"stdout"`
		Stderr  string  `json:"stderr"`
	}
	if res.Success[0] == '{' {
		em.Field("success", res.Success, &s)
	}
	switch {
	case s.Stdout != nil:
		text := *s.Stdout
		if s.Stderr != "" {
			text += s.Stderr
		}
		c := exitCode(res.Success)
		return agt.String(text), c != nil && *c != 0, c
	case !s.Content.IsNull():
		return s.Content, false, nil
	}
	return res.Success, false, nil
}

func exitCode(r agt.Raw) *int {
	var e struct {
		ExitCode *int `json:"exitCode"`
	}
	if agt.API.Unmarshal(r, &e) != nil {
		return nil
	}
	return e.ExitCode
}

// result ends a run: a meta event with the line as data, and the run's
// usage when the line has it.
func (p *liveParser) result(em *agt.Emitter, l *line, ts string) {
	data := agt.Compact(em.Line())
	em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: &agt.Meta{Type: "result", Subtype: l.Subtype, Data: data, Outcome: resultOutcome(l)}}, "", "meta")
	if u := l.Usage; u != nil {
		us := &agt.Usage{Scope: agt.ScopeRun, Input: int64(u.Input), CacheRead: int64(u.CacheRead), CacheWrite: int64(u.CacheWrite), Output: int64(u.Output), MessageID: l.RequestID}
		us.Sum()
		em.Emit(agt.Event{TS: ts, Kind: agt.KindUsage, Model: p.model, Usage: us}, "", "usage")
	}
}

// turnEnded is the marker a run ends with when it stops early (a usage
// limit): a system event with its error.
func (p *liveParser) turnEnded(em *agt.Emitter, l *line, ts string) {
	if l.Status == "error" {
		text := l.Error.Str()
		if text == "" {
			text = string(l.Error)
		}
		em.Emit(agt.Event{TS: ts, Kind: agt.KindSystem, Text: agt.String(text), Meta: &agt.Meta{Type: "turn_ended", Subtype: l.Status, Outcome: turnOutcome(l.Status, text)}}, "", "system")
		return
	}
	em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Meta: &agt.Meta{Type: "turn_ended", Subtype: l.Status, Outcome: turnOutcome(l.Status, "")}}, "", "meta")
}
