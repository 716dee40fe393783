package copilot

import (
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
)

// The chat sessions of Copilot Chat in VS Code (chatSessions/ in a
// workspace's storage folder, and the files `Chat: Export Session`
// writes), version 3 of VS Code's serialized chat model:
//
//   - copilot-vscode: one session document {version, sessionId,
//     creationDate, customTitle, requesterUsername, responderUsername,
//     initialLocation, requests[]};
//   - copilot-vscode-log: the same model as a log of changes VS Code
//     appends to (…/chatSessions/<id>.jsonl since 1.10x): {kind: 0, v:
//     the whole model}, {kind: 1, k: path, v: value} setting a member,
//     {kind: 2, k: path, v: [items], i?: index} appending to a list (cut
//     at i first). The log is replayed; each line is a meta event (patch),
//     and at its end the requests are read as in a document, their events
//     pointing at the line that added each.
//
// A request {requestId, message.text, timestamp (Unix ms), modelId
// (copilot/<model>), response[] (what the panel showed), result {timings,
// errorDetails, metadata {toolCallRounds, toolCallResults}}, isCanceled}
// is read as:
//
//   - a user event, its message's text, at its timestamp;
//   - per tool-call round of result.metadata.toolCallRounds (one model
//     call each: {id, response, toolCalls[{id, name, arguments}]}): an
//     assistant event (its response text) and a tool call per call, the
//     arguments (JSON text) its input, the round's id its message id;
//     a result in toolCallResults (by call id) is the call's tool result;
//   - without rounds (plain chat, earlier versions): one assistant event,
//     the text of the response's markdown parts, and a tool call per
//     toolInvocationSerialized part (its toolId, no input: the panel keeps
//     none), with the response's id;
//   - errorDetails is a system event with outcome error, isCanceled a
//     meta event with outcome interrupted.
//
// The replies are placed at the request's time plus result.timings.
// totalElapsed. The model is modelId without its vendor ("copilot/").
// VS Code keeps no token counts in these files: there are no usage events.

// vsSession is a session document (or the model a log builds).
type vsSession struct {
	Version   *int64    `json:"version"`
	SessionID string    `json:"sessionId"`
	Created   int64     `json:"creationDate"`
	Title     *string   `json:"customTitle"`
	Requester string    `json:"requesterUsername"`
	Location  string    `json:"initialLocation"`
	Requests  []agt.Raw `json:"requests"`
}

// vsRequest is one request of a session.
type vsRequest struct {
	RequestID  string `json:"requestId"`
	ResponseID string `json:"responseId"`
	Message    *struct {
		Text string `json:"text"`
	} `json:"message"`
	Timestamp  int64     `json:"timestamp"`
	ModelID    string    `json:"modelId"`
	IsCanceled bool      `json:"isCanceled"`
	Response   []vsPart  `json:"response"`
	Result     *vsResult `json:"result"`
}

type vsPart struct {
	Kind    string  `json:"kind"`
	Value   agt.Raw `json:"value"`
	Content *struct {
		Value string `json:"value"`
	} `json:"content"`
	ToolID     string `json:"toolId"`
	ToolCallID string `json:"toolCallId"`
}

type vsResult struct {
	Timings *struct {
		TotalElapsed int64 `json:"totalElapsed"`
	} `json:"timings"`
	ErrorDetails *struct {
		Message string `json:"message"`
	} `json:"errorDetails"`
	Metadata *struct {
		Rounds []struct {
			ID        string `json:"id"`
			Response  string `json:"response"`
			ToolCalls []struct {
				ID        string `json:"id"`
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"toolCalls"`
		} `json:"toolCallRounds"`
		Results map[string]struct {
			Content []struct {
				Value agt.Raw `json:"value"`
			} `json:"content"`
		} `json:"toolCallResults"`
	} `json:"metadata"`
}

// vsParser reads a session document, or replays a log.
type vsParser struct {
	log   bool
	model map[string]any // the log's model, as replayed
	added []agt.Src      // per request of the model, the line that added it
}

// Decode reads a document, or a log line.
func (p *vsParser) Decode(rec []byte) (any, error) {
	if p.log {
		var l vsLine
		if err := agt.Decode(rec, &l); err != nil {
			if !agt.IsFieldError(err) {
				return nil, err
			}
			return &l, err
		}
		return &l, nil
	}
	s := &vsSession{}
	err := agt.Decode(rec, s)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	return s, err
}

// Apply emits a document's events, or replays a log line.
func (p *vsParser) Apply(em *agt.Emitter, v any) {
	if l, ok := v.(*vsLine); ok {
		p.replay(em, l)
		return
	}
	s := v.(*vsSession)
	base := em.Src()
	srcs := make([]agt.Src, len(s.Requests))
	for i := range srcs {
		srcs[i] = agt.Src{Path: base.Path, Line: base.Line, Ptr: base.Ptr + "/requests/" + strconv.Itoa(i)}
	}
	p.session(em, s, srcs)
}

// Finish reads the model a log built.
func (p *vsParser) Finish(em *agt.Emitter) {
	if !p.log || p.model == nil {
		return
	}
	s := &vsSession{}
	if err := agt.Decode(agt.Marshal(p.model), s); err != nil && !agt.IsFieldError(err) {
		em.Errorf("chat model: %v", err)
		return
	}
	srcs := make([]agt.Src, len(s.Requests))
	for i := range srcs {
		if i < len(p.added) {
			srcs[i] = p.added[i]
		}
		srcs[i].Ptr = "/requests/" + strconv.Itoa(i)
	}
	em.SetSrc(agt.Src{Path: em.Src().Path, Line: p.added0()}, nil)
	p.session(em, s, srcs)
}

// added0 is the line of the log's first model (kind 0).
func (p *vsParser) added0() int64 {
	if len(p.added) > 0 {
		return p.added[0].Line
	}
	return 0
}

// session emits the session's meta event, then each request's events.
func (p *vsParser) session(em *agt.Emitter, s *vsSession, srcs []agt.Src) {
	id := s.SessionID
	if id == "" {
		id = em.Fallback()
	}
	em.Session(id)
	m := &agt.Meta{Type: "chat_session", Subtype: s.Location}
	if s.Title != nil {
		m.Title = *s.Title
	}
	if s.Requester != "" {
		m.Data = agt.Marshal(map[string]string{"requester": s.Requester})
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: msTime(s.Created), Meta: m}, s.SessionID, "session")
	for i, raw := range s.Requests {
		em.SetSrc(srcs[i], nil)
		var r vsRequest
		if err := agt.Decode(raw, &r); err != nil {
			em.Errorf("request %d: %v", i, err)
			if !agt.IsFieldError(err) {
				continue
			}
		}
		n := em.Count()
		p.request(em, &r)
		if em.Count() == n {
			em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "request"}}, "", "request")
		}
	}
}

// request emits one request: the prompt, the model's calls, the outcome.
func (p *vsParser) request(em *agt.Emitter, r *vsRequest) {
	ts := msTime(r.Timestamp)
	if r.Message != nil && r.Message.Text != "" {
		em.Emit(agt.Event{Kind: agt.KindUser, TS: ts, Text: agt.String(r.Message.Text)}, "", "user")
	}
	end := ts
	if r.Result != nil && r.Result.Timings != nil && r.Timestamp > 0 {
		end = msTime(r.Timestamp + r.Result.Timings.TotalElapsed)
	}
	model := strings.TrimPrefix(r.ModelID, "copilot/")
	if md := r.Result; md != nil && md.Metadata != nil && len(md.Metadata.Rounds) > 0 {
		for i, round := range md.Metadata.Rounds {
			suffix := "round" + strconv.Itoa(i)
			if strings.TrimSpace(round.Response) != "" {
				em.Emit(agt.Event{Kind: agt.KindAssistant, TS: end, Model: model, MessageID: round.ID, Text: agt.String(round.Response)}, "", suffix)
			}
			calls := make([]string, len(round.ToolCalls))
			for j, c := range round.ToolCalls {
				in := agt.Raw(c.Arguments)
				if !agt.Valid(in) || len(in) == 0 || in[0] != '{' {
					in = agt.Marshal(map[string]string{"arguments": c.Arguments})
				}
				calls[j] = em.Emit(agt.Event{Kind: agt.KindToolCall, TS: end, Model: model, MessageID: round.ID,
					Tool: &agt.Tool{ID: c.ID, Name: c.Name, NativeName: c.Name, Input: in, NativeInput: in}}, "", suffix+"call"+strconv.Itoa(j))
			}
			// the results the model read before its next call
			for j, c := range round.ToolCalls {
				res, ok := md.Metadata.Results[c.ID]
				if !ok {
					continue
				}
				var b strings.Builder
				for _, ct := range res.Content {
					promptText(&b, ct.Value)
				}
				em.Emit(agt.Event{Kind: agt.KindToolResult, TS: end, Result: &agt.Result{ID: c.ID, Call: calls[j], Output: agt.String(b.String())}},
					"", suffix+"result"+strconv.Itoa(j))
			}
		}
	} else {
		var text strings.Builder
		for _, part := range r.Response {
			if part.Kind == "" || part.Kind == "markdownContent" {
				if s := part.Value.Str(); s != "" {
					text.WriteString(s)
				} else if part.Content != nil {
					text.WriteString(part.Content.Value)
				}
			}
		}
		if text.Len() > 0 {
			em.Emit(agt.Event{Kind: agt.KindAssistant, TS: end, Model: model, MessageID: r.ResponseID, Text: agt.String(text.String())}, "", "assistant")
		}
		for i, part := range r.Response {
			if part.Kind != "toolInvocationSerialized" || part.ToolID == "" {
				continue
			}
			em.Emit(agt.Event{Kind: agt.KindToolCall, TS: end, Model: model, MessageID: r.ResponseID,
				Tool: &agt.Tool{ID: part.ToolCallID, Name: part.ToolID, NativeName: part.ToolID, Input: agt.Raw(`{}`), NativeInput: agt.Raw(`{}`)}}, "", "part"+strconv.Itoa(i))
		}
	}
	if r.Result != nil && r.Result.ErrorDetails != nil {
		msg := r.Result.ErrorDetails.Message
		em.Emit(agt.Event{Kind: agt.KindSystem, TS: end, Text: agt.String(msg), Meta: &agt.Meta{Type: "error",
			Outcome: &agt.Outcome{Status: agt.OutcomeError, Reason: msg}}}, "", "error")
	}
	if r.IsCanceled {
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: end, Meta: &agt.Meta{Type: "canceled",
			Outcome: &agt.Outcome{Status: agt.OutcomeInterrupted, Reason: "canceled"}}}, "", "canceled")
	}
}

// promptText writes the text of a tool result's content value: a string,
// or the tree VS Code renders a prompt part to ({node: {children: […]}},
// its text leaves in order, a line break before those that ask for one).
func promptText(b *strings.Builder, v agt.Raw) {
	if len(v) == 0 {
		return
	}
	if v[0] == '"' {
		b.WriteString(v.Str())
		return
	}
	var n struct {
		Node      agt.Raw   `json:"node"`
		Children  []agt.Raw `json:"children"`
		Text      *string   `json:"text"`
		LineBreak bool      `json:"lineBreakBefore"`
	}
	if agt.API.Unmarshal(v, &n) != nil {
		b.Write(v)
		return
	}
	if n.Text != nil {
		if n.LineBreak && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(*n.Text)
	}
	promptText(b, n.Node)
	for _, c := range n.Children {
		promptText(b, c)
	}
}

// vsLine is a line of a log.
type vsLine struct {
	Kind *int64  `json:"kind"`
	K    []any   `json:"k"`
	V    agt.Raw `json:"v"`
	I    *int64  `json:"i"`
}

// replay applies a log line to the model and emits its meta event.
func (p *vsParser) replay(em *agt.Emitter, l *vsLine) {
	if em.Current() == "" {
		em.Session(em.Fallback())
	}
	kind := int64(-1)
	if l.Kind != nil {
		kind = *l.Kind
	}
	var v any
	agt.API.Unmarshal(l.V, &v)
	switch kind {
	case 0:
		m, _ := v.(map[string]any)
		p.model = m
		p.added = nil
		if reqs, _ := m["requests"].([]any); reqs != nil {
			for range reqs {
				p.added = append(p.added, em.Src())
			}
		}
		if p.added == nil {
			p.added = []agt.Src{}
		}
		p.first(em)
	case 1:
		setPath(p.model, l.K, v)
	case 2:
		items, _ := v.([]any)
		if isRequests(l.K) && p.model != nil {
			reqs, _ := p.model["requests"].([]any)
			n := len(reqs)
			if l.I != nil && *l.I >= 0 && int(*l.I) < n {
				n = int(*l.I)
			}
			p.added = p.added[:min(n, len(p.added))]
			for range items {
				p.added = append(p.added, em.Src())
			}
		}
		appendPath(p.model, l.K, items, l.I)
	default:
		em.Unknown("", "", "kind "+strconv.FormatInt(kind, 10))
		return
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "patch", Subtype: []string{"model", "set", "append"}[kind], Data: agt.Marshal(l.K)}}, "", "patch")
}

// first names the session when the log's model does.
func (p *vsParser) first(em *agt.Emitter) {
	if id, _ := p.model["sessionId"].(string); id != "" && em.Current() != id {
		em.Session(id)
	}
}

// isRequests tells whether a path is the model's requests.
func isRequests(k []any) bool {
	return len(k) == 1 && k[0] == "requests"
}

// walk returns the container a path's last key is in, creating the
// objects on its way.
func walk(root any, k []any) (any, bool) {
	cur := root
	for _, key := range k {
		switch c := cur.(type) {
		case map[string]any:
			s, _ := key.(string)
			next, ok := c[s]
			if !ok || next == nil {
				next = map[string]any{}
				c[s] = next
			}
			cur = next
		case []any:
			f, _ := key.(float64)
			if int(f) < 0 || int(f) >= len(c) {
				return nil, false
			}
			cur = c[int(f)]
		default:
			return nil, false
		}
	}
	return cur, true
}

// setPath sets the member a path names.
func setPath(root map[string]any, k []any, v any) {
	if root == nil || len(k) == 0 {
		return
	}
	parent, ok := walk(root, k[:len(k)-1])
	if !ok {
		return
	}
	switch c := parent.(type) {
	case map[string]any:
		s, _ := k[len(k)-1].(string)
		c[s] = v
	case []any:
		f, _ := k[len(k)-1].(float64)
		if int(f) >= 0 && int(f) < len(c) {
			c[int(f)] = v
		}
	}
}

// appendPath appends items to the list a path names, cut at i first.
func appendPath(root map[string]any, k []any, items []any, i *int64) {
	if root == nil || len(k) == 0 {
		return
	}
	parent, ok := walk(root, k[:len(k)-1])
	if !ok {
		return
	}
	get := func() []any { return nil }
	set := func([]any) {}
	switch c := parent.(type) {
	case map[string]any:
		s, _ := k[len(k)-1].(string)
		get = func() []any { l, _ := c[s].([]any); return l }
		set = func(l []any) { c[s] = l }
	case []any:
		f, _ := k[len(k)-1].(float64)
		if int(f) < 0 || int(f) >= len(c) {
			return
		}
		get = func() []any { l, _ := c[int(f)].([]any); return l }
		set = func(l []any) { c[int(f)] = l }
	}
	l := get()
	if i != nil && *i >= 0 && int(*i) < len(l) {
		l = l[:*i]
	}
	set(append(l, items...))
}

// msTime is a time in Unix milliseconds, "" for none.
func msTime(ms int64) string {
	if ms <= 0 {
		return ""
	}
	return agt.FormatTime(time.UnixMilli(ms))
}

// isVSSession recognises a session document: version 3 with a list of
// requests, and a sign of VS Code's chat model.
func isVSSession(doc []byte) bool {
	var s struct {
		Version   *int64  `json:"version"`
		Requests  agt.Raw `json:"requests"`
		Responder *string `json:"responderUsername"`
		Location  *string `json:"initialLocation"`
		SessionID *string `json:"sessionId"`
	}
	return agt.API.Unmarshal(doc, &s) == nil && s.Version != nil && len(s.Requests) > 0 && s.Requests[0] == '[' &&
		(s.Responder != nil || s.Location != nil || s.SessionID != nil)
}

// isVSLog recognises a log's first line: kind 0 with a session model.
func isVSLog(line []byte) bool {
	var l struct {
		Kind *int64  `json:"kind"`
		V    agt.Raw `json:"v"`
	}
	return agt.API.Unmarshal(line, &l) == nil && l.Kind != nil && *l.Kind == 0 && isVSSession(l.V)
}
