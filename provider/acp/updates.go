package acp

import (
	"github.com/agt-project/agt"
)

// updates are the session/update kinds other than messages (see
// textKinds), by params.update.sessionUpdate.
var updates = map[string]func(p *parser, em *agt.Emitter, sid string, u *update){
	"tool_call":                 (*parser).toolCall,
	"tool_call_update":          (*parser).toolCall,
	"plan":                      (*parser).plan,
	"plan_update":               (*parser).plan,
	"available_commands_update": (*parser).commands,
	"current_mode_update":       (*parser).mode,
	"config_option_update":      (*parser).configOptions,
	"session_info_update":       (*parser).sessionInfo,
	"usage_update":              (*parser).usageUpdate,
	"notice":                    (*parser).notice,
	"compaction_update":         (*parser).plainUpdate,
	"state_update":              (*parser).state,
	"tool_call_content_chunk":   (*parser).toolContentChunk,
	"terminal_update":           (*parser).terminal,
	"terminal_output_chunk":     (*parser).terminal,
}

// update handles a session/update notification. It reports whether the
// line's events are held back (a message chunk joined with the next ones).
func (p *parser) update(em *agt.Emitter, sid string, u *update) bool {
	if tk, ok := textKinds[u.Kind]; ok {
		return p.text(em, sid, u, tk)
	}
	p.endRun(em)
	if u.Kind != "tool_call" && u.Kind != "tool_call_update" {
		p.flushCalls(em)
	}
	em.Session(sid)
	h := updates[u.Kind]
	if h == nil {
		em.Unknown(sid, "", "session/update:"+u.Kind)
		p.hit = true
		return false
	}
	h(p, em, sid, u)
	return false
}

// updateMeta emits the meta event of an update with data.
func (p *parser) updateMeta(em *agt.Emitter, sid string, u *update, data any) {
	m := &agt.Meta{Type: "session/update", Subtype: u.Kind}
	if data != nil {
		m.Data = nonEmpty(agt.Marshal(data))
	}
	p.meta(em, sid, m)
}

func (p *parser) plainUpdate(em *agt.Emitter, sid string, u *update) { p.updateMeta(em, sid, u, nil) }

func (p *parser) plan(em *agt.Emitter, sid string, u *update) {
	p.updateMeta(em, sid, u, struct {
		Entries agt.Raw `json:"entries,omitempty"`
	}{u.Entries})
}

func (p *parser) commands(em *agt.Emitter, sid string, u *update) {
	names := make([]string, 0, len(u.AvailableCommands))
	for _, c := range u.AvailableCommands {
		names = append(names, c.Name)
	}
	p.updateMeta(em, sid, u, struct {
		Commands []string `json:"commands"`
	}{names})
}

func (p *parser) mode(em *agt.Emitter, sid string, u *update) {
	p.updateMeta(em, sid, u, struct {
		CurrentModeID string `json:"currentModeId,omitempty"`
	}{u.CurrentModeID})
}

func (p *parser) configOptions(em *agt.Emitter, sid string, u *update) {
	p.updateMeta(em, sid, u, struct {
		ConfigOptions []configOption `json:"configOptions,omitempty"`
	}{u.ConfigOptions})
}

func (p *parser) sessionInfo(em *agt.Emitter, sid string, u *update) {
	d := struct {
		UpdatedAt string `json:"updatedAt,omitempty"`
	}{u.UpdatedAt}
	p.meta(em, sid, &agt.Meta{Type: "session/update", Subtype: u.Kind, Title: u.Title, Data: nonEmpty(agt.Marshal(d))})
}

// usageUpdate follows the session's context size and cumulative cost; the
// cost becomes native_cost_usd of the turn's usage event (see promptResult).
func (p *parser) usageUpdate(em *agt.Emitter, sid string, u *update) {
	p.cost(sid).observe(u, p.src, p.raw)
	p.updateMeta(em, sid, u, struct {
		Used *int64 `json:"used,omitempty"`
		Size *int64 `json:"size,omitempty"`
		Cost *cost  `json:"cost,omitempty"`
	}{u.Used, u.Size, u.Cost})
}

// notice is a message of the agent to the user: a system event.
func (p *parser) notice(em *agt.Emitter, sid string, u *update) {
	text := u.Title
	if u.Description != "" {
		if text != "" {
			text += "\n"
		}
		text += u.Description
	}
	m := &agt.Meta{Type: "session/update", Subtype: u.Kind}
	if u.Severity != "" {
		m.Data = agt.Marshal(struct {
			Severity string `json:"severity"`
		}{u.Severity})
	}
	p.emit(em, agt.Event{Kind: agt.KindSystem, NativeSession: sid, Text: agt.String(text), Meta: m}, "", "notice")
}

func (p *parser) state(em *agt.Emitter, sid string, u *update) {
	p.updateMeta(em, sid, u, struct {
		State agt.Raw `json:"state,omitempty"`
	}{u.State})
}

func (p *parser) terminal(em *agt.Emitter, sid string, u *update) {
	p.updateMeta(em, sid, u, struct {
		TerminalID string `json:"terminalId,omitempty"`
	}{u.TerminalID})
}
