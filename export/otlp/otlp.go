// Package otlp renders a consolidated session as an OpenTelemetry trace in
// OTLP JSON (one ExportTraceServiceRequest per line, the Collector's file
// exporter format) following the GenAI semantic conventions:
//
//   - one trace per session, its id derived from the agt session id;
//   - a root "invoke_agent {agent}" span with gen_ai.conversation.id;
//   - a "chat {model}" span per model call (an assistant message) with
//     gen_ai.usage.input_tokens (tokens read from and written to a cache
//     included, as the convention says), gen_ai.usage.output_tokens,
//     gen_ai.usage.cache_read.input_tokens and
//     gen_ai.usage.cache_creation.input_tokens, gen_ai.provider.name and
//     gen_ai.request.model; usage is on chat spans only;
//   - on each chat span, unless content is left out (Options.NoContent),
//     what the call was sent since the call before it (the user's text,
//     the results of the previous call's tools) as gen_ai.input.messages,
//     the context the agent gave the model (system prompts, reminders) as
//     gen_ai.system_instructions, and its reply (reasoning, text, tool
//     calls) as gen_ai.output.messages, each in the conventions' JSON
//     structure;
//   - an "execute_tool {tool}" span per tool call with gen_ai.tool.name
//     (the canonical name), gen_ai.tool.call.id, its arguments and result
//     (left out with the content), and an error status when the tool failed;
//   - each subagent as an invoke_agent span under the execute_tool span of
//     the tool call that started it (the transcript's tool_call_id); where
//     the log names none, under a stand-in execute_tool span (StandIn, no
//     tool name or call id) under the root, over the subagent's time; its
//     own chat and execute_tool spans under it;
//   - how the run ended on its invoke_agent span: agt.outcome.status,
//     agt.outcome.reason and agt.outcome.errors, and for a failed run
//     (status error or max_turns) an error status with the reason's first
//     line and error.type = the status.
//
// Times. A log gives one time per message; for an assistant message it is
// when the agent wrote the reply, so it marks the end of the model call. A
// chat span runs from the request (the later of the previous message's time
// and the end of every earlier tool run that ended by then) to the
// response (the later of the message's time and the start of its own tool
// calls, which the reply asked for): it never covers an earlier call's tool
// runs. No span time is before the session's start: a time the log lacks
// (or one before 2000, or before the session's start) is the previous
// known time of the conversation, and a session that states no time at all
// (live output of several agents) takes Options.Now, the time agt writes
// the session (for a live pipe, just after reading its last line).
//
// Usage a log gives for a conversation without naming the model call
// (Copilot CLI's session totals) is one more chat span at the
// conversation's end, marked agt.usage.scope = "session", so that the
// chat spans' usage sums to the transcript's. Span ids are derived from the
// session and the span's place, so the same session (and clock) gives the
// same bytes.
package otlp

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/price"
	"github.com/agt-project/agt/transcript"
)

// Ext is the ending of a trace file beside a transcript.
const Ext = ".otlp.jsonl"

// Span kinds and status codes of OTLP.
const (
	kindInternal = 1
	kindClient   = 3
	statusError  = 2
)

// Request is an ExportTraceServiceRequest.
type Request struct {
	ResourceSpans []ResourceSpans `json:"resourceSpans"`
}

// ResourceSpans are the spans of one resource.
type ResourceSpans struct {
	Resource   Resource     `json:"resource"`
	ScopeSpans []ScopeSpans `json:"scopeSpans"`
}

// Resource describes what produced the spans.
type Resource struct {
	Attributes []KV `json:"attributes"`
}

// ScopeSpans are the spans of one instrumentation scope.
type ScopeSpans struct {
	Scope Scope  `json:"scope"`
	Spans []Span `json:"spans"`
}

// Scope names the instrumentation scope.
type Scope struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// Span is one span.
type Span struct {
	TraceID      string  `json:"traceId"`
	SpanID       string  `json:"spanId"`
	ParentSpanID string  `json:"parentSpanId,omitempty"`
	Name         string  `json:"name"`
	Kind         int     `json:"kind"`
	Start        string  `json:"startTimeUnixNano"`
	End          string  `json:"endTimeUnixNano"`
	Attributes   []KV    `json:"attributes"`
	Status       *Status `json:"status,omitempty"`
}

// Status is a span's status.
type Status struct {
	Code    int    `json:"code"`
	Message string `json:"message,omitempty"`
}

// KV is an attribute.
type KV struct {
	Key   string `json:"key"`
	Value Value  `json:"value"`
}

// Value is an attribute's value: one of its fields is set.
type Value struct {
	String *string  `json:"stringValue,omitempty"`
	Int    *string  `json:"intValue,omitempty"` // OTLP JSON writes 64-bit integers as strings
	Double *float64 `json:"doubleValue,omitempty"`
	Bool   *bool    `json:"boolValue,omitempty"`
	Array  *Array   `json:"arrayValue,omitempty"`
}

// Array is an array attribute's values.
type Array struct {
	Values []Value `json:"values"`
}

func str(k, v string) KV { return KV{Key: k, Value: Value{String: &v}} }

func num(k string, v int64) KV {
	s := strconv.FormatInt(v, 10)
	return KV{Key: k, Value: Value{Int: &s}}
}

func strs(k string, v ...string) KV {
	a := &Array{Values: make([]Value, len(v))}
	for i := range v {
		a.Values[i].String = &v[i]
	}
	return KV{Key: k, Value: Value{Array: a}}
}

func dbl(k string, v float64) KV { return KV{Key: k, Value: Value{Double: &v}} }

// flag is a boolean attribute set to true.
func flag(k string) KV {
	v := true
	return KV{Key: k, Value: Value{Bool: &v}}
}

// Options are the choices of a rendering; the zero value renders content
// and takes the wall clock for a session without times.
type Options struct {
	// NoContent leaves out what was said: the chat spans' messages and
	// system instructions, the tool spans' arguments and results, and the
	// tool output in a failed tool's status message. Names, times, usage
	// and statuses stay.
	NoContent bool
	// Now is the time of a session whose log states none; nil: the wall
	// clock.
	Now func() time.Time
}

// Write writes t as one ExportTraceServiceRequest on one line, with its
// content.
func Write(w io.Writer, t *transcript.Transcript) error { return Options{}.Write(w, t) }

// bufs are the buffers requests are encoded in (a trace of a long session
// is megabytes: growing a fresh buffer each time is most of the cost).
var bufs = sync.Pool{New: func() any { return new([]byte) }}

// Write writes t as one ExportTraceServiceRequest on one line.
func (o Options) Write(w io.Writer, t *transcript.Transcript) error {
	b := bufs.Get().(*[]byte)
	defer bufs.Put(b)
	*b = transcript.AppendJSON((*b)[:0], o.Of(t))
	_, err := w.Write(*b)
	return err
}

// trace builds the spans of one session.
type trace struct {
	o       Options
	t       *transcript.Transcript
	id      string
	spans   []Span
	base    int64             // the session's start, Unix ns: no span starts before it
	callers map[string]string // tool call id → the span id of its execute_tool span
	scratch []byte            // where message attributes are encoded
}

// spanID is 8 bytes of the SHA-256 of the session and the span's place.
func (tr *trace) spanID(place string) string {
	h := sha256.Sum256([]byte(tr.t.Session + "\x00" + place))
	return hex.EncodeToString(h[:8])
}

// add adds s to the trace, from one moment to another (Unix ns; an end
// before the start is the start), and returns its index.
func (tr *trace) add(s Span, from, to int64) int {
	s.TraceID = tr.id
	setTimes(&s, from, to)
	tr.spans = append(tr.spans, s)
	return len(tr.spans) - 1
}

func setTimes(s *Span, from, to int64) {
	if to < from {
		to = from
	}
	s.Start, s.End = strconv.FormatInt(from, 10), strconv.FormatInt(to, 10)
}

// Of is the request holding t's trace.
func (o Options) Of(t *transcript.Transcript) *Request {
	h := sha256.Sum256([]byte("agt.trace\x00" + t.Session))
	tr := &trace{o: o, t: t, id: hex.EncodeToString(h[:16]), callers: map[string]string{}}
	convs := export.Convs(t)
	tr.base = tr.start(convs)
	places := make([]string, len(convs))
	for i := range convs {
		places[i] = "root"
		if i > 0 {
			places[i] = "sub/" + convs[i].Stream
		}
		tr.noteCallers(&convs[i], places[i])
	}
	root := tr.agent(&convs[0], "", places[0])
	for i := 1; i < len(convs); i++ {
		// convs[i] is t.Subagents[i-1]
		if id, ok := tr.callers[t.Subagents[i-1].ToolCallID]; ok {
			tr.agent(&convs[i], id, places[i])
			continue
		}
		// the log records no call that started it: a stand-in
		// execute_tool span under the root, over the subagent's time
		stand := tr.standIn(root, places[i]+"/call")
		sub := len(tr.spans)
		tr.agent(&convs[i], tr.spans[stand].SpanID, places[i])
		tr.spans[stand].Start, tr.spans[stand].End = tr.spans[sub].Start, tr.spans[sub].End
	}
	res := []KV{str("service.name", "agt"), str("gen_ai.agent.name", export.Agent(t.Provider))}
	if t.Version != "" {
		res = append(res, str("service.version", t.Version))
	}
	return &Request{ResourceSpans: []ResourceSpans{{
		Resource:   Resource{Attributes: res},
		ScopeSpans: []ScopeSpans{{Scope: Scope{Name: "agt", Version: agt.Version}, Spans: tr.spans}},
	}}}
}

// noteCallers records the span id of each tool call of c, the first of
// each id (the main conversation's come first).
func (tr *trace) noteCallers(c *export.Conv, place string) {
	for i := range c.Messages {
		m := &c.Messages[i]
		if m.Role != transcript.RoleAssistant {
			continue
		}
		for j := range m.ToolCalls {
			id := m.ToolCalls[j].ID
			if _, ok := tr.callers[id]; !ok && id != "" {
				tr.callers[id] = tr.spanID(toolPlace(place, i, j))
			}
		}
	}
}

func msgPlace(place string, i int) string     { return place + "/m" + strconv.Itoa(i) }
func toolPlace(place string, i, j int) string { return msgPlace(place, i) + "/t" + strconv.Itoa(j) }

// minTime is the earliest time a span may carry (2000-01-01): anything
// before it is a missing or broken time.
var minTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()

// start is the session's start in Unix ns: its started_at, else the
// earliest time of its conversations, else the clock's.
func (tr *trace) start(convs []export.Conv) int64 {
	if n := nanos(tr.t.StartedAt); n >= minTime {
		return n
	}
	var first int64
	note := func(ts string) {
		if n := nanos(ts); n >= minTime && (first == 0 || n < first) {
			first = n
		}
	}
	for i := range convs {
		note(convs[i].StartedAt)
		for j := range convs[i].Messages {
			m := &convs[i].Messages[j]
			note(m.TS)
			for k := range m.ToolCalls {
				note(m.ToolCalls[k].StartedAt)
			}
		}
	}
	if first != 0 {
		return first
	}
	now := time.Now
	if tr.o.Now != nil {
		now = tr.o.Now
	}
	if n := now().UnixNano(); n >= minTime {
		return n
	}
	return minTime
}

// known is a time of the log in Unix ns, 0 when it has none or one before
// the session's start.
func (tr *trace) known(ts string) int64 {
	if n := nanos(ts); n >= tr.base {
		return n
	}
	return 0
}

// or is a, else b.
func or(a, b int64) int64 {
	if a != 0 {
		return a
	}
	return b
}

// agent adds the invoke_agent span of a conversation and the spans under
// it, and returns its id. The span covers its conversation's and its
// children's times.
func (tr *trace) agent(c *export.Conv, parent, place string) string {
	t := tr.t
	id := tr.spanID(place)
	name := export.Agent(t.Provider)
	attrs := []KV{
		str("gen_ai.operation.name", "invoke_agent"),
		str("gen_ai.agent.name", name),
		str("gen_ai.conversation.id", t.NativeSession),
		str("gen_ai.provider.name", Vendor(c.Model, t.Provider)),
	}
	if c.Model != "" {
		attrs = append(attrs, str("gen_ai.request.model", c.Model))
	}
	attrs = append(attrs, str("agt.session", t.Session), str("agt.provider", t.Provider))
	if !c.Main() {
		attrs = append(attrs, str("agt.stream", c.Stream))
	} else if t.Cwd != "" {
		attrs = append(attrs, str("agt.cwd", t.Cwd))
	}
	o := c.Outcome
	attrs = append(attrs, str("agt.outcome.status", o.Status))
	if o.Reason != "" {
		attrs = append(attrs, str("agt.outcome.reason", o.Reason))
	}
	attrs = append(attrs, num("agt.outcome.errors", int64(o.Errors)))
	var st *Status
	if agt.Failed(o.Status) {
		attrs = append(attrs, str("error.type", o.Status))
		st = &Status{Code: statusError, Message: firstLine(o.Reason)}
	}
	begin := or(tr.known(c.StartedAt), tr.base)
	self := tr.add(Span{SpanID: id, ParentSpanID: parent, Name: "invoke_agent " + name, Kind: kindInternal, Attributes: attrs, Status: st}, begin, begin)
	lo, hi := begin, begin
	span := func(from, to int64) {
		lo, hi = min(lo, from), max(hi, to)
	}
	req := begin     // when the next model call's request went out, at the earliest
	var ends []int64 // the ends of the tool runs so far
	var in pending   // what the next model call is sent
	for i := range c.Messages {
		m := &c.Messages[i]
		at := tr.known(m.TS)
		if m.Role != transcript.RoleAssistant {
			if at != 0 {
				req = max(req, at)
			}
			in.note(m)
			continue
		}
		resp := at
		for j := range m.ToolCalls {
			resp = max(resp, tr.known(m.ToolCalls[j].StartedAt))
		}
		resp = or(resp, req)
		from := req
		for _, e := range ends {
			if e <= resp {
				from = max(from, e)
			}
		}
		from = min(from, resp)
		mp := msgPlace(place, i)
		tr.chat(c, m.Model, m.Usage, from, resp, id, mp, "", &in, m)
		span(from, resp)
		in = pending{}
		for j := range m.ToolCalls {
			tc := &m.ToolCalls[j]
			ts := or(tr.known(tc.StartedAt), resp)
			te := max(ts, tr.known(tc.EndedAt))
			tr.tool(tc, ts, te, id, toolPlace(place, i, j))
			span(ts, te)
			ends = append(ends, te)
			in.results = append(in.results, tc)
		}
		req = max(req, resp)
	}
	if u, ok := export.Unattributed(c); ok {
		end := max(or(tr.known(c.EndedAt), hi), req)
		tr.chat(c, c.Model, &u, end, end, id, place+"/rest", "session", nil, nil)
		span(end, end)
	}
	hi = max(hi, tr.known(c.EndedAt))
	setTimes(&tr.spans[self], lo, hi)
	return id
}

// chat adds the span of one model call, from its request to its response
// (Unix ns), with what it was sent (in) and its reply (m), when content is
// wanted.
func (tr *trace) chat(c *export.Conv, model string, u *agt.Usage, from, to int64, parent, place, scope string, in *pending, m *transcript.Message) {
	if model == "" {
		model = c.Model
	}
	attrs := []KV{
		str("gen_ai.operation.name", "chat"),
		str("gen_ai.provider.name", Vendor(model, tr.t.Provider)),
		str("gen_ai.conversation.id", tr.t.NativeSession),
	}
	if model != "" {
		attrs = append(attrs, str("gen_ai.request.model", model), str("gen_ai.response.model", model))
	}
	if m != nil {
		attrs = append(attrs, strs("gen_ai.response.finish_reasons", finishReason(m)))
	}
	if u != nil {
		attrs = append(attrs,
			num("gen_ai.usage.input_tokens", export.Prompt(u)),
			num("gen_ai.usage.output_tokens", u.Output),
			num("gen_ai.usage.cache_read.input_tokens", u.CacheRead),
			num("gen_ai.usage.cache_creation.input_tokens", u.CacheWrite))
		if u.Reasoning != 0 {
			attrs = append(attrs, num("gen_ai.usage.reasoning.output_tokens", u.Reasoning))
		}
		if u.CostUSD != nil {
			attrs = append(attrs, dbl("agt.cost_usd", *u.CostUSD))
		}
	}
	if scope != "" {
		attrs = append(attrs, str("agt.usage.scope", scope))
	}
	if !tr.o.NoContent && m != nil {
		attrs = append(attrs, in.attrs(tr)...)
		attrs = append(attrs, str("gen_ai.output.messages", tr.jsonText([]message{output(m)})))
	}
	name := "chat"
	if model != "" {
		name += " " + model
	}
	tr.add(Span{SpanID: tr.spanID(place), ParentSpanID: parent, Name: name, Kind: kindClient, Attributes: attrs}, from, to)
}

// tool adds the span of one tool call, from one moment to another (Unix ns).
func (tr *trace) tool(tc *transcript.ToolCall, from, to int64, parent, place string) {
	attrs := []KV{
		str("gen_ai.operation.name", "execute_tool"),
		str("gen_ai.tool.name", tc.Name),
		str("gen_ai.tool.call.id", tc.ID),
		str("gen_ai.tool.type", "function"),
	}
	if !tr.o.NoContent {
		if len(tc.Input) > 0 {
			attrs = append(attrs, str("gen_ai.tool.call.arguments", string(tc.Input)))
		}
		if len(tc.Output) > 0 {
			attrs = append(attrs, str("gen_ai.tool.call.result", export.ResultText(tc.Output)))
		}
	}
	attrs = append(attrs, str("agt.tool.native_name", tc.NativeName), str("agt.tool.status", tc.Status))
	if tc.ExitCode != nil {
		attrs = append(attrs, num("agt.tool.exit_code", int64(*tc.ExitCode)))
	}
	var st *Status
	if tc.IsError || tc.Status == transcript.StatusError {
		attrs = append(attrs, str("error.type", "tool_error"))
		st = &Status{Code: statusError}
		if !tr.o.NoContent {
			st.Message = firstLine(export.ResultText(tc.Output))
		}
	}
	tr.add(Span{SpanID: tr.spanID(place), ParentSpanID: parent, Name: "execute_tool " + tc.Name, Kind: kindInternal, Attributes: attrs, Status: st}, from, to)
}

// StandIn is the attribute that marks an execute_tool span standing in
// for a tool call the log does not record: the call that started a
// subagent, where the log names none (Claude Code's warm-up subagents, a
// Codex review thread's own rollout). It has no tool call id.
const StandIn = "agt.tool.stand_in"

// standIn adds a stand-in execute_tool span under parent and returns its
// index; its times are set once its subagent's are known.
func (tr *trace) standIn(parent, place string) int {
	attrs := []KV{
		str("gen_ai.operation.name", "execute_tool"),
		flag(StandIn),
	}
	return tr.add(Span{SpanID: tr.spanID(place), ParentSpanID: parent, Name: "execute_tool", Kind: kindInternal, Attributes: attrs}, tr.base, tr.base)
}

// firstLine is the first line of s, at most 200 bytes of it.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = agt.ValidText(s[:200])
	}
	return s
}

// nanos is a timestamp in Unix nanoseconds, 0 when there is none (or it
// is not RFC 3339).
func nanos(ts string) int64 {
	if ts == "" {
		return 0
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil || t.Unix() < 0 {
		return 0
	}
	return t.UnixNano()
}

// vendors are the gen_ai.provider.name of model families, by the start of
// the model's name (lower case).
var vendors = []struct{ prefix, name string }{
	{"claude", "anthropic"},
	{"anthropic/", "anthropic"},
	{"gpt", "openai"},
	{"o1", "openai"},
	{"o3", "openai"},
	{"o4", "openai"},
	{"codex", "openai"},
	{"openai/", "openai"},
	{"gemini", "gcp.gemini"},
	{"google/", "gcp.gemini"},
	{"grok", "x_ai"},
	{"x-ai/", "x_ai"},
	{"mistral", "mistral_ai"},
	{"codestral", "mistral_ai"},
	{"deepseek", "deepseek"},
	{"moonshotai/", "moonshot"},
	{"kimi", "moonshot"},
	{"qwen", "alibaba"},
	{"minimax", "minimax"},
	{"glm", "zhipu"},
}

// priceVendors are the gen_ai.provider.name of the price table's vendors
// (LiteLLM's litellm_provider), for a model no prefix names.
var priceVendors = map[string]string{
	"anthropic":                 "anthropic",
	"openai":                    "openai",
	"text-completion-openai":    "openai",
	"gemini":                    "gcp.gemini",
	"vertex_ai-language-models": "gcp.vertex_ai",
	"bedrock":                   "aws.bedrock",
	"xai":                       "x_ai",
	"deepseek":                  "deepseek",
	"mistral":                   "mistral_ai",
	"moonshot":                  "moonshot",
	"minimax":                   "minimax",
	"zhipu":                     "zhipu",
	"volcengine":                "volcengine",
}

// Other is the gen_ai.provider.name of a model whose vendor agt cannot
// tell.
const Other = "_OTHER"

// Vendor is the gen_ai.provider.name of a model run by an agent: by the
// model's name, else its vendor in the price table, else the vendor whose
// API the agent calls by default (its provider's declared Vendor), else
// Other (never the agent's name).
func Vendor(model, agent string) string {
	m := strings.ToLower(model)
	for _, v := range vendors {
		if strings.HasPrefix(m, v.prefix) {
			return v.name
		}
	}
	if m != "" {
		if _, r, ok := price.Default().Rates(m); ok {
			if v, ok := priceVendors[r.Provider]; ok {
				return v
			}
		}
	}
	if v := provider.Vendor(agent); v != "" {
		return v
	}
	return Other
}
