package acp

import (
	"strconv"
	"strings"

	"github.com/agt-project/agt"
)

// method is what agt does with one ACP method.
type method struct {
	dir        int // the direction of its requests
	request    func(p *parser, em *agt.Emitter, r *record, pr *params)
	alwaysMeta bool // a meta event even when request emitted events
	result     func(p *parser, em *agt.Emitter, res *result, sid string, m *agt.Meta)
}

// methods are the ACP methods (schema v1 and v2 of SDK 2.4.0). The requests
// of the agent to the client (fs/*, terminal/*, session/request_permission)
// are meta events: they serve a tool call the session/update notifications
// already report as tool_call and tool_result events.
var methods = map[string]method{
	// client → agent
	"initialize":                {dir: dirToAgent, result: (*parser).initialized},
	"authenticate":              {dir: dirToAgent},
	"logout":                    {dir: dirToAgent},
	"session/new":               {dir: dirToAgent, result: sessionResult},
	"session/load":              {dir: dirToAgent, result: sessionResult},
	"session/resume":            {dir: dirToAgent, result: sessionResult},
	"session/fork":              {dir: dirToAgent, result: sessionResult},
	"session/list":              {dir: dirToAgent},
	"session/close":             {dir: dirToAgent},
	"session/prompt":            {dir: dirToAgent, request: (*parser).prompt, result: (*parser).promptResult},
	"session/cancel":            {dir: dirToAgent},
	"session/set_mode":          {dir: dirToAgent},
	"session/set_model":         {dir: dirToAgent},
	"session/set_config_option": {dir: dirToAgent},
	// agent → client
	"session/update":             {dir: dirToClient},
	"session/request_permission": {dir: dirToClient, request: (*parser).permission, alwaysMeta: true},
	"fs/read_text_file":          {dir: dirToClient},
	"fs/write_text_file":         {dir: dirToClient},
	"terminal/create":            {dir: dirToClient},
	"terminal/output":            {dir: dirToClient},
	"terminal/release":           {dir: dirToClient},
	"terminal/wait_for_exit":     {dir: dirToClient},
	"terminal/kill":              {dir: dirToClient},
}

// isExtension reports an ACP extension method ("_" prefix, e.g. "_zed/…").
func isExtension(m string) bool { return strings.HasPrefix(m, "_") }

// requestData is the small part of a request's params worth keeping (never
// prompts or file contents).
func requestData(pr *params) agt.Raw {
	d := struct {
		ProtocolVersion agt.Raw    `json:"protocolVersion,omitempty"`
		ClientInfo      *agentInfo `json:"clientInfo,omitempty"`
		MethodID        string     `json:"methodId,omitempty"`
		MCPServers      []string   `json:"mcpServers,omitempty"`
		ModeID          string     `json:"modeId,omitempty"`
		ModelID         string     `json:"modelId,omitempty"`
		ConfigID        string     `json:"configId,omitempty"`
		Value           agt.Raw    `json:"value,omitempty"`
		ToolCallID      string     `json:"toolCallId,omitempty"`
		Options         []string   `json:"options,omitempty"`
		Path            string     `json:"path,omitempty"`
		Line            *int64     `json:"line,omitempty"`
		Limit           *int64     `json:"limit,omitempty"`
		Command         string     `json:"command,omitempty"`
		Args            []string   `json:"args,omitempty"`
		TerminalID      string     `json:"terminalId,omitempty"`
	}{
		ProtocolVersion: pr.ProtocolVersion, ClientInfo: pr.ClientInfo, MethodID: pr.MethodID,
		ModeID: pr.ModeID, ModelID: pr.ModelID, ConfigID: pr.ConfigID, Value: pr.Value,
		Path: pr.Path, Line: pr.Line, Limit: pr.Limit, Command: pr.Command, Args: pr.Args, TerminalID: pr.TerminalID,
	}
	for _, s := range pr.MCPServers {
		d.MCPServers = append(d.MCPServers, s.Name)
	}
	if pr.ToolCall != nil {
		d.ToolCallID = pr.ToolCall.ToolCallID
	}
	for _, o := range pr.Options {
		d.Options = append(d.Options, o.OptionID)
	}
	return nonEmpty(agt.Marshal(d))
}

// resultData is the small part of a result worth keeping.
func resultData(res *result) agt.Raw {
	d := struct {
		ProtocolVersion agt.Raw    `json:"protocolVersion,omitempty"`
		AgentInfo       *agentInfo `json:"agentInfo,omitempty"`
		SessionID       string     `json:"sessionId,omitempty"`
		CurrentModeID   string     `json:"currentModeId,omitempty"`
		CurrentModelID  string     `json:"currentModelId,omitempty"`
		StopReason      string     `json:"stopReason,omitempty"`
		Outcome         string     `json:"outcome,omitempty"`
		OptionID        string     `json:"optionId,omitempty"`
		TerminalID      string     `json:"terminalId,omitempty"`
		ExitCode        *int       `json:"exitCode,omitempty"`
		Signal          string     `json:"signal,omitempty"`
		Truncated       *bool      `json:"truncated,omitempty"`
		ExitStatus      agt.Raw    `json:"exitStatus,omitempty"`
	}{
		ProtocolVersion: res.ProtocolVersion, AgentInfo: res.AgentInfo, SessionID: res.SessionID,
		StopReason: res.StopReason, TerminalID: res.TerminalID, ExitCode: res.ExitCode, Signal: res.Signal,
		Truncated: res.Truncated, ExitStatus: res.ExitStatus,
	}
	if res.Modes != nil {
		d.CurrentModeID = res.Modes.CurrentModeID
	}
	if res.Models != nil {
		d.CurrentModelID = res.Models.CurrentModelID
	}
	if res.Outcome != nil {
		d.Outcome, d.OptionID = res.Outcome.Outcome, res.Outcome.OptionID
	}
	return nonEmpty(agt.Marshal(d))
}

func nonEmpty(r agt.Raw) agt.Raw {
	if string(r) == "{}" {
		return nil
	}
	return r
}

// initialized reads the agent's name: the provider of the capture's events
// when it is a known agent and no event has been given a session yet.
func (p *parser) initialized(em *agt.Emitter, res *result, _ string, m *agt.Meta) {
	if res.AgentInfo == nil {
		return
	}
	m.Agent, m.Version = res.AgentInfo.Name, res.AgentInfo.Version
	if a := findAgent(res.AgentInfo); a != nil {
		p.agent = a
		if em.Current() == "" {
			em.Provider = a.provider
		}
	}
}

// sessionResult is the result of session/new, load, resume, fork: the
// session was set from its sessionId already.
func sessionResult(*parser, *agt.Emitter, *result, string, *agt.Meta) {}

// prompt emits the user's prompt: one user event with its text blocks, and a
// meta event listing its other blocks (images, resources).
func (p *parser) prompt(em *agt.Emitter, r *record, pr *params) {
	text, others := splitBlocks(pr.Prompt, "\n\n")
	if len(text) > 0 {
		p.emit(em, agt.Event{Kind: agt.KindUser, NativeSession: pr.SessionID, Text: text}, "", "user")
	}
	if len(others) > 0 {
		p.emit(em, agt.Event{Kind: agt.KindMeta, NativeSession: pr.SessionID,
			Meta: &agt.Meta{Type: r.method, Subtype: "attachments", Data: agt.Marshal(others)}}, "", "attachments")
	}
}

// promptResult emits the usage of a prompt turn: its tokens (scope "run")
// and the cost the session's usage_update counter grew by since the last
// turn.
func (p *parser) promptResult(em *agt.Emitter, res *result, sid string, m *agt.Meta) {
	evs := turnUsage(res, p.agent.cache)
	if c := p.costs[sid]; c != nil {
		if d := c.take(); d != nil {
			if len(evs) == 0 {
				evs = append(evs, &agt.Event{Kind: agt.KindUsage, Usage: &agt.Usage{Scope: agt.ScopeRun}})
			}
			evs[0].Usage.NativeCostUSD = d
		}
		for _, ev := range evs {
			ev.Usage.ContextWindow = c.size
		}
	}
	for i, ev := range evs {
		ev.NativeSession = sid
		suffix := "usage"
		if i > 0 {
			suffix += ":" + strconv.Itoa(i)
		}
		p.emit(em, *ev, "", suffix)
	}
}

// permission merges the tool call a permission request describes (Gemini's
// first sight of a call that needs approval).
func (p *parser) permission(em *agt.Emitter, r *record, pr *params) {
	if pr.ToolCall != nil && pr.ToolCall.ToolCallID != "" {
		p.toolUpdate(em, pr.SessionID, pr.ToolCall)
	}
}
