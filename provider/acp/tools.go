package acp

import (
	"strings"

	"github.com/agt-project/agt"
)

// Tool call statuses.
const (
	statusCompleted = "completed"
	statusFailed    = "failed"
	statusCancelled = "cancelled" // schema v2
)

// terminal are the statuses that end a call; true: the call failed.
var terminal = map[string]bool{statusCompleted: false, statusFailed: true, statusCancelled: true}

// call is one tool call, merged from its tool_call, tool_call_update and
// session/request_permission toolCall objects (patch semantics: a field
// present replaces the one before).
type call struct {
	session, id string
	key         string // event key: the toolCallId, made unique if reused

	title, kind, status, name, claudeName string
	rawInput, rawOutput, content          agt.Raw
	outContent                            agt.Raw // content sent once the call runs
	locations, toolResponse               agt.Raw
	exitCode                              *int

	callEvent string // event id of its tool_call event
	emitted   bool   // its tool_call event was emitted
	done      bool   // its tool_result event was emitted
	src       agt.Src
	raw       agt.Raw // the last line that described it
}

func (c *call) merge(u *update) {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	setRaw := func(dst *agt.Raw, v agt.Raw) {
		if len(v) > 0 {
			*dst = v
		}
	}
	set(&c.title, u.Title)
	set(&c.kind, u.ToolKind)
	set(&c.status, u.Status)
	set(&c.name, u.Name)
	setRaw(&c.rawInput, u.RawInput)
	setRaw(&c.rawOutput, u.RawOutput)
	setRaw(&c.content, u.Content)
	if _, end := terminal[u.Status]; c.emitted || end {
		setRaw(&c.outContent, u.Content)
	}
	setRaw(&c.locations, u.Locations)
	if cc := u.Meta; cc != nil && cc.ClaudeCode != nil {
		set(&c.claudeName, cc.ClaudeCode.ToolName)
		setRaw(&c.toolResponse, cc.ClaudeCode.ToolResponse)
	}
	if u.exitCode != nil {
		c.exitCode = u.exitCode
	}
}

// ready reports whether the call's tool_call event can be emitted: its
// input is known. Claude's tool_call carries a placeholder rawInput {} that
// the next tool_call_update fills; a call with no rawInput at all (Gemini)
// is described by its title, kind, locations and content from the start.
func (c *call) ready() bool {
	return !isEmptyObject(c.rawInput) || c.terminal()
}

func (c *call) terminal() bool {
	_, end := terminal[c.status]
	return end
}

// toolName is the native name of the tool: the update's name, Claude Code's
// _meta.claudeCode.toolName, the name Gemini puts in its call ids
// ("<name>__<name>_<time>_<n>"), or else the ACP kind (read, edit,
// execute…; Copilot names no tool).
func (c *call) toolName() string {
	for _, n := range []string{c.name, c.claudeName, idName(c.id), c.kind} {
		if n != "" {
			return n
		}
	}
	return "other"
}

// idName finds "<name>__<name>_…" in a call id.
func idName(id string) string {
	for i := 0; ; {
		j := strings.Index(id[i:], "__")
		if j < 0 {
			return ""
		}
		i += j
		if name := id[:i]; name != "" && strings.HasPrefix(id[i+2:], name+"_") {
			return name
		}
		i += 2
	}
}

// input is the call's input: its rawInput, or else the ACP description of
// the call ({title, kind, locations, content}).
func (c *call) input() agt.Raw {
	if len(c.rawInput) > 0 && !isEmptyObject(c.rawInput) {
		return agt.ToolArgs(c.rawInput)
	}
	d := struct {
		Title     string  `json:"title,omitempty"`
		Kind      string  `json:"kind,omitempty"`
		Locations agt.Raw `json:"locations,omitempty"`
		Content   agt.Raw `json:"content,omitempty"`
	}{Title: c.title, Kind: c.kind}
	if !emptyArray(c.locations) {
		d.Locations = c.locations
	}
	if !emptyArray(c.content) {
		d.Content = c.content
	}
	return agt.Marshal(d)
}

func emptyArray(r agt.Raw) bool {
	t := strings.TrimSpace(string(r))
	return t == "" || t == "null" || strings.ReplaceAll(t, " ", "") == "[]"
}

// output is the result's output: rawOutput, else the content the agent
// sent since the call started running (earlier content describes the call),
// else Claude Code's toolResponse.
func (c *call) output() agt.Raw {
	switch {
	case !c.rawOutput.IsNull():
		return c.rawOutput
	case !emptyArray(c.outContent):
		return c.outContent
	case !c.toolResponse.IsNull():
		return c.toolResponse
	}
	return nil
}

// toolCall handles tool_call and tool_call_update.
func (p *parser) toolCall(em *agt.Emitter, sid string, u *update) {
	p.toolUpdate(em, sid, u)
	if !p.hit {
		p.updateMeta(em, sid, u, struct {
			ToolCallID string `json:"toolCallId"`
			Status     string `json:"status,omitempty"`
		}{u.ToolCallID, u.Status})
	}
}

// toolContentChunk (schema v2) adds to a call's content: a meta event.
func (p *parser) toolContentChunk(em *agt.Emitter, sid string, u *update) {
	p.updateMeta(em, sid, u, struct {
		ToolCallID string `json:"toolCallId"`
	}{u.ToolCallID})
}

// toolUpdate merges a description of a call and emits its tool_call event
// on the first sight with its input known, and its tool_result event when
// its status becomes completed, failed or cancelled.
func (p *parser) toolUpdate(em *agt.Emitter, sid string, u *update) {
	k := sid + "\x00" + u.ToolCallID
	c := p.calls[k]
	if c == nil || (c.done && u.Kind == "tool_call") {
		c = &call{session: sid, id: u.ToolCallID, key: p.unique("tool", sid, u.ToolCallID)}
		p.calls[k] = c
	}
	c.merge(u)
	c.src, c.raw = p.src, p.raw
	if !c.emitted {
		if !c.ready() {
			if len(p.deferred) == 0 || p.deferred[len(p.deferred)-1] != c {
				p.deferred = append(p.deferred, c)
			}
			return
		}
		p.emitCall(em, c)
	}
	if !c.done && c.terminal() {
		p.emitResult(em, c)
	}
}

// flushCalls emits the tool_call events still waiting for their input, at
// the last line that described each.
func (p *parser) flushCalls(em *agt.Emitter) {
	for _, c := range p.deferred {
		if !c.emitted {
			em.SetSrc(c.src, c.raw)
			p.emitCall(em, c)
			em.SetSrc(p.src, p.raw)
		}
	}
	p.deferred = p.deferred[:0]
}

func (p *parser) emitCall(em *agt.Emitter, c *call) {
	name, in := c.toolName(), c.input()
	ev := agt.Event{
		Kind:          agt.KindToolCall,
		NativeSession: c.session,
		Tool:          &agt.Tool{ID: c.id, Name: name, NativeName: name, Input: in, NativeInput: in},
		Meta:          &agt.Meta{Type: "tool_call", Subtype: c.kind, Title: c.title},
	}
	c.emitted = true
	c.callEvent = p.emit(em, ev, c.key, "call")
	if c.callEvent == "" {
		c.callEvent = em.EventID(c.session, c.key, "call")
	}
}

// emitResult emits the call's tool_result: an error when the status is
// failed (or cancelled) or the shell's exit code is not 0 (Copilot reports
// failed commands as completed).
func (p *parser) emitResult(em *agt.Emitter, c *call) {
	c.done = true
	isErr := terminal[c.status] || (c.exitCode != nil && *c.exitCode != 0)
	p.emit(em, agt.Event{
		Kind:          agt.KindToolResult,
		NativeSession: c.session,
		Result:        &agt.Result{ID: c.id, Call: c.callEvent, Output: c.output(), IsError: isErr, ExitCode: c.exitCode},
	}, c.key, "result")
}
