package goose

import (
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
)

// parser reads the rows of one database or the lines of one session file.
type parser struct {
	jsonl bool
	sid   string            // the session of a session file
	calls map[string]string // tool request id → event id of the call, current session
}

// rowLine is one row line of a database.
type rowLine struct {
	Goose  string  `json:"goose"`
	Row    agt.Raw `json:"row"`
	Ledger agt.Raw `json:"ledger"`
}

// session is a sessions row, or a session file's metadata line.
type session struct {
	ID              string     `json:"id"`
	Name            string     `json:"name"`
	Description     string     `json:"description"`
	SessionType     string     `json:"session_type"`
	WorkingDir      string     `json:"working_dir"`
	CreatedAt       string     `json:"created_at"`
	UpdatedAt       string     `json:"updated_at"`
	MessageCount    *int64     `json:"message_count"`
	TotalTokens     *agt.Count `json:"total_tokens"`
	InputTokens     *agt.Count `json:"input_tokens"`
	OutputTokens    *agt.Count `json:"output_tokens"`
	AccTotalTokens  *agt.Count `json:"accumulated_total_tokens"`
	AccInputTokens  *agt.Count `json:"accumulated_input_tokens"`
	AccOutputTokens *agt.Count `json:"accumulated_output_tokens"`
	AccCacheRead    *agt.Count `json:"accumulated_cache_read_tokens"`
	AccCacheWrite   *agt.Count `json:"accumulated_cache_write_tokens"`
	AccCost         *float64   `json:"accumulated_cost"`
	ProviderName    *string    `json:"provider_name"`
	ModelConfig     *string    `json:"model_config_json"`
	ParentSessionID *string    `json:"parent_session_id"`
	ScheduleID      *string    `json:"schedule_id"`
	GooseMode       string     `json:"goose_mode"`
	ProjectID       *string    `json:"project_id"`

	ledger *ledger // the sums of its ledger rows, nil without a ledger
}

// ledger is a usage_ledger row (one model call, or a catch-up of what the
// session spent before its ledger began: cost_source carried_forward), or
// the sums of a session's rows.
type ledger struct {
	ID         agt.Raw    `json:"id"`
	SessionID  string     `json:"session_id"`
	Rows       int64      `json:"rows"`
	Created    *int64     `json:"created_timestamp"`
	Model      *string    `json:"model"`
	Input      *agt.Count `json:"input_tokens"`
	Output     *agt.Count `json:"output_tokens"`
	CacheRead  *agt.Count `json:"cache_read_tokens"`
	CacheWrite *agt.Count `json:"cache_write_tokens"`
	Cost       *float64   `json:"cost"`
	CostSource *string    `json:"cost_source"`
	Compaction *int64     `json:"is_compaction"`
}

// message is a messages row, or a message line of a session file.
type message struct {
	ID        agt.Raw `json:"id"` // the row's number, or a file message's id
	MessageID *string `json:"message_id"`
	SessionID string  `json:"session_id"`
	Role      string  `json:"role"`
	Content   agt.Raw `json:"content"`      // a session file's content
	JSON      *string `json:"content_json"` // a row's content, as JSON text
	Created   *int64  `json:"created_timestamp"`
	CreatedF  *int64  `json:"created"`
}

// block is one content block, all types' members together.
type block struct {
	Type       string  `json:"type"`
	Text       *string `json:"text"`
	Thinking   *string `json:"thinking"`
	ID         string  `json:"id"`
	ToolCall   *result `json:"toolCall"`
	ToolResult *result `json:"toolResult"`
	Message    *string `json:"message"` // an error block's
	ErrKind    string  `json:"kind"`
	Meta       *struct {
		Extension string `json:"goose_extension"`
	} `json:"_meta"`
}

// result is Goose's Result: {status: success, value} or {status: error,
// error}.
type result struct {
	Status string  `json:"status"`
	Value  agt.Raw `json:"value"`
	Error  agt.Raw `json:"error"`
}

// Decode reads one line: a row of a database, or a line of a session file
// (its metadata or a message).
func (p *parser) Decode(b []byte) (any, error) {
	if p.jsonl {
		var probe struct {
			Role *string `json:"role"`
		}
		if err := agt.Decode(b, &probe); err != nil && !agt.IsFieldError(err) {
			return nil, err
		}
		if probe.Role != nil {
			m := &message{}
			return m, agt.Decode(b, m)
		}
		s := &session{}
		return s, agt.Decode(b, s)
	}
	var l rowLine
	if err := agt.Decode(b, &l); err != nil {
		return nil, err
	}
	switch l.Goose {
	case "session":
		s := &session{}
		if len(l.Ledger) > 0 {
			s.ledger = &ledger{}
			if err := agt.Decode(l.Ledger, s.ledger); err != nil {
				return nil, err
			}
		}
		return s, agt.Decode(l.Row, s)
	case "usage":
		u := &ledger{}
		return u, agt.Decode(l.Row, u)
	case "message":
		m := &message{}
		return m, agt.Decode(l.Row, m)
	}
	return l, nil
}

// Apply emits the events of a session or a message.
func (p *parser) Apply(em *agt.Emitter, v any) {
	switch r := v.(type) {
	case *session:
		id := r.ID
		if p.jsonl {
			id = p.fileSession(em)
		} else {
			em.SetSrc(agt.Src{Path: em.Src().Path, Ptr: "/sessions/" + escape(id)}, em.Line())
		}
		em.Session(id)
		p.calls = map[string]string{}
		p.session(em, r)
	case *message:
		if p.jsonl {
			if em.Current() == "" {
				em.Session(p.fileSession(em))
			}
		} else {
			em.SetSrc(agt.Src{Path: em.Src().Path, Ptr: "/messages/" + escape(string(r.ID))}, em.Line())
			if r.SessionID != em.Current() {
				em.Session(r.SessionID)
				p.calls = map[string]string{}
			}
		}
		p.message(em, r)
	case *ledger:
		em.SetSrc(agt.Src{Path: em.Src().Path, Ptr: "/usage_ledger/" + escape(string(r.ID))}, em.Line())
		if r.SessionID != "" && r.SessionID != em.Current() { // a row of no session row
			em.Session(r.SessionID)
			p.calls = map[string]string{}
		}
		em.Emit(agt.Event{TS: unix(r.Created), Kind: agt.KindUsage, Model: str(r.Model), Usage: r.usage()}, "", "usage")
	default:
		em.Unknown("", "", "row")
	}
}

// Finish has nothing held back.
func (*parser) Finish(*agt.Emitter) {}

// fileSession is the session of a session file: its name.
func (p *parser) fileSession(em *agt.Emitter) string {
	if p.sid == "" {
		p.sid = strings.TrimSuffix(filepath.Base(em.Src().Path), ".jsonl")
	}
	return p.sid
}

// session emits a session's meta event and its usage.
func (p *parser) session(em *agt.Emitter, s *session) {
	ts := sqlTime(s.CreatedAt)
	m := &agt.Meta{Type: "session", Subtype: s.SessionType, Cwd: s.WorkingDir, Title: s.Name,
		Data: agt.Marshal(map[string]any{
			"description": s.Description, "updated_at": s.UpdatedAt, "provider": s.ProviderName,
			"message_count": s.MessageCount, "total_tokens": s.TotalTokens, "input_tokens": s.InputTokens,
			"output_tokens": s.OutputTokens, "accumulated_total_tokens": s.AccTotalTokens,
			"schedule_id": s.ScheduleID, "goose_mode": s.GooseMode, "project_id": s.ProjectID,
		})}
	if m.Title == "" {
		m.Title = s.Description
	}
	if s.ParentSessionID != nil {
		m.ParentSession = *s.ParentSessionID
	}
	model := modelName(em, s.ModelConfig)
	em.Emit(agt.Event{TS: ts, Kind: agt.KindMeta, Model: model, Meta: m}, "", "session")
	if u := s.usage(); u != nil {
		em.Emit(agt.Event{TS: ts, Kind: agt.KindUsage, Model: model, Usage: u}, "", "usage")
	}
}

// usage is what the session spent beyond its ledger rows (scope run):
// the accumulated columns (the plain ones where a database or file has
// none), less the sums of its ledger rows where it has some, as Goose
// takes the larger of the two for its totals; nil when nothing is left.
func (s *session) usage() *agt.Usage {
	in, out := s.AccInputTokens, s.AccOutputTokens
	if in == nil && out == nil {
		in, out = s.InputTokens, s.OutputTokens
	}
	t := ledger{Input: in, Output: out, CacheRead: s.AccCacheRead, CacheWrite: s.AccCacheWrite, Cost: s.AccCost}
	u := t.usage()
	u.Scope = agt.ScopeRun
	if l := s.ledger; l != nil && l.Rows > 0 {
		spent := l.usage()
		left := func(acc, sum int64) int64 {
			if agt.BadFigure(acc) || agt.BadFigure(sum) {
				return min(acc, sum) // a bad count stays bad: the usage is refused
			}
			return max(acc-sum, 0)
		}
		u.Input = left(u.Input, spent.Input)
		u.Output = left(u.Output, spent.Output)
		u.CacheRead = left(u.CacheRead, spent.CacheRead)
		u.CacheWrite = left(u.CacheWrite, spent.CacheWrite)
		u.Sum()
		if u.NativeCostUSD != nil {
			c := *u.NativeCostUSD
			if spent.NativeCostUSD != nil {
				c -= *spent.NativeCostUSD
			}
			u.NativeCostUSD = nil
			if c > 1e-9 {
				u.NativeCostUSD = &c
			}
		}
	}
	if u.Total == 0 && u.NativeCostUSD == nil {
		return nil
	}
	return u
}

// usage is a ledger row's usage: a call's (scope call), or a catch-up's
// (scope run). Goose's input counts the whole prompt, the cache reads and
// writes in it (its readers add them for Anthropic; OpenAI's prompt
// tokens hold them): agt's input is what is left.
func (l *ledger) usage() *agt.Usage {
	u := &agt.Usage{Scope: agt.ScopeCall, CacheRead: count(l.CacheRead), CacheWrite: count(l.CacheWrite), Output: count(l.Output)}
	if l.CostSource != nil && *l.CostSource == "carried_forward" {
		u.Scope = agt.ScopeRun
	}
	u.Input = agt.Uncached(cnt(l.Input), cnt(l.CacheRead), cnt(l.CacheWrite))
	u.Sum()
	if l.Cost != nil {
		c := *l.Cost
		u.NativeCostUSD = &c
	}
	return u
}

// cnt is a column's count, 0 when it is NULL.
func cnt(c *agt.Count) agt.Count {
	if c == nil {
		return 0
	}
	return *c
}

func count(c *agt.Count) int64 {
	if c == nil {
		return 0
	}
	return int64(*c)
}

// modelName is the model of a session's model_config_json.
func modelName(em *agt.Emitter, cfg *string) string {
	if cfg == nil {
		return ""
	}
	var m struct {
		Name string `json:"model_name"`
	}
	em.Field("model_config_json", agt.Raw(*cfg), &m)
	return m.Name
}

// roleKinds maps a message's role to the kind of its text blocks.
var roleKinds = map[string]string{"user": agt.KindUser, "assistant": agt.KindAssistant}

// message emits the blocks of a message.
func (p *parser) message(em *agt.Emitter, m *message) {
	kind := roleKinds[m.Role]
	content := m.Content
	if m.JSON != nil {
		content = agt.Raw(*m.JSON)
	}
	var blocks []agt.Raw
	if kind == "" || agt.API.Unmarshal(content, &blocks) != nil {
		em.Unknown("", "", "message role "+m.Role)
		return
	}
	base := agt.Event{TS: unix(m.Created, m.CreatedF)}
	if m.Role == "assistant" {
		if m.MessageID != nil {
			base.MessageID = *m.MessageID
		} else if len(m.ID) > 0 && m.ID[0] == '"' {
			base.MessageID = m.ID.Str()
		}
	}
	for i, raw := range blocks {
		var b block
		suffix := "b" + strconv.Itoa(i)
		if err := agt.Decode(raw, &b); err != nil && !agt.IsFieldError(err) {
			em.Errorf("content block %d: %v", i, err)
			continue
		}
		c := blockCtx{p: p, em: em, base: base, kind: kind, suffix: suffix}
		if h := blockTypes[b.Type]; h != nil {
			h(&c, &b)
			continue
		}
		ev := base
		ev.Kind, ev.Meta = agt.KindUnknown, &agt.Meta{Type: "block " + b.Type}
		em.Emit(ev, "", suffix)
	}
}

// blockCtx is what a block handler needs of its message.
type blockCtx struct {
	p      *parser
	em     *agt.Emitter
	base   agt.Event
	kind   string
	suffix string
}

func (c *blockCtx) emit(ev agt.Event) string {
	ev.TS, ev.MessageID = c.base.TS, c.base.MessageID
	if ev.Kind == agt.KindToolResult {
		ev.MessageID = ""
	}
	return c.em.Emit(ev, "", c.suffix)
}

// blockTypes are the content block types, by the value of "type".
var blockTypes = map[string]func(c *blockCtx, b *block){
	"text": func(c *blockCtx, b *block) {
		c.emit(agt.Event{Kind: c.kind, Text: agt.String(str(b.Text))})
	},
	"thinking": func(c *blockCtx, b *block) {
		c.emit(agt.Event{Kind: agt.KindReasoning, Text: agt.String(str(b.Thinking))})
	},
	"redactedThinking": func(c *blockCtx, b *block) {
		c.emit(agt.Event{Kind: agt.KindReasoning, Meta: &agt.Meta{Type: "redacted_thinking"}})
	},
	"error": func(c *blockCtx, b *block) { // an error Goose reports: {kind, message}
		c.emit(agt.Event{Kind: agt.KindSystem, Text: agt.String(str(b.Message)), Meta: &agt.Meta{Type: "error", Subtype: b.ErrKind,
			Outcome: &agt.Outcome{Status: agt.OutcomeError, Reason: str(b.Message)}}})
	},
	"toolRequest":             toolRequest,
	"frontendToolRequest":     toolRequest,
	"toolResponse":            toolResponse,
	"image":                   meta,
	"toolConfirmationRequest": meta,
	"contextLengthExceeded":   meta,
	"summarizationRequested":  meta,
	"systemNotification":      meta,
	"actionRequired":          meta,
	"conversationCompacted":   meta,
}

func meta(c *blockCtx, b *block) {
	c.emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: b.Type}})
}

// call is a tool call's value.
type call struct {
	Name      string  `json:"name"`
	Arguments agt.Raw `json:"arguments"`
}

// toolRequest is a tool call; a request Goose could not parse (status
// error) is an error event.
func toolRequest(c *blockCtx, b *block) {
	var v call
	if b.ToolCall == nil || b.ToolCall.Status != "success" || agt.Decode(b.ToolCall.Value, &v) != nil || v.Name == "" {
		msg := "tool request without a call"
		if b.ToolCall != nil && len(b.ToolCall.Error) > 0 {
			msg = "tool request failed: " + errText(b.ToolCall.Error)
		}
		c.emit(agt.Event{Kind: agt.KindSystem, Text: agt.String(msg), Meta: &agt.Meta{Type: b.Type}})
		return
	}
	in := agt.ToolArgs(v.Arguments)
	name := v.Name
	if b.Meta != nil && b.Meta.Extension != "" && b.Meta.Extension != "developer" && !strings.Contains(name, "__") {
		name = b.Meta.Extension + "__" + name // an extension's tool named alone
	}
	id := c.emit(agt.Event{Kind: agt.KindToolCall, Tool: &agt.Tool{ID: b.ID, Name: name, NativeName: name, Input: in, NativeInput: in}})
	if b.ID != "" {
		c.p.calls[b.ID] = id
	}
}

// toolResponse is a tool's result: the text of its content
// ({content, isError}, earlier the content array alone), or the error.
func toolResponse(c *blockCtx, b *block) {
	r := &agt.Result{ID: b.ID, Call: c.p.calls[b.ID]}
	switch {
	case b.ToolResult == nil:
		r.Output, r.IsError = agt.String("(no result)"), true
	case b.ToolResult.Status != "success":
		r.Output, r.IsError = agt.String(errText(b.ToolResult.Error)), true
	default:
		var v struct {
			Content agt.Raw `json:"content"`
			IsError bool    `json:"isError"`
		}
		val := b.ToolResult.Value
		if len(val) > 0 && val[0] == '[' {
			v.Content = val
		} else {
			c.em.Field("value", val, &v)
		}
		r.Output, r.IsError = contentText(v.Content), v.IsError
	}
	c.emit(agt.Event{Kind: agt.KindToolResult, Result: r})
}

// contentText joins the text items of MCP content; content of other
// items stays as it is.
func contentText(r agt.Raw) agt.Raw {
	var items []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	if agt.API.Unmarshal(r, &items) != nil {
		return r
	}
	var parts []string
	for _, it := range items {
		if it.Type != "text" || it.Text == nil {
			return r
		}
		parts = append(parts, *it.Text)
	}
	return agt.String(strings.Join(parts, "\n"))
}

// errText is the text of an error value: a string, or an object's message.
func errText(r agt.Raw) string {
	if s := r.Str(); s != "" {
		return s
	}
	var e struct {
		Message string `json:"message"`
	}
	if agt.API.Unmarshal(r, &e) == nil && e.Message != "" {
		return e.Message
	}
	return string(r)
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// unix is a time in Unix seconds, "" when absent.
func unix(vs ...*int64) string {
	for _, v := range vs {
		if v != nil && *v > 0 && *v < 1e11 {
			return agt.FormatTime(time.Unix(*v, 0))
		}
	}
	return ""
}

// sqlTime reads SQLite's CURRENT_TIMESTAMP text (UTC) or an RFC 3339 time.
func sqlTime(s string) string {
	for _, layout := range []string{"2006-01-02 15:04:05", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return agt.FormatTime(t)
		}
	}
	return ""
}

// escape makes an id one JSON pointer token.
func escape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
