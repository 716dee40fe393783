package continuedev

import (
	"strconv"

	"github.com/agt-project/agt"
)

// session is a session document.
type session struct {
	SessionID          string    `json:"sessionId"`
	Title              string    `json:"title"`
	WorkspaceDirectory string    `json:"workspaceDirectory"`
	History            []agt.Raw `json:"history"`
}

// item is one history item.
type item struct {
	Message *struct {
		ID         string  `json:"id"`
		Role       string  `json:"role"`
		Content    agt.Raw `json:"content"`
		ToolCallID string  `json:"toolCallId"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"toolCalls"`
	} `json:"message"`
	PromptLogs []struct {
		ModelTitle        string `json:"modelTitle"`
		CompletionOptions struct {
			Model string `json:"model"`
		} `json:"completionOptions"`
	} `json:"promptLogs"`
	ToolCallState *struct {
		ToolCallID string  `json:"toolCallId"`
		Status     string  `json:"status"`
		Output     agt.Raw `json:"output"`
	} `json:"toolCallState"`
}

// part is an element of an array content.
type part struct {
	Type string  `json:"type"`
	Text *string `json:"text"`
}

// sessionParser reads a session document.
type sessionParser struct {
	calls map[string]string
}

// Decode reads the document.
func (p *sessionParser) Decode(rec []byte) (any, error) {
	s := &session{}
	if err := agt.Decode(rec, s); err != nil {
		return nil, err
	}
	return s, nil
}

// Apply emits the session's meta event and the events of its items.
func (p *sessionParser) Apply(em *agt.Emitter, v any) {
	s, ok := v.(*session)
	if !ok {
		return
	}
	path, raw := em.Src().Path, em.Line()
	sid := s.SessionID
	if sid == "" {
		sid = em.Fallback()
	}
	em.Session(sid)
	em.SetSrc(agt.Src{Path: path, Ptr: "/sessionId"}, nil)
	em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "session", Title: s.Title, Cwd: s.WorkspaceDirectory}}, "session", "meta")
	if x, idx, ok := lookup(path, s.SessionID); ok {
		// the index beside the file: when the session was created
		em.SetSrc(agt.Src{Path: idx, Ptr: x.ptr}, x.raw)
		em.Emit(agt.Event{TS: msTime(x.e.DateCreated), Kind: agt.KindMeta,
			Meta: &agt.Meta{Type: "session_index", Title: x.e.Title, Cwd: x.e.WorkspaceDirectory}}, "index", "meta")
	}
	for i, h := range s.History {
		em.SetSrc(agt.Src{Path: path, Ptr: "/history/" + strconv.Itoa(i)}, h)
		var it item
		if err := agt.Decode(h, &it); err != nil || it.Message == nil {
			if err != nil {
				em.Errorf("%v", err)
			} else {
				em.Unknown("", "", "history item")
			}
			continue
		}
		p.item(em, &it, "h"+strconv.Itoa(i))
	}
	em.SetSrc(agt.Src{Path: path}, raw)
}

// Finish has nothing held back.
func (p *sessionParser) Finish(*agt.Emitter) {}

// texts returns the text parts of a content (a string, or an array of
// parts) and the number of other parts.
func texts(em *agt.Emitter, c agt.Raw) (out []agt.Raw, other int) {
	switch {
	case len(c) == 0 || c.IsNull():
	case c[0] == '"':
		out = append(out, c)
	case c[0] == '[':
		var parts []part
		em.Field("content", c, &parts)
		for _, pt := range parts {
			if pt.Text != nil {
				out = append(out, agt.String(*pt.Text))
			} else {
				other++
			}
		}
	default:
		other++
	}
	return out, other
}

func (p *sessionParser) item(em *agt.Emitter, it *item, k string) {
	m := it.Message
	key := m.ID
	if key == "" {
		key = k
	}
	n := em.Count()
	ts, other := texts(em, m.Content)
	switch m.Role {
	case "user":
		for i, t := range ts {
			em.Emit(agt.Event{Kind: agt.KindUser, Text: t}, key, "t"+strconv.Itoa(i))
		}
		if other > 0 {
			em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "image"}}, key, "other")
		}
	case "assistant", "thinking":
		model := ""
		if l := len(it.PromptLogs); l > 0 {
			model = it.PromptLogs[l-1].CompletionOptions.Model
			if model == "" {
				model = it.PromptLogs[l-1].ModelTitle
			}
		}
		kind := agt.KindAssistant
		if m.Role == "thinking" {
			kind = agt.KindReasoning
		}
		for i, t := range ts {
			if string(t) != `""` {
				em.Emit(agt.Event{Kind: kind, Model: model, MessageID: m.ID, Text: t}, key, "t"+strconv.Itoa(i))
			}
		}
		for i, tc := range m.ToolCalls {
			in := agt.ToolArgs(agt.String(tc.Function.Arguments))
			p.calls[tc.ID] = em.Emit(agt.Event{Kind: agt.KindToolCall, Model: model, MessageID: m.ID,
				Tool: &agt.Tool{ID: tc.ID, Name: tc.Function.Name, NativeName: tc.Function.Name, Input: in, NativeInput: in}}, key, "c"+strconv.Itoa(i))
		}
		if st := it.ToolCallState; st != nil && !st.Output.IsNull() {
			em.Emit(agt.Event{Kind: agt.KindToolResult, Result: &agt.Result{ID: st.ToolCallID, Call: p.calls[st.ToolCallID],
				Output: st.Output, IsError: st.Status == "errored" || st.Status == "canceled"}}, key, "state")
		}
	case "tool":
		out := m.Content
		if out.IsNull() {
			out = agt.String("")
		}
		em.Emit(agt.Event{Kind: agt.KindToolResult, Result: &agt.Result{ID: m.ToolCallID, Call: p.calls[m.ToolCallID], Output: out}}, key, "result")
	case "system":
		for i, t := range ts {
			em.Emit(agt.Event{Kind: agt.KindSystem, Text: t}, key, "t"+strconv.Itoa(i))
		}
	default:
		em.Unknown("", "", "role:"+m.Role)
		return
	}
	if em.Count() == n {
		em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "message", Subtype: m.Role}}, key, "meta")
	}
}
