package amp

import (
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
)

// The thread document (`amp threads export`, older on-disk threads):
//
//   - The thread is a meta event (title, cwd from the first workspace tree,
//     client version; agent mode and version in data) at its creation time,
//     and names the session (its id, as the stream's session_id does).
//   - A user message's text blocks are user events at meta.sentAt; its
//     tool_result blocks are tool results: run.result is the output (the
//     object the stream stringifies), run.exitCode the exit code; a run
//     whose status is not "done", or a non-zero exit code, is an error.
//   - An assistant message's thinking blocks with text are reasoning events
//     (the encrypted reasoning alone is not kept), text blocks assistant
//     events, tool_use blocks tool calls; its usage is one call's usage at
//     usage.timestamp, with the model: inputTokens excludes the cache
//     counts (totalInputTokens is their sum), maxInputTokens is the context
//     window. The message id is protocolMessageID.
//   - Each message's events point into the document (/messages/N).

// thread is the document, its messages kept raw to be read one by one.
type thread struct {
	V         *int64 `json:"v"`
	ID        string `json:"id"`
	Title     string `json:"title"`
	Created   int64  `json:"created"`
	AgentMode string `json:"agentMode"`
	Env       *struct {
		Initial *struct {
			Trees []struct {
				URI string `json:"uri"`
			} `json:"trees"`
			Platform *struct {
				Client        string `json:"client"`
				ClientVersion string `json:"clientVersion"`
			} `json:"platform"`
		} `json:"initial"`
	} `json:"env"`
	Messages []agt.Raw `json:"messages"`
}

// threadMessage is one message of a thread.
type threadMessage struct {
	Role       string `json:"role"`
	MessageID  *int64 `json:"messageId"`
	ProtocolID string `json:"protocolMessageID"`
	Meta       *struct {
		SentAt int64 `json:"sentAt"`
	} `json:"meta"`
	State *struct {
		Type       string `json:"type"`
		StopReason string `json:"stopReason"`
	} `json:"state"`
	Usage   *threadUsage  `json:"usage"`
	Content []threadBlock `json:"content"`
}

// threadBlock is a content block of a thread message: a tool result's
// members are the thread's.
type threadBlock struct {
	part
	ToolUseID string `json:"toolUseID"`
	Run       *struct {
		Status string  `json:"status"`
		Result agt.Raw `json:"result"`
	} `json:"run"`
}

// result is a tool_result block's result: run.result is the output, a run
// whose status is not "done" an error.
func (b *threadBlock) result() *agt.Result {
	if r := b.Run; r != nil {
		return toolResult(b.ToolUseID, r.Result, r.Status != "done", exitCode(r.Result))
	}
	return &agt.Result{ID: b.ToolUseID}
}

// threadUsage is an assistant message's usage.
type threadUsage struct {
	Model      string    `json:"model"`
	Timestamp  string    `json:"timestamp"`
	Input      agt.Count `json:"inputTokens"`
	Output     agt.Count `json:"outputTokens"`
	CacheRead  agt.Count `json:"cacheReadInputTokens"`
	CacheWrite agt.Count `json:"cacheCreationInputTokens"`
	MaxInput   agt.Count `json:"maxInputTokens"`
}

// threadParser reads one thread document.
type threadParser struct {
	raw   bool
	calls calls
}

// threadValue is a decoded document: the thread and its messages.
type threadValue struct {
	t    *thread
	msgs []*threadMessage
	errs []error
}

// Decode reads the document and each of its messages; a message that
// cannot be read is an error event at its place.
func (*threadParser) Decode(rec []byte) (any, error) {
	t := &thread{}
	err := agt.Decode(rec, t)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	v := &threadValue{t: t, msgs: make([]*threadMessage, len(t.Messages)), errs: make([]error, len(t.Messages))}
	for i, raw := range t.Messages {
		m := &threadMessage{}
		if e := agt.Decode(raw, m); e != nil {
			v.errs[i] = e
			if !agt.IsFieldError(e) {
				continue
			}
		}
		v.msgs[i] = m
	}
	return v, err
}

// Apply emits the thread's events, message by message.
func (p *threadParser) Apply(em *agt.Emitter, v any) {
	tv := v.(*threadValue)
	t := tv.t
	p.calls = calls{}
	if t.ID != "" {
		em.Session(t.ID)
	} else {
		em.Session(em.Fallback())
	}
	base, line := em.Src(), em.Line()
	m := &agt.Meta{Type: "thread", Title: t.Title}
	if e := t.Env; e != nil && e.Initial != nil {
		if len(e.Initial.Trees) > 0 {
			m.Cwd = strings.TrimPrefix(e.Initial.Trees[0].URI, "file://")
		}
		if pl := e.Initial.Platform; pl != nil {
			m.Version = pl.ClientVersion
		}
	}
	m.Data = agt.Marshal(struct {
		V         *int64 `json:"v,omitempty"`
		AgentMode string `json:"agent_mode,omitempty"`
	}{t.V, t.AgentMode})
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: msTime(t.Created), Meta: m}, t.ID, "thread")
	for i, msg := range tv.msgs {
		ptr := "/messages/" + strconv.Itoa(i)
		raw := agt.Raw(nil)
		if p.raw || tv.errs[i] != nil || (msg != nil && msg.Role != "user" && msg.Role != "assistant") {
			raw = t.Messages[i] // kept whole where the event cannot say it all
		}
		em.SetSrc(agt.Src{Path: base.Path, Line: base.Line, Ptr: ptr}, raw)
		if tv.errs[i] != nil {
			em.Errorf("%v", tv.errs[i])
		}
		if msg == nil {
			continue
		}
		n := em.Count()
		switch msg.Role {
		case "user":
			p.user(em, msg)
		case "assistant":
			p.assistant(em, msg)
		default:
			em.Unknown("", "", msg.Role)
			continue
		}
		if em.Count() == n {
			em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "message", Subtype: msg.Role}}, "", "meta")
		}
	}
	em.SetSrc(base, line)
}

// Finish emits nothing: a document is read whole.
func (*threadParser) Finish(*agt.Emitter) {}

func (p *threadParser) user(em *agt.Emitter, m *threadMessage) {
	ts := ""
	if m.Meta != nil {
		ts = msTime(m.Meta.SentAt)
	}
	for i := range m.Content {
		b := &m.Content[i]
		userBlock(em, p.calls, agt.Event{TS: ts}, &b.part, b.result, i)
	}
}

func (p *threadParser) assistant(em *agt.Emitter, m *threadMessage) {
	ev := agt.Event{MessageID: m.ProtocolID}
	if ev.MessageID == "" && m.MessageID != nil {
		ev.MessageID = strconv.FormatInt(*m.MessageID, 10)
	}
	if u := m.Usage; u != nil {
		ev.Model, ev.TS = u.Model, agt.Timestamp(u.Timestamp)
	}
	for i := range m.Content {
		b := &m.Content[i]
		if b.Type == "text" && text(b.Text) == nil || b.Type == "thinking" && text(b.Thinking) == nil {
			continue // no event for a text without text, nor for the encrypted reasoning alone
		}
		assistantBlock(em, p.calls, ev, &b.part, i)
	}
	if u := m.Usage; u != nil {
		c := (&usage{Input: u.Input, CacheWrite: u.CacheWrite, CacheRead: u.CacheRead, Output: u.Output, MaxTokens: u.MaxInput}).call()
		c.MessageID = ev.MessageID
		em.Emit(agt.Event{Kind: agt.KindUsage, TS: ev.TS, Model: ev.Model, MessageID: ev.MessageID, Usage: c}, "", "usage")
	}
}

// msTime is a time in epoch milliseconds ("" for none).
func msTime(ms int64) string {
	if ms <= 0 {
		return ""
	}
	return agt.FormatTime(time.UnixMilli(ms))
}
