package gemini

import (
	"bytes"
	"errors"
	"sort"
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/docscan"
)

// streamRec is one line of `gemini -p --output-format stream-json`.
type streamRec struct {
	Type       string     `json:"type"`
	Timestamp  string     `json:"timestamp"`
	SessionID  string     `json:"session_id"`
	Model      string     `json:"model"`
	Role       string     `json:"role"`
	Content    agt.Raw    `json:"content"`
	Delta      bool       `json:"delta"`
	ToolName   string     `json:"tool_name"`
	ToolID     string     `json:"tool_id"`
	Parameters agt.Raw    `json:"parameters"`
	Status     string     `json:"status"`
	Output     agt.Raw    `json:"output"`
	Error      *liveError `json:"error"`
	Severity   string     `json:"severity"`
	Message    string     `json:"message"`
	Stats      agt.Raw    `json:"stats"`
}

// liveError is the error object of a tool_result, a result, or the json
// output.
type liveError struct {
	Type    string  `json:"type"`
	Message string  `json:"message"`
	Code    agt.Raw `json:"code"`
}

// streamStats is result.stats.
type streamStats struct {
	DurationMS int64                   `json:"duration_ms"`
	ToolCalls  int64                   `json:"tool_calls"`
	Models     map[string]streamTokens `json:"models"`
}

// modelUsage is the usage of one model, models in name order.
type modelUsage struct {
	model string
	usage *agt.Usage
}

type streamValue struct {
	rec   streamRec
	stats *streamStats
	usage []modelUsage
}

// streamRoles maps a message role to its event kind.
var streamRoles = map[string]string{
	"user":      agt.KindUser,
	"assistant": agt.KindAssistant,
}

// toolFailed tells which tool_result statuses are failures.
var toolFailed = map[string]bool{"error": true, "cancelled": true}

// streamParser reads gemini-stream-json.
type streamParser struct {
	model string
	calls map[string]string // session NUL tool_id → event id of the call
	run   *deltaRun
}

// deltaRun is a run of consecutive assistant delta chunks.
type deltaRun struct {
	ts    string
	texts []agt.Raw
	lines []agt.Src
	raws  []agt.Raw
}

func newStreamParser() *streamParser { return &streamParser{calls: map[string]string{}} }

// Decode reads one stream-json line.
func (p *streamParser) Decode(rec []byte) (any, error) {
	v := &streamValue{}
	err := agt.Decode(rec, &v.rec)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	if v.rec.Type == "result" && !v.rec.Stats.IsNull() {
		var total streamTokens
		var st streamStats
		if e := agt.API.Unmarshal(v.rec.Stats, &st); e != nil && err == nil {
			err = &agt.FieldError{Msg: "stats: " + e.Error()}
		}
		_ = agt.API.Unmarshal(v.rec.Stats, &total) // reported just above
		v.stats = &st
		if len(st.Models) == 0 {
			v.usage = []modelUsage{{"", total.usage()}}
		}
		for _, m := range sortedKeys(st.Models) {
			v.usage = append(v.usage, modelUsage{m, st.Models[m].usage()})
		}
	}
	return v, err
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Apply emits the events of a line; assistant delta chunks wait for the end
// of their run.
func (p *streamParser) Apply(em *agt.Emitter, v any) {
	sv := v.(*streamValue)
	r := &sv.rec
	if r.Type == "message" && r.Role == "assistant" && r.Delta {
		if p.run == nil {
			p.run = &deltaRun{ts: ts(r.Timestamp)}
		}
		p.run.texts = append(p.run.texts, r.Content)
		p.run.lines = append(p.run.lines, em.Src())
		p.run.raws = append(p.run.raws, em.Line())
		return
	}
	p.flush(em)
	ev := agt.Event{TS: ts(r.Timestamp)}
	switch r.Type {
	case "init":
		em.Session(r.SessionID)
		p.model = r.Model
		ev.Kind, ev.Model, ev.Meta = agt.KindMeta, r.Model, &agt.Meta{Type: "init"}
		em.Emit(ev, "", "init")
	case "message":
		kind := streamRoles[r.Role]
		if kind == "" {
			em.Unknown("", "", "message:"+r.Role)
			return
		}
		ev.Kind = kind
		ev.Text, _ = contentText(r.Content)
		if kind == agt.KindAssistant {
			ev.Model = p.model
		}
		em.Emit(ev, "", "text")
	case "tool_use":
		in := agt.ToolArgs(r.Parameters)
		ev.Kind, ev.Model = agt.KindToolCall, p.model
		ev.Tool = &agt.Tool{ID: r.ToolID, Name: r.ToolName, NativeName: r.ToolName, Input: in, NativeInput: in}
		id := em.Emit(ev, r.ToolID, "call")
		if id == "" {
			em.Done()
			id = em.EventID("", r.ToolID, "call")
		}
		p.calls[em.Current()+"\x00"+r.ToolID] = id
	case "tool_result":
		out := r.Output
		if out.IsNull() && r.Error != nil {
			out = agt.String(r.Error.Message)
		}
		ev.Kind = agt.KindToolResult
		ev.Result = &agt.Result{ID: r.ToolID, Call: p.calls[em.Current()+"\x00"+r.ToolID], Output: out, IsError: toolFailed[r.Status]}
		em.Emit(ev, r.ToolID, "result")
	case "error":
		ev.Kind, ev.Text, ev.Meta = agt.KindSystem, agt.String(r.Message), &agt.Meta{Type: "error", Subtype: r.Severity, Outcome: outcome(errorOutcomes, r.Severity, agt.String(r.Message))}
		em.Emit(ev, "", "error")
	case "result":
		p.result(em, sv)
	default:
		em.Unknown("", "", r.Type)
	}
}

// result emits a result line: its meta, its error, its usage per model.
func (p *streamParser) result(em *agt.Emitter, sv *streamValue) {
	r := &sv.rec
	t := ts(r.Timestamp)
	var data agt.Raw
	if sv.stats != nil {
		data = agt.Marshal(struct {
			DurationMS int64 `json:"duration_ms"`
			ToolCalls  int64 `json:"tool_calls"`
		}{sv.stats.DurationMS, sv.stats.ToolCalls})
	}
	var reason agt.Raw
	if r.Error != nil {
		reason = agt.String(r.Error.Message)
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: t, Meta: &agt.Meta{Type: "result", Subtype: r.Status, Data: data, Outcome: outcome(resultOutcomes, r.Status, reason)}}, "", "result")
	if r.Error != nil {
		em.Emit(agt.Event{Kind: agt.KindSystem, TS: t, Text: agt.String(r.Error.Message),
			Meta: &agt.Meta{Type: "error", Subtype: r.Error.Type}}, "", "error")
	}
	for _, mu := range sv.usage {
		if zero(mu.usage) {
			continue
		}
		model := mu.model
		if model == "" {
			model = p.model
		}
		em.Emit(agt.Event{Kind: agt.KindUsage, TS: t, Model: model, Usage: mu.usage}, "", "usage:"+mu.model)
	}
}

// flush emits a finished run of assistant chunks: one assistant event at the
// first chunk's line, a delta meta event at each other chunk's line.
func (p *streamParser) flush(em *agt.Emitter) {
	run := p.run
	if run == nil {
		return
	}
	p.run = nil
	cur, raw := em.Src(), em.Line()
	var text agt.Raw
	if len(run.texts) == 1 {
		text, _ = contentText(run.texts[0])
	} else {
		var b strings.Builder
		for _, t := range run.texts {
			t, _ := contentText(t)
			b.WriteString(t.Str())
		}
		text = agt.String(b.String())
	}
	for i, src := range run.lines {
		em.SetSrc(src, run.raws[i])
		if i == 0 && text != nil {
			em.Emit(agt.Event{Kind: agt.KindAssistant, TS: run.ts, Text: text, Model: p.model}, "", "text")
			continue
		}
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: run.ts, Meta: &agt.Meta{Type: "message", Subtype: "delta"}}, "", "delta")
	}
	em.SetSrc(cur, raw)
}

// Finish emits a run of chunks the stream ended with.
func (p *streamParser) Finish(em *agt.Emitter) { p.flush(em) }

// jsonDoc is the object `gemini -p --output-format json` prints (on stdout,
// or on stderr when the run failed).
type jsonDoc struct {
	SessionID string  `json:"session_id"`
	Response  agt.Raw `json:"response"`
	Stats     *struct {
		Models map[string]struct {
			Tokens *modelTokens `json:"tokens"`
		} `json:"models"`
		Tools agt.Raw `json:"tools"`
		Files agt.Raw `json:"files"`
	} `json:"stats"`
	Error    *liveError `json:"error"`
	Warnings agt.Raw    `json:"warnings"`
}

type jsonValue struct {
	doc      jsonDoc
	usage    []modelUsage
	warnings [][]byte
}

// jsonParser reads gemini-json, one document per input.
type jsonParser struct{}

// Decode reads the document member by member (a document cut short keeps
// its complete members).
func (jsonParser) Decode(rec []byte) (any, error) {
	t := bytes.TrimLeft(rec, " \t\r\n\ufeff")
	ms, ok := members(t)
	if len(ms) == 0 {
		var d jsonDoc
		if err := agt.Decode(t, &d); err != nil {
			return nil, err
		}
		return nil, errors.New("not a JSON object")
	}
	obj, _ := object(ms, ok, "")
	v := &jsonValue{}
	err := agt.Decode(obj, &v.doc)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	if !ok {
		err = errors.New("document cut short")
	}
	if s := v.doc.Stats; s != nil {
		for _, m := range sortedKeys(s.Models) {
			if tk := s.Models[m].Tokens; tk != nil {
				v.usage = append(v.usage, modelUsage{m, tk.usage()})
			}
		}
	}
	if isArray(v.doc.Warnings) {
		v.warnings, _ = elements(v.doc.Warnings)
	}
	return v, err
}

// Apply emits the document's events, each at the pointer of its member.
func (jsonParser) Apply(em *agt.Emitter, v any) {
	jv := v.(*jsonValue)
	d := &jv.doc
	base, raw := em.Src(), em.Line()
	at := func(ptr string) { em.SetSrc(agt.Src{Path: base.Path, Line: base.Line, Ptr: ptr}, raw) }
	em.Session(d.SessionID)
	var data agt.Raw
	if d.Stats != nil && (!d.Stats.Tools.IsNull() || !d.Stats.Files.IsNull()) {
		data = agt.Marshal(struct {
			Tools agt.Raw `json:"tools,omitempty"`
			Files agt.Raw `json:"files,omitempty"`
		}{compact(d.Stats.Tools), compact(d.Stats.Files)})
	}
	// the document's outcome: its error, else success, said by its last
	// event of these (the error, else the response, else the result)
	text, _ := contentText(d.Response)
	result := &agt.Meta{Type: "result", Data: data}
	if d.Error == nil && text == nil {
		result.Outcome = &agt.Outcome{Status: agt.OutcomeSuccess, Reason: "response"}
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, Meta: result}, "", "result")
	model := ""
	if len(jv.usage) == 1 {
		model = jv.usage[0].model
	}
	if text != nil {
		at("/response")
		ev := agt.Event{Kind: agt.KindAssistant, Text: text, Model: model}
		if d.Error == nil {
			ev.Meta = &agt.Meta{Type: "response", Outcome: &agt.Outcome{Status: agt.OutcomeSuccess, Reason: "response"}}
		}
		em.Emit(ev, "", "text")
	}
	if d.Error != nil {
		at("/error")
		em.Emit(agt.Event{Kind: agt.KindSystem, Text: agt.String(d.Error.Message),
			Meta: &agt.Meta{Type: "error", Subtype: d.Error.Type, Data: compact(d.Error.Code), Outcome: &agt.Outcome{Status: agt.OutcomeError, Reason: d.Error.Message}}}, "", "error")
	}
	for i, w := range jv.warnings {
		text, _ := contentText(w)
		if text == nil {
			text = agt.String(string(agt.Compact(w)))
		}
		at(docscan.Index("/warnings", i))
		em.Emit(agt.Event{Kind: agt.KindSystem, Text: text, Meta: &agt.Meta{Type: "warning"}}, "", "warning")
	}
	for _, mu := range jv.usage {
		if zero(mu.usage) {
			continue
		}
		at("/stats/models/" + docscan.Escape(mu.model) + "/tokens")
		em.Emit(agt.Event{Kind: agt.KindUsage, Model: mu.model, Usage: mu.usage}, "", "usage")
	}
}

// Finish has nothing held back.
func (jsonParser) Finish(*agt.Emitter) {}
