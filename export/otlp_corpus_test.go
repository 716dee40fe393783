package export_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agt-project/agt/export/otlp"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// spanFacts are what the timing and nesting checks read of a span.
type spanFacts struct {
	name, op, parent string
	start, end       int64
	attrs            map[string]pcommon.Value
}

// otlpStats count what a trace shows backends.
type otlpStats struct {
	docs, spans, chats, withMessages, subagents, underTool, unlinked int
}

func (s *otlpStats) add(o otlpStats) {
	s.docs += o.docs
	s.spans += o.spans
	s.chats += o.chats
	s.withMessages += o.withMessages
	s.subagents += o.subagents
	s.underTool += o.underTool
	s.unlinked += o.unlinked
}

// checkOTLPTimes checks what backends read of a trace and returns its
// problems: no span time before 2000 or before the session's start; no
// chat span containing the run of a tool of an earlier call of its
// conversation; every subagent the transcript links to its tool call under
// that call's execute_tool span; every chat span of a model reply with
// gen_ai.input.messages and gen_ai.output.messages (none at all with
// content left out).
func checkOTLPTimes(tr *transcript.Transcript, b []byte, content bool) ([]string, otlpStats) {
	td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(b)
	if err != nil {
		return []string{err.Error()}, otlpStats{}
	}
	var bad []string
	st := otlpStats{docs: 1}
	floor := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	if s, err := time.Parse(time.RFC3339Nano, tr.StartedAt); err == nil && s.UnixNano() > floor {
		floor = s.UnixNano()
	}
	spans := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans()
	var all []spanFacts
	byID := map[string]*spanFacts{}
	for i := 0; i < spans.Len(); i++ {
		s := spans.At(i)
		a := attrs(s)
		all = append(all, spanFacts{s.Name(), a["gen_ai.operation.name"].Str(), s.ParentSpanID().String(), int64(s.StartTimestamp()), int64(s.EndTimestamp()), a})
	}
	for i := range all {
		byID[spans.At(i).SpanID().String()] = &all[i]
	}
	linked := map[string]bool{}
	calls := map[string]bool{}
	for _, m := range tr.Messages {
		for _, tc := range m.ToolCalls {
			calls[tc.ID] = true
		}
	}
	for _, sa := range tr.Subagents {
		for _, m := range sa.Messages {
			for _, tc := range m.ToolCalls {
				calls[tc.ID] = true
			}
		}
	}
	for _, sa := range tr.Subagents {
		if calls[sa.ToolCallID] {
			linked[sa.Stream] = true
		}
	}
	st.spans = len(all)
	for i, s := range all {
		if s.start < floor || s.end < floor {
			bad = append(bad, fmt.Sprintf("%s: time %d before the session's start %d", s.name, s.start, floor))
		}
		switch s.op {
		case "invoke_agent":
			if s.parent == "" {
				continue
			}
			st.subagents++
			p := byID[s.parent]
			stream := s.attrs["agt.stream"].Str()
			switch {
			case p == nil || p.op != "execute_tool":
				bad = append(bad, fmt.Sprintf("%s %s: parent %v, not an execute_tool span", s.name, stream, p))
			case linked[stream]:
				st.underTool++
				if _, ok := p.attrs[otlp.StandIn]; ok {
					bad = append(bad, fmt.Sprintf("%s %s: under a stand-in although the log links its call", s.name, stream))
				}
			default:
				// the log links no call: a stand-in, with no call id,
				// over the subagent's own time
				st.unlinked++
				_, stand := p.attrs[otlp.StandIn]
				_, id := p.attrs["gen_ai.tool.call.id"]
				if !stand || !p.attrs[otlp.StandIn].Bool() || id || p.start != s.start || p.end != s.end || byID[p.parent] == nil || byID[p.parent].parent != "" {
					bad = append(bad, fmt.Sprintf("%s %s: parent %+v, not a stand-in under the root over its time", s.name, stream, *p))
				}
			}
		case "chat":
			if _, ok := s.attrs["agt.usage.scope"]; ok {
				continue // usage no model call carries
			}
			st.chats++
			_, in := s.attrs["gen_ai.input.messages"]
			_, out := s.attrs["gen_ai.output.messages"]
			if in && out {
				st.withMessages++
			}
			if in != content || out != content {
				bad = append(bad, fmt.Sprintf("%s: input messages %v, output messages %v, content %v", s.name, in, out, content))
			}
			for _, k := range []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions"} {
				if v, ok := s.attrs[k]; ok {
					if err := checkMessages(k, v.Str()); err != nil {
						bad = append(bad, fmt.Sprintf("%s: %s: %v", s.name, k, err))
					}
				}
			}
			for _, t := range all[:i] {
				if t.op == "execute_tool" && t.parent == s.parent && t.end > t.start && s.start <= t.start && t.end <= s.end {
					bad = append(bad, fmt.Sprintf("%s [%d, %d] holds the earlier %s [%d, %d]", s.name, s.start, s.end, t.name, t.start, t.end))
					break
				}
			}
		}
	}
	return bad, st
}

// checkMessages checks a chat span's messages against the structure the
// GenAI conventions give them (gen-ai-input-messages.json,
// gen-ai-output-messages.json, gen-ai-system-instructions.json): messages
// with a role and parts (output messages with a finish_reason), parts with
// a type and the fields their type requires.
func checkMessages(key, text string) error {
	var parts []map[string]any
	if key == "gen_ai.system_instructions" {
		if err := json.Unmarshal([]byte(text), &parts); err != nil {
			return err
		}
	} else {
		var msgs []struct {
			Role         *string          `json:"role"`
			Parts        []map[string]any `json:"parts"`
			FinishReason *string          `json:"finish_reason"`
		}
		if err := json.Unmarshal([]byte(text), &msgs); err != nil {
			return err
		}
		for _, m := range msgs {
			if m.Role == nil || *m.Role == "" || m.Parts == nil {
				return fmt.Errorf("a message without role or parts: %.200s", text)
			}
			if key == "gen_ai.output.messages" && (m.FinishReason == nil || *m.FinishReason == "") {
				return fmt.Errorf("an output message without finish_reason")
			}
			parts = append(parts, m.Parts...)
		}
	}
	need := map[string]string{"text": "content", "reasoning": "content", "tool_call": "name", "tool_call_response": "response"}
	for _, p := range parts {
		typ, _ := p["type"].(string)
		if typ == "" {
			return fmt.Errorf("a part without type: %v", p)
		}
		if f, ok := need[typ]; ok {
			if _, ok := p[f]; !ok {
				return fmt.Errorf("a %s part without %s", typ, f)
			}
		}
		if typ == "tool_call_response" || typ == "tool_call" {
			if _, ok := p["id"].(string); !ok {
				return fmt.Errorf("a %s part without id", typ)
			}
		}
	}
	return nil
}

// TestOTLPCorpus renders every corpus session and every live capture as
// OTLP, with and without content, and checks what backends read of the
// traces (checkOTLPTimes).
func TestOTLPCorpus(t *testing.T) {
	corpus := providertest.CorpusDir(t)
	bin := agtTranscript(t)
	var total otlpStats
	for _, dir := range append(corpusProviders(t), "other", "live") {
		out, err := exec.Command(bin, "-q", filepath.Join(corpus, dir)).Output()
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		var sum otlpStats
		for _, tr := range decode(t, out) {
			for _, content := range []bool{true, false} {
				var b bytes.Buffer
				o := otlpAt
				o.NoContent = !content
				if err := o.Write(&b, tr); err != nil {
					t.Fatal(err)
				}
				bad, st := checkOTLPTimes(tr, b.Bytes(), content)
				for _, msg := range bad {
					t.Errorf("%s/%s (content %v): %s", dir, tr.NativeSession, content, msg)
				}
				if content {
					sum.add(st)
				}
			}
		}
		t.Logf("%s: %+v", dir, sum)
		total.add(sum)
	}
	t.Logf("all: %d documents, %d spans, %d of %d chat spans with messages, %d of %d subagents under their call's execute_tool span (%d the log links to no call of the session: under a stand-in)",
		total.docs, total.spans, total.withMessages, total.chats, total.underTool, total.subagents, total.unlinked)
}
