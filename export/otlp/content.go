package otlp

import (
	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/transcript"
)

// message is a message of gen_ai.input.messages or gen_ai.output.messages
// (the GenAI conventions' ChatMessage and OutputMessage).
type message struct {
	Role         string `json:"role"`
	Parts        []part `json:"parts"`
	FinishReason string `json:"finish_reason,omitempty"`
}

// part is a message part: text (and reasoning) with content, a tool call
// with id, name and arguments, a tool call's response with id and
// response.
type part struct {
	Type      string  `json:"type"`
	Content   *string `json:"content,omitempty"`
	ID        string  `json:"id,omitempty"`
	Name      string  `json:"name,omitempty"`
	Arguments agt.Raw `json:"arguments,omitempty"`
	Response  *string `json:"response,omitempty"`
}

func textPart(typ, s string) part { return part{Type: typ, Content: &s} }

// inputRoles are where a message that is not the model's reaches the next
// model call, by role and kind: "user" as a user message of
// gen_ai.input.messages, "system" as a part of gen_ai.system_instructions;
// a message not listed (an error the agent logged, a title) is not sent to
// the model.
var inputRoles = map[[2]string]string{
	{transcript.RoleUser, ""}:                          "user",
	{transcript.RoleUser, transcript.KindCommand}:      "user",
	{transcript.RoleUser, transcript.KindCompaction}:   "user",
	{transcript.RoleSystem, ""}:                        "system",
	{transcript.RoleSystem, transcript.KindCompaction}: "system",
}

// pending is what the next model call is sent: the messages since the
// call before it and that call's tool results.
type pending struct {
	system  []part
	user    []message
	results []*transcript.ToolCall
}

// note adds a message that is not the model's.
func (p *pending) note(m *transcript.Message) {
	text := export.Text(m.Text)
	if text == "" {
		return
	}
	switch inputRoles[[2]string{m.Role, m.Kind}] {
	case "user":
		p.user = append(p.user, message{Role: "user", Parts: []part{textPart("text", text)}})
	case "system":
		p.system = append(p.system, textPart("text", text))
	}
}

// attrs are the chat span's gen_ai.system_instructions and
// gen_ai.input.messages: the tool results first (they answer the previous
// call), then the messages, as the agent sent them.
func (p *pending) attrs(tr *trace) []KV {
	var out []KV
	if len(p.system) > 0 {
		out = append(out, str("gen_ai.system_instructions", tr.jsonText(p.system)))
	}
	var in []message
	if len(p.results) > 0 {
		tool := message{Role: "tool"}
		for _, tc := range p.results {
			r := export.ResultText(tc.Output)
			tool.Parts = append(tool.Parts, part{Type: "tool_call_response", ID: tc.ID, Response: &r})
		}
		in = append(in, tool)
	}
	in = append(in, p.user...)
	if in == nil {
		in = []message{}
	}
	return append(out, str("gen_ai.input.messages", tr.jsonText(in)))
}

// output is a model's reply as an output message: its reasoning, text and
// tool calls (by the names the model used).
func output(m *transcript.Message) message {
	out := message{Role: "assistant", Parts: []part{}, FinishReason: finishReason(m)}
	if s := export.Text(m.Reasoning); s != "" {
		out.Parts = append(out.Parts, textPart("reasoning", s))
	}
	if s := export.Text(m.Text); s != "" {
		out.Parts = append(out.Parts, textPart("text", s))
	}
	for i := range m.ToolCalls {
		tc := &m.ToolCalls[i]
		name := tc.NativeName
		if name == "" {
			name = tc.Name
		}
		out.Parts = append(out.Parts, part{Type: "tool_call", ID: tc.ID, Name: name, Arguments: tc.Input})
	}
	return out
}

// finishReason is why a reply ended, in the conventions' words: an error
// the agent logged, a tool call, else stop.
func finishReason(m *transcript.Message) string {
	switch {
	case m.Kind == transcript.KindError:
		return "error"
	case len(m.ToolCalls) > 0:
		return "tool_call"
	}
	return "stop"
}

// jsonText is v as JSON text, without the line's end.
func (tr *trace) jsonText(v any) string {
	tr.scratch = transcript.AppendJSON(tr.scratch[:0], v)
	return string(tr.scratch[:len(tr.scratch)-1])
}
