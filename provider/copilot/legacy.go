package copilot

import (
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/docscan"
)

// The legacy document (~/.copilot/history-session-state/session_<id>_<ms>.json,
// 2025-09/10) holds one conversation twice: chatMessages, the OpenAI-chat
// messages the model saw (no timestamps, often missing the last turn), and
// timeline, the UI's record (timestamped, complete). The timeline gives the
// conversation; a chat message that the timeline already shows is a meta
// event, one it lacks gives its own events. A tool result's output is the
// content the model got (the chat's tool message) when there is one, else
// the timeline's log (a UI rendering, e.g. a diff for a file view).

type chatMessage struct {
	Role       string  `json:"role"`
	Content    agt.Raw `json:"content"`
	ToolCallID string  `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string  `json:"name"`
			Arguments agt.Raw `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

type timelineEntry struct {
	ID        string  `json:"id"`
	Timestamp string  `json:"timestamp"`
	Type      string  `json:"type"`
	Text      agt.Raw `json:"text"`
	CallID    string  `json:"callId"`
	Name      string  `json:"name"`
	ToolTitle string  `json:"toolTitle"`
	Arguments agt.Raw `json:"arguments"`
	Result    *struct {
		Type string  `json:"type"`
		Log  agt.Raw `json:"log"`
	} `json:"result"`
}

// record is one element of chatMessages or timeline.
type record struct {
	ptr  string
	raw  agt.Raw
	err  error
	chat *chatMessage
	tl   *timelineEntry
	resp string // the model response an assistant chat message is part of
}

type legacyDoc struct {
	sessionID, startTime string
	chat, timeline       []record
	err                  *docError
}

type legacyParser struct{}

// Decode reads the whole document, as far as it can be read.
func (legacyParser) Decode(doc []byte) (any, error) {
	d := &legacyDoc{}
	var ferr error // a member of the wrong type
	d.err = members(doc, func(s *docscan.Scanner, key string) (bool, *docError) {
		switch key {
		case "chatMessages":
			return false, elements(s, key, func(ptr string, elem []byte) {
				r := record{ptr: ptr, raw: agt.Compact(elem), chat: &chatMessage{}}
				r.err = agt.Decode(elem, r.chat)
				d.chat = append(d.chat, r)
			})
		case "timeline":
			return false, elements(s, key, func(ptr string, elem []byte) {
				r := record{ptr: ptr, raw: agt.Compact(elem), tl: &timelineEntry{}}
				r.err = agt.Decode(elem, r.tl)
				d.timeline = append(d.timeline, r)
			})
		}
		v, err := value(s, key)
		if err == nil && (key == "sessionId" || key == "startTime") {
			var t string
			if e := agt.DecodeValue(key, v, &t); ferr == nil {
				ferr = e
			}
			if key == "sessionId" {
				d.sessionID = t
			} else {
				d.startTime = t
			}
		}
		return false, err
	})
	return d, ferr
}

// legacyRun is the state of one document's Apply.
type legacyRun struct {
	em        *agt.Emitter
	path      string
	line      int64
	calls     map[string]string // call id → tool_call event id
	shown     map[string]bool   // call ids of the timeline
	users     []string          // user texts of the timeline
	assistant map[string]bool   // assistant texts of the timeline
	output    map[string]agt.Raw
	keys      map[string]bool // timeline ids used as keys
	// the model response of each call id and of each assistant text (in
	// order, a text may repeat), read from chatMessages
	callResp map[string]string
	textResp map[string][]string
}

func (legacyParser) Apply(em *agt.Emitter, v any) {
	d := v.(*legacyDoc)
	src := em.Src()
	run := &legacyRun{em: em, path: src.Path, line: src.Line, calls: map[string]string{}, shown: map[string]bool{},
		assistant: map[string]bool{}, output: map[string]agt.Raw{}, keys: map[string]bool{},
		callResp: map[string]string{}, textResp: map[string][]string{}}
	sid := d.sessionID
	if sid == "" {
		sid = fallbackSession(src.Path)
	}
	em.Session(sid)
	run.at("/sessionId", agt.Marshal(struct {
		SessionID string `json:"sessionId,omitempty"`
		StartTime string `json:"startTime,omitempty"`
	}{d.sessionID, d.startTime}))
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: stamp(d.startTime), Meta: &agt.Meta{Type: "session"}}, "", "meta")
	for _, r := range d.timeline {
		if t := r.tl; t != nil && r.err == nil {
			switch t.Type {
			case "tool_call_completed":
				run.shown[t.CallID] = true
			case "user":
				run.users = append(run.users, str(t.Text))
			case "copilot":
				run.assistant[str(t.Text)] = true
			}
		}
	}
	for _, r := range d.chat {
		if c := r.chat; c != nil && c.Role == "tool" && !c.Content.IsNull() {
			run.output[c.ToolCallID] = c.Content
		}
	}
	run.responses(d.chat)
	for _, r := range d.chat {
		run.chatMessage(r)
	}
	for _, r := range d.timeline {
		run.timelineEntry(r)
	}
	if d.err != nil {
		run.at(d.err.ptr, d.err.frag)
		em.Errorf("%v at %s", d.err.err, ptrName(d.err.ptr))
	}
}

func ptrName(ptr string) string {
	if ptr == "" {
		return "the top level"
	}
	return ptr
}

func (legacyParser) Finish(*agt.Emitter) {}

// at makes the record at ptr the source of the events that follow.
func (run *legacyRun) at(ptr string, raw agt.Raw) {
	run.em.SetSrc(agt.Src{Path: run.path, Line: run.line, Ptr: ptr}, raw)
}

// bad reports a record that cannot be read; true when it is one.
func (run *legacyRun) bad(r record) bool {
	if r.err == nil {
		return false
	}
	run.em.Errorf("%v", r.err)
	return true
}

// responses marks the model responses of chatMessages. The chat writes each
// part of a response (its text, each tool call) as an assistant message of
// its own; a response is a run of assistant messages, and ends where a tool
// result or a user message comes. Its id is the pointer of its first
// message. The timeline's texts and calls take the id of the response whose
// chat messages hold them, so that a response stays one transcript message
// also where the timeline shows it as a bare call after the previous
// response's results.
func (run *legacyRun) responses(chat []record) {
	id := ""
	for i := range chat {
		c := chat[i].chat
		if c == nil || chat[i].err != nil || c.Role != "assistant" {
			id = ""
			continue
		}
		if id == "" {
			id = chat[i].ptr
		}
		chat[i].resp = id
		if t := text(c.Content); t != nil {
			run.textResp[str(t)] = append(run.textResp[str(t)], id)
		}
		for _, tc := range c.ToolCalls {
			if tc.ID != "" {
				run.callResp[tc.ID] = id
			}
		}
	}
}

// textResponse is the response of the next timeline text t, "" when the
// chat does not hold it.
func (run *legacyRun) textResponse(t string) string {
	ids := run.textResp[t]
	if len(ids) == 0 {
		return ""
	}
	run.textResp[t] = ids[1:]
	return ids[0]
}

func (run *legacyRun) chatMessage(r record) {
	run.at(r.ptr, r.raw)
	if run.bad(r) {
		return
	}
	c, em := r.chat, run.em
	covered := &agt.Meta{Type: "chatMessage", Subtype: c.Role}
	n := 0
	switch c.Role {
	case "user":
		if t := text(c.Content); t != nil && !run.userShown(str(t)) {
			em.Emit(agt.Event{Kind: agt.KindUser, Text: t}, "", "text")
			n++
		}
	case "system":
		if t := text(c.Content); t != nil {
			em.Emit(agt.Event{Kind: agt.KindSystem, Text: t}, "", "text")
			n++
		}
	case "assistant":
		if t := text(c.Content); t != nil && !run.assistant[str(t)] {
			em.Emit(agt.Event{Kind: agt.KindAssistant, Text: t, MessageID: r.resp}, "", "text")
			n++
		}
		for _, tc := range c.ToolCalls {
			if run.shown[tc.ID] {
				continue
			}
			in := agt.ToolArgs(tc.Function.Arguments)
			name := tc.Function.Name
			run.calls[tc.ID] = em.Emit(agt.Event{Kind: agt.KindToolCall, MessageID: r.resp,
				Tool: &agt.Tool{ID: tc.ID, Name: name, NativeName: name, Input: in, NativeInput: in}}, "", "tool:"+tc.ID)
			n++
		}
	case "tool":
		if !run.shown[c.ToolCallID] {
			em.Emit(agt.Event{Kind: agt.KindToolResult, Result: &agt.Result{ID: c.ToolCallID, Call: run.calls[c.ToolCallID],
				Output: c.Content, ExitCode: shellExit(c.Content)}}, "", "result")
			n++
		}
	default:
		em.Unknown("", "", "chatMessage/"+c.Role)
		return
	}
	if n == 0 {
		em.Emit(agt.Event{Kind: agt.KindMeta, Meta: covered}, "", "meta")
	}
}

// userShown reports whether the timeline shows the user text t (the chat
// message may carry the context the CLI appended to it).
func (run *legacyRun) userShown(t string) bool {
	for _, u := range run.users {
		if u != "" && strings.HasPrefix(t, u) {
			return true
		}
	}
	return false
}

var timelineKinds = map[string]string{
	"user":    agt.KindUser,
	"copilot": agt.KindAssistant,
}

func (run *legacyRun) timelineEntry(r record) {
	run.at(r.ptr, r.raw)
	if run.bad(r) {
		return
	}
	t, em := r.tl, run.em
	key := t.ID // "" (the pointer) when missing or repeated
	if run.keys[key] {
		key = ""
	}
	run.keys[key] = true
	ts := stamp(t.Timestamp)
	if kind, ok := timelineKinds[t.Type]; ok {
		if tx := text(t.Text); tx != nil {
			ev := agt.Event{Kind: kind, TS: ts, Text: tx}
			if kind == agt.KindAssistant {
				ev.MessageID = run.textResponse(str(tx))
			}
			em.Emit(ev, key, "text")
			return
		}
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: ts, Meta: &agt.Meta{Type: t.Type}}, key, "meta")
		return
	}
	switch t.Type {
	case "info":
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: ts, Meta: &agt.Meta{Type: "info", Data: text(t.Text)}}, key, "meta")
	case "tool_call_completed":
		in := agt.ToolArgs(t.Arguments)
		call := em.Emit(agt.Event{Kind: agt.KindToolCall, TS: ts, MessageID: run.callResp[t.CallID],
			Tool: &agt.Tool{ID: t.CallID, Name: t.Name, NativeName: t.Name, Input: in, NativeInput: in}}, key, "tool:"+t.CallID)
		res := &agt.Result{ID: t.CallID, Call: call}
		if out, ok := run.output[t.CallID]; ok {
			res.Output = out
		} else if t.Result != nil {
			res.Output = t.Result.Log
		}
		res.ExitCode = shellExit(res.Output)
		if t.Result != nil {
			res.IsError = t.Result.Type != "" && t.Result.Type != "success"
		}
		if res.ExitCode != nil && *res.ExitCode != 0 {
			res.IsError = true
		}
		em.Emit(agt.Event{Kind: agt.KindToolResult, TS: ts, Result: res}, key, "result")
	default:
		em.Unknown("", "", "timeline/"+t.Type)
	}
}
