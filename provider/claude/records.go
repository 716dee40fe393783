package claude

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agt-project/agt"
)

// ctx is one record being turned into events.
type ctx struct {
	p       *parser
	em      *agt.Emitter
	d       *decoded
	session string
	stream  string
	ts      string
}

// handlers maps record types to what they become. Types not listed are
// unknown events.
var handlers map[string]func(c *ctx)

func init() {
	handlers = map[string]func(c *ctx){
		"user":      (*ctx).user,
		"assistant": (*ctx).assistant,
		"system":    (*ctx).system,
		"progress":  (*ctx).progress,
		"summary": func(c *ctx) {
			c.emit(agt.Event{Kind: agt.KindSummary, Text: agt.String(c.d.rec.Summary), Meta: &agt.Meta{Type: "summary", Title: c.d.rec.Summary}}, "summary")
		},
		"custom-title":    func(c *ctx) { c.meta("custom-title", "", &agt.Meta{Title: c.d.rec.CustomTitle}) },
		"ai-title":        func(c *ctx) { c.meta("ai-title", "", &agt.Meta{Title: c.d.rec.AITitle}) },
		"agent-name":      func(c *ctx) { c.meta("agent-name", "", &agt.Meta{Agent: c.d.rec.AgentName}) },
		"relocated":       func(c *ctx) { c.meta("relocated", "", &agt.Meta{Cwd: c.d.rec.RelocatedCwd}) },
		"attachment":      (*ctx).attachment,
		"queue-operation": (*ctx).queueOperation,
		// live output
		"result":            (*ctx).result,
		"stream_event":      (*ctx).streamEvent,
		"tool_progress":     (*ctx).plainMeta,
		"rate_limit_event":  (*ctx).plainMeta,
		"tool_use_summary":  (*ctx).plainMeta,
		"auth_status":       (*ctx).plainMeta,
		"prompt_suggestion": (*ctx).plainMeta,
		"conversation_reset": func(c *ctx) {
			c.emit(agt.Event{Kind: agt.KindSystem, Text: agt.String("conversation reset"), Meta: &agt.Meta{Type: "conversation_reset"}}, "reset")
		},
		"active_goal": (*ctx).plainMeta,
	}
	for _, t := range metaTypes {
		handlers[t] = (*ctx).plainMeta
	}
}

// metaTypes are the record types with no conversational content (the
// "always" entries of Claude Code's entry-type table and the workflow
// journal records).
var metaTypes = []string{
	"file-history-snapshot", "last-prompt", "tag", "agent-color", "agent-setting", "pr-link", "frame-link",
	"bridge-session", "attribution-snapshot", "speculation-accept", "mode", "permission-mode", "isolation-latch",
	"worktree-state", "marble-origami-commit", "marble-origami-snapshot", "marble-origami-reset",
	"content-replacement", "fork-context-ref", "ended-by-model", "atis-latch", "started",
}

// systemKinds maps system subtypes to event kinds; subtypes not listed are
// system events when they carry content, meta events otherwise.
var systemKinds = map[string]string{
	"compact_boundary":       agt.KindSystem,
	"microcompact_boundary":  agt.KindSystem,
	"local_command":          agt.KindSlashCommand,
	"api_error":              agt.KindSystem,
	"error":                  agt.KindSystem,
	"api_refusal":            agt.KindSystem,
	"model_refusal_fallback": agt.KindSystem,
	"stop_hook_summary":      agt.KindMeta,
	"turn_duration":          agt.KindMeta,
	"session_start":          agt.KindMeta,
	// live output
	"init":              agt.KindMeta,
	"status":            agt.KindMeta,
	"thinking_tokens":   agt.KindMeta,
	"task_started":      agt.KindMeta,
	"task_progress":     agt.KindMeta,
	"task_updated":      agt.KindMeta,
	"task_notification": agt.KindMeta,
	"api_retry":         agt.KindSystem,
	"hook_started":      agt.KindMeta,
	"hook_progress":     agt.KindMeta,
	"hook_response":     agt.KindMeta,
}

// record emits the events of c's record.
func (c *ctx) record() {
	if h := handlers[c.d.rec.Type]; h != nil {
		h(c)
		return
	}
	c.em.Unknown(c.session, c.stream, c.d.rec.Type)
}

func (c *ctx) key() string { return c.d.rec.UUID }

// emit emits ev for the current record; suffix tells apart its events.
func (c *ctx) emit(ev agt.Event, suffix string) string {
	ev.NativeSession = c.session
	if ev.Stream == "" {
		ev.Stream = c.stream
	}
	if ev.TS == "" {
		ev.TS = c.ts
	}
	return c.em.Emit(ev, c.key(), suffix)
}

// meta emits a meta event; m may add fields to Type and Subtype.
func (c *ctx) meta(typ, sub string, m *agt.Meta) {
	if m == nil {
		m = &agt.Meta{}
	}
	m.Type, m.Subtype = typ, sub
	r := &c.d.rec
	if m.Cwd == "" {
		m.Cwd = r.Cwd
	}
	if c.p.leftOut(c, m.Cwd) { // a usage report's: not needed
		return
	}
	m.GitBranch, m.Version = r.GitBranch, r.Version
	c.emit(agt.Event{Kind: agt.KindMeta, Meta: m}, "meta")
}

func (c *ctx) plainMeta() { c.meta(c.d.rec.Type, c.d.rec.Subtype, nil) }

func (c *ctx) system() {
	r := &c.d.rec
	kind, ok := systemKinds[r.Subtype]
	if k := markupKind(string(r.Content)); kind == agt.KindSlashCommand && k != "" {
		kind = k // a local command's output is context, not the command
	}
	if !ok {
		kind = agt.KindMeta
		if len(r.Content) > 0 && r.Content[0] == '"' {
			kind = agt.KindSystem
		}
	}
	m := &agt.Meta{Type: "system", Subtype: r.Subtype, Cwd: r.Cwd, GitBranch: r.GitBranch, Version: r.Version}
	switch {
	case len(r.CompactMetadata) > 0:
		m.Data = agt.Raw(r.CompactMetadata)
	case len(r.MicrocompactMetadata) > 0:
		m.Data = agt.Raw(r.MicrocompactMetadata)
	case len(r.Error) > 0 && string(r.Error) != "null":
		m.Data = agt.Raw(r.Error)
	}
	if r.Subtype == "init" {
		m.Version = r.ClaudeVersion
		c.p.model = strings.Clone(r.Model)
		c.emit(agt.Event{Kind: agt.KindMeta, Model: r.Model, Meta: m}, "meta")
		return
	}
	if r.Subtype == "task_started" && r.ToolUseID != "" && r.TaskID != "" {
		c.p.tasks[strings.Clone(r.ToolUseID)] = strings.Clone(r.TaskID)
	}
	m.Outcome = systemOutcome(r)
	ev := agt.Event{Kind: kind, Meta: m}
	if kind != agt.KindMeta {
		ev.Text = text(r.Content)
		if ev.Text == nil {
			ev.Text = agt.String(strings.ReplaceAll(r.Subtype, "_", " "))
		}
	}
	c.emit(ev, "system")
}

// text keeps a content field when it is a string.
func text(r raw) agt.Raw {
	if len(r) > 2 && r[0] == '"' {
		return agt.Raw(r)
	}
	return nil
}

func (c *ctx) assistant() {
	c.p.queue.settle(c)
	r := &c.d.rec
	m := r.Message
	if m == nil {
		return
	}
	// the call's usage follows the line's own events
	defer func() {
		if c.p.live {
			c.p.liveCall(c)
		} else {
			c.p.addCall(c.em, r, c.session, c.stream, c.ts)
		}
	}()
	ev := agt.Event{Model: m.Model, MessageID: m.ID}
	if r.APIError || m.Model == "<synthetic>" {
		ev.Meta = &agt.Meta{Type: "assistant", Subtype: "api_error"}
	}
	if o := assistantOutcome(c.d); o != nil {
		if ev.Meta == nil {
			ev.Meta = &agt.Meta{Type: "assistant", Subtype: m.StopReason}
		}
		ev.Meta.Outcome = o
	}
	if c.d.text != nil {
		ev.Kind, ev.Text = agt.KindAssistant, agt.Raw(c.d.text)
		c.emit(ev, "text")
		c.saidText()
	}
	for i, b := range c.d.blocks {
		e := ev
		suffix := "b" + itoa(i)
		switch b.Type {
		case "text":
			e.Kind, e.Text = agt.KindAssistant, agt.Raw(b.Text)
			c.saidText()
		case "thinking":
			e.Kind, e.Text = agt.KindReasoning, agt.Raw(b.Thinking)
		case "redacted_thinking":
			e.Kind, e.Meta = agt.KindReasoning, &agt.Meta{Type: "redacted_thinking"}
		case "tool_use", "server_tool_use", "mcp_tool_use":
			e.Kind = agt.KindToolCall
			e.Tool = &agt.Tool{ID: b.ID, Name: b.Name, NativeName: b.Name, Input: agt.Raw(b.Input), NativeInput: agt.Raw(b.Input)}
			if b.ID != "" {
				suffix = "tool:" + b.ID
			} else { // a block without an id: one derived from its line and place
				e.Tool.ID = lineToolID(c.em.Line(), i)
			}
			id := c.emit(e, suffix)
			if b.ID != "" {
				c.p.calls[c.session+"\x00"+b.ID] = id
				c.notePrompt(b)
			}
			continue
		case "web_search_tool_result", "web_fetch_tool_result", "mcp_tool_result", "code_execution_tool_result":
			c.toolResult(b, suffix)
			continue
		default:
			e.Kind, e.Meta = agt.KindMeta, &agt.Meta{Type: "content", Subtype: b.Type}
		}
		c.emit(e, suffix)
	}
}

func (c *ctx) user() {
	defer c.p.queue.settle(c)
	c.linkInline()
	if c.d.text != nil {
		if c.p.queue.repeats(c, agt.Raw(c.d.text)) {
			c.meta("user", "queued", nil)
		} else {
			c.emit(c.userText(c.d.text), "text")
		}
	}
	for i, b := range c.d.blocks {
		suffix := "b" + itoa(i)
		switch b.Type {
		case "text":
			if c.p.queue.repeats(c, agt.Raw(b.Text)) {
				c.emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "user", Subtype: "queued"}}, suffix)
				continue
			}
			c.emit(c.userText(b.Text), suffix)
		case "tool_result":
			c.toolResult(b, suffix)
		default:
			c.emit(agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "content", Subtype: b.Type}}, suffix)
		}
	}
}

// userKind classifies a user text (a JSON string literal) by how Claude
// Code writes it: a compaction summary is a summary; injected context
// (isMeta records: command caveats, skill bodies, image notes, …) and the
// interruption marker are system events; text made of Claude Code's own
// tagged blocks is a command or context (see markupKind); the rest is the
// user's prompt.
func (c *ctx) userKind(lit string) string {
	r := &c.d.rec
	switch {
	case r.CompactSum:
		return agt.KindSummary
	case r.IsMeta, strings.HasPrefix(lit, `"[Request interrupted by user`):
		return agt.KindSystem
	}
	if k := markupKind(lit); k != "" {
		return k
	}
	return agt.KindUser
}

// userText is the event of a user text (a JSON string literal); an
// interrupt says how the turn ended.
func (c *ctx) userText(t raw) agt.Event {
	ev := agt.Event{Kind: c.userKind(string(t)), Text: agt.Raw(t), Meta: c.userMeta()}
	if o := userOutcome(string(t)); o != nil {
		if ev.Meta == nil {
			ev.Meta = &agt.Meta{Type: "user"}
		}
		ev.Meta.Outcome = o
	}
	return ev
}

func (c *ctx) userMeta() *agt.Meta {
	r := &c.d.rec
	if c.p.live {
		return nil
	}
	return &agt.Meta{Type: "user", Cwd: r.Cwd, GitBranch: r.GitBranch, Version: r.Version}
}

func (c *ctx) toolResult(b block, suffix string) {
	res := &agt.Result{ID: b.ToolUseID, Output: agt.Raw(b.Content), IsError: b.IsError, DurationMS: c.d.duration}
	if b.ToolUseID != "" {
		k := c.session + "\x00" + b.ToolUseID
		res.Call = c.p.calls[k]
		delete(c.p.calls, k) // a call has one result: only calls in flight are kept
		suffix = "result:" + b.ToolUseID
	}
	if b.IsError {
		res.ExitCode = exitCode(agt.Raw(b.Content))
	}
	ev := agt.Event{Kind: agt.KindToolResult, Result: res}
	link := c.d.agentLink
	if k := c.session + "\x00" + b.ToolUseID; link == "" && b.ToolUseID != "" {
		link = c.p.inline[k]
		delete(c.p.inline, k)
	}
	if link != "" {
		ev.Meta = &agt.Meta{Type: "tool_result", Agent: link}
	}
	c.emit(ev, suffix)
}

// progress handles progress records; agent_progress mirrors a subagent's
// record into the main file.
func (c *ctx) progress() {
	r := &c.d.rec
	if r.Data == nil {
		c.meta("progress", "", nil)
		return
	}
	if r.Data.Type != "agent_progress" || c.d.mirror == nil || c.d.mirror.rec.Type == "" {
		c.meta("progress", r.Data.Type, nil)
		return
	}
	if c.p.ownFile[r.Data.AgentID] { // the subagent's own file gives the record
		if m := c.d.mirror; !c.p.live && m.rec.Type == "assistant" {
			m.rec.RequestID = firstNonEmpty(m.rec.RequestID, r.RequestID)
			c.p.deferCall(c.em, &m.rec, c.session, "sidechain:"+r.Data.AgentID, agt.Timestamp(m.rec.Timestamp))
		}
		c.meta("progress", "mirrored", nil)
		return
	}
	m := c.d.mirror
	stream := "sidechain:" + r.Data.AgentID
	mc := ctx{p: c.p, em: c.em, d: m, session: c.session, stream: stream, ts: agt.Timestamp(m.rec.Timestamp)}
	if m.rec.UUID == "" {
		m.rec.UUID = r.UUID
	}
	if !c.p.live && m.rec.Type == "assistant" {
		m.rec.RequestID = firstNonEmpty(m.rec.RequestID, r.RequestID)
	}
	n := c.em.Count()
	mc.record()
	if c.em.Count() == n {
		c.meta("progress", r.Data.Type, nil)
	}
	c.p.mirror(c.session, m.rec.UUID)
}

func (c *ctx) result() {
	r := &c.d.rec
	if !c.p.live {
		c.plainMeta() // a workflow journal record
		return
	}
	c.p.runUsage(c)
	data := agt.Marshal(struct {
		Subtype   string   `json:"subtype,omitempty"`
		IsError   bool     `json:"is_error"`
		Errors    []string `json:"errors,omitempty"`
		TotalCost *float64 `json:"total_cost_usd,omitempty"`
		Duration  *int64   `json:"duration_ms,omitempty"`
		API       *int64   `json:"duration_api_ms,omitempty"`
	}{r.Subtype, r.IsError, r.Errors, r.TotalCost, r.Duration, r.DurationAPI})
	if a := text(r.Result); a != nil && !r.IsError && !c.p.said[c.session] && a.Str() != "" {
		// claude -p --output-format json: the answer is only here
		c.emit(agt.Event{Kind: agt.KindAssistant, Model: c.p.model, Text: a}, "answer")
		c.saidText()
	}
	ev := agt.Event{Kind: agt.KindMeta, Meta: &agt.Meta{Type: "result", Subtype: r.Subtype, Data: data, Outcome: resultOutcome(r)}}
	if r.IsError {
		ev.Kind = agt.KindSystem
		ev.Text = text(r.Result)
		if ev.Text == nil {
			ev.Text = agt.String(strings.Join(r.Errors, "\n"))
		}
	}
	c.emit(ev, "result")
}

// subagentTools are the tools that start a subagent with a prompt.
var subagentTools = map[string]bool{"Task": true, "Agent": true}

// notePrompt notes the prompt of a session log's subagent call (b), until
// an inline sidechain starts with it (linkInline).
func (c *ctx) notePrompt(b block) {
	if c.p.live || !subagentTools[b.Name] {
		return
	}
	var in struct {
		Prompt string `json:"prompt"`
	}
	if json.Unmarshal(b.Input, &in) == nil && in.Prompt != "" {
		c.p.prompts[c.session+"\x00"+in.Prompt] = strings.Clone(b.ID)
	}
}

// linkInline links a 1.0.x inline sidechain (isSidechain records without
// agentId) to the call that started it: its first record is the prompt of
// a subagent call; the call's result then names the sidechain's agent, as
// toolUseResult.agentId does in later versions.
func (c *ctx) linkInline() {
	r := &c.d.rec
	if c.p.live || !r.IsSidechain || r.AgentID != "" || r.ParentUUID != nil || c.d.text == nil {
		return
	}
	k := c.session + "\x00" + agt.Raw(c.d.text).Str()
	if call, ok := c.p.prompts[k]; ok {
		delete(c.p.prompts, k)
		c.p.inline[c.session+"\x00"+call] = strings.TrimPrefix(c.stream, "sidechain:")
	}
}

// saidText notes that live output gave assistant text in the session's
// main stream (its result then repeats it, and gives no message).
func (c *ctx) saidText() {
	if c.p.live && (c.stream == "" || c.stream == agt.StreamMain) {
		c.p.said[c.session] = true
	}
}

func (c *ctx) streamEvent() {
	sub := ""
	if e := c.d.rec.Event; e != nil {
		sub = e.Type
	}
	c.meta("stream_event", sub, nil)
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return strconv.Itoa(i)
}

// lineToolID is the tool id of the block-th block of a line when the block
// has none: "toolu_" and 16 hex digits of the SHA-256 of the line, then the
// block's index, the same in every copy of the file.
func lineToolID(line agt.Raw, block int) string {
	sum := sha256.Sum256(line)
	return "toolu_" + hex.EncodeToString(sum[:8]) + "_" + strconv.Itoa(block)
}
