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
//   - an "execute_tool {tool}" span per tool call with gen_ai.tool.name
//     (the canonical name), gen_ai.tool.call.id, its arguments and result,
//     and an error status when the tool failed;
//   - each subagent as an invoke_agent span nested under the root, its own
//     chat and execute_tool spans under it;
//   - how the run ended on its invoke_agent span: agt.outcome.status,
//     agt.outcome.reason and agt.outcome.errors, and for a failed run
//     (status error or max_turns) an error status with the reason's first
//     line and error.type = the status.
//
// Usage a log gives for a conversation without naming the model call
// (Copilot CLI's session totals) is one more chat span at the
// conversation's end, marked agt.usage.scope = "session", so that the
// chat spans' usage sums to the transcript's. Span ids are derived from the
// session and the span's place, so the same session gives the same bytes.
package otlp

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
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
}

func str(k, v string) KV { return KV{Key: k, Value: Value{String: &v}} }

func num(k string, v int64) KV {
	s := strconv.FormatInt(v, 10)
	return KV{Key: k, Value: Value{Int: &s}}
}

func dbl(k string, v float64) KV { return KV{Key: k, Value: Value{Double: &v}} }

// vendors are the gen_ai.provider.name of model families, by the start of
// the model's name.
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
	{"mistral", "mistral_ai"},
	{"deepseek", "deepseek"},
}

// agentVendors are the vendor of an agent's models when the model's name
// tells none.
var agentVendors = map[string]string{"claude": "anthropic", "codex": "openai", "gemini": "gcp.gemini", "copilot": "github_copilot"}

// Vendor is the gen_ai.provider.name of a model run by an agent.
func Vendor(model, provider string) string {
	m := strings.ToLower(model)
	for _, v := range vendors {
		if strings.HasPrefix(m, v.prefix) {
			return v.name
		}
	}
	if v, ok := agentVendors[provider]; ok {
		return v
	}
	return provider
}

// Write writes t as one ExportTraceServiceRequest on one line.
func Write(w io.Writer, t *transcript.Transcript) error {
	return export.WriteJSON(w, Of(t))
}

// trace builds the spans of one session.
type trace struct {
	t     *transcript.Transcript
	id    string
	spans []Span
}

// spanID is 8 bytes of the SHA-256 of the session and the span's place.
func (tr *trace) spanID(place string) string {
	h := sha256.Sum256([]byte(tr.t.Session + "\x00" + place))
	return hex.EncodeToString(h[:8])
}

// add adds s to the trace, from one moment to another (see times).
func (tr *trace) add(s Span, from, to string) {
	s.TraceID = tr.id
	s.Start, s.End = times(from, to)
	tr.spans = append(tr.spans, s)
}

// Of is the request holding t's trace.
func Of(t *transcript.Transcript) *Request {
	h := sha256.Sum256([]byte("agt.trace\x00" + t.Session))
	tr := &trace{t: t, id: hex.EncodeToString(h[:16])}
	convs := export.Convs(t)
	root := tr.agent(&convs[0], "", "root")
	for i := 1; i < len(convs); i++ {
		tr.agent(&convs[i], root, "sub/"+convs[i].Stream)
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

// agent adds the invoke_agent span of a conversation and the spans under
// it, and returns its id.
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
	tr.add(Span{SpanID: id, ParentSpanID: parent, Name: "invoke_agent " + name, Kind: kindInternal, Attributes: attrs, Status: st}, c.StartedAt, c.EndedAt)
	prev := c.StartedAt
	for i := range c.Messages {
		m := &c.Messages[i]
		if m.Role == transcript.RoleAssistant {
			mp := place + "/m" + strconv.Itoa(i)
			tr.chat(c, m.Model, m.Usage, prev, m.TS, id, mp, "")
			for j := range m.ToolCalls {
				tr.tool(&m.ToolCalls[j], m.TS, id, mp+"/t"+strconv.Itoa(j))
			}
		}
		if m.TS != "" {
			prev = m.TS
		}
	}
	if u, ok := export.Unattributed(c); ok {
		tr.chat(c, c.Model, &u, c.EndedAt, c.EndedAt, id, place+"/rest", "session")
	}
	return id
}

// chat adds the span of one model call, from the conversation's previous
// moment to the message's (the message's own when there is none before).
func (tr *trace) chat(c *export.Conv, model string, u *agt.Usage, from, to, parent, place, scope string) {
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
	name := "chat"
	if model != "" {
		name += " " + model
	}
	tr.add(Span{SpanID: tr.spanID(place), ParentSpanID: parent, Name: name, Kind: kindClient, Attributes: attrs}, from, to)
}

// tool adds the span of one tool call.
func (tr *trace) tool(tc *transcript.ToolCall, at, parent, place string) {
	from := tc.StartedAt
	if nanos(from) == 0 {
		from = at
	}
	attrs := []KV{
		str("gen_ai.operation.name", "execute_tool"),
		str("gen_ai.tool.name", tc.Name),
		str("gen_ai.tool.call.id", tc.ID),
		str("gen_ai.tool.type", "function"),
	}
	if len(tc.Input) > 0 {
		attrs = append(attrs, str("gen_ai.tool.call.arguments", string(tc.Input)))
	}
	if len(tc.Output) > 0 {
		attrs = append(attrs, str("gen_ai.tool.call.result", export.Text(tc.Output)))
	}
	attrs = append(attrs, str("agt.tool.native_name", tc.NativeName), str("agt.tool.status", tc.Status))
	if tc.ExitCode != nil {
		attrs = append(attrs, num("agt.tool.exit_code", int64(*tc.ExitCode)))
	}
	var st *Status
	if tc.IsError || tc.Status == transcript.StatusError {
		attrs = append(attrs, str("error.type", "tool_error"))
		st = &Status{Code: statusError, Message: firstLine(export.Text(tc.Output))}
	}
	tr.add(Span{SpanID: tr.spanID(place), ParentSpanID: parent, Name: "execute_tool " + tc.Name, Kind: kindInternal, Attributes: attrs, Status: st},
		from, tc.EndedAt)
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

// times are a span's start and end as OTLP writes them: an end that is
// missing or before the start is the start, a missing start the end.
func times(from, to string) (string, string) {
	s, e := nanos(from), nanos(to)
	if s == 0 {
		s = e
	}
	if e < s {
		e = s
	}
	return strconv.FormatInt(s, 10), strconv.FormatInt(e, 10)
}
