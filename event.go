package agt

import "math"

// Schema is the value of every event's schema field.
const Schema = "agt.event/1"

// Event kinds.
const (
	KindUser         = "user"
	KindAssistant    = "assistant"
	KindReasoning    = "reasoning"
	KindToolCall     = "tool_call"
	KindToolResult   = "tool_result"
	KindUsage        = "usage"
	KindSystem       = "system"
	KindSummary      = "summary"
	KindSlashCommand = "slash_command"
	KindMeta         = "meta"
	KindUnknown      = "unknown"
	KindError        = "error"
)

// Usage scopes.
const (
	ScopeCall = "call" // one model call
	ScopeRun  = "run"  // a total the source reports for a run instead of per call
)

// StreamMain is the stream of the top-level conversation.
const StreamMain = "main"

// Event is one agt.event/1 record. Field order is the wire order.
// MessageID is the provider's id of the model call (the message) an
// assistant, reasoning or tool_call event belongs to, where the source names
// it (Claude Code's message.id, Gemini CLI's message id): the message_id of
// that call's usage.
type Event struct {
	Schema        string  `json:"schema"`
	ID            string  `json:"id"`
	Session       string  `json:"session"`
	NativeSession string  `json:"native_session"`
	Provider      string  `json:"provider"`
	Format        string  `json:"format"`
	Seq           int64   `json:"seq"`
	TS            string  `json:"ts,omitempty"`
	Parent        string  `json:"parent,omitempty"`
	Stream        string  `json:"stream"`
	Kind          string  `json:"kind"`
	Text          Raw     `json:"text,omitempty"`
	Model         string  `json:"model,omitempty"`
	MessageID     string  `json:"message_id,omitempty"` // the model call of an assistant-side event
	Tool          *Tool   `json:"tool,omitempty"`
	Result        *Result `json:"result,omitempty"`
	Usage         *Usage  `json:"usage,omitempty"`
	Meta          *Meta   `json:"meta,omitempty"`
	Error         *Error  `json:"error,omitempty"`
	Src           Src     `json:"src"`
	Raw           Raw     `json:"raw,omitempty"`

	// Orig is the line an event was read from, when it was read as an
	// agt.event/1 line; writers copy it instead of encoding the event again.
	// Whatever changes the event must set it to nil.
	Orig []byte `json:"-"`
	// Root is the id the event's record has in the session its session
	// continues (Emitter.Continues): what a resumed session's copy of a
	// record shares with the original. Not written.
	Root string `json:"-"`
}

// Tool is a tool call. agt-parse sets Name = NativeName and Input = NativeInput;
// agt-normalize sets the canonical Name, Kind, Origin, MCP and Input.
type Tool struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	NativeName string `json:"native_name"`
	Kind       string `json:"kind,omitempty"`
	Origin     string `json:"origin,omitempty"`
	// Via is "shell" for a call made through the shell that only reads,
	// lists or searches: read as the tool it performs, or kept as Bash
	// with its kind on request.
	Via         string `json:"via,omitempty"`
	MCP         *MCP   `json:"mcp,omitempty"`
	Input       Raw    `json:"input,omitempty"`
	NativeInput Raw    `json:"native_input,omitempty"`
	// Cwd is the working folder of the call's session where the events
	// before it named one (set by a normalizer's first, in-order pass; not
	// written out): relative paths are joined to it.
	Cwd string `json:"-"`
}

// MCP names the server and tool of an MCP tool call. Skill is set where
// the log shows that the call loaded a skill, whatever the server is named:
// the skill's name, as the SKILL.md the server returned names it.
type MCP struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	Skill  string `json:"skill,omitempty"`
}

// Result is the outcome of a tool call. Call is the event id of the call when
// the call was seen in the same session.
type Result struct {
	ID       string `json:"id"`
	Call     string `json:"call,omitempty"`
	Output   Raw    `json:"output,omitempty"`
	IsError  bool   `json:"is_error"`
	ExitCode *int   `json:"exit_code,omitempty"`
	// DurationMS is how long the tool ran, where the log says so.
	DurationMS *int64 `json:"duration_ms,omitempty"`
}

// Usage is the token usage of one model call (scope "call") or of one run
// (scope "run"). Input excludes cached tokens; CacheRead and CacheWrite are
// separate; CacheWrite1h is the part of CacheWrite written with a one-hour
// lifetime; Output includes Reasoning; Total = Input + CacheRead + CacheWrite + Output.
type Usage struct {
	Scope         string   `json:"scope"`
	Input         int64    `json:"input"`
	CacheRead     int64    `json:"cache_read"`
	CacheWrite    int64    `json:"cache_write"`
	CacheWrite1h  int64    `json:"cache_write_1h"`
	Output        int64    `json:"output"`
	Reasoning     int64    `json:"reasoning"`
	Total         int64    `json:"total"`
	CostUSD       *float64 `json:"cost_usd,omitempty"`
	NativeCostUSD *float64 `json:"native_cost_usd,omitempty"`
	ContextWindow int64    `json:"context_window,omitempty"`
	MessageID     string   `json:"message_id,omitempty"`
	// Speed is the service speed of the call when it is not the standard
	// one (Claude's "fast" mode, billed at a multiple).
	Speed string `json:"speed,omitempty"`
	// Provisional marks the usage of a call whose figures may still change:
	// later usage events of the same call (same session and message id) add
	// the differences, and a run-scope event of the session settles every
	// provisional call before it (its figures are what the run adds to
	// them).
	Provisional bool `json:"provisional,omitempty"`
}

// Sum sets Total from the parts.
func (u *Usage) Sum() { u.Total = u.Input + u.CacheRead + u.CacheWrite + u.Output }

// Add adds the token counts of v to u (costs are added when both are set or
// u has none yet). Sums saturate at the int64 bounds instead of wrapping; a
// cost sum that is not finite is dropped.
func (u *Usage) Add(v *Usage) {
	if v == nil {
		return
	}
	u.Input = addCount(u.Input, v.Input)
	u.CacheRead = addCount(u.CacheRead, v.CacheRead)
	u.CacheWrite = addCount(u.CacheWrite, v.CacheWrite)
	u.CacheWrite1h = addCount(u.CacheWrite1h, v.CacheWrite1h)
	u.Output = addCount(u.Output, v.Output)
	u.Reasoning = addCount(u.Reasoning, v.Reasoning)
	u.Total = addCount(u.Total, v.Total)
	u.CostUSD = addCost(u.CostUSD, v.CostUSD)
	u.NativeCostUSD = addCost(u.NativeCostUSD, v.NativeCostUSD)
}

// addCount is a + b, held at the int64 bounds.
func addCount(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

func addCost(a, b *float64) *float64 {
	if b == nil {
		return a
	}
	s := *b
	if a != nil {
		s = math.Round((s+*a)*1e10) / 1e10 // sums keep no float noise
	}
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return nil
	}
	return &s
}

// Meta carries provider facts with no conversational content. Type is the
// native record type; Data keeps the record's payload when it has no
// dedicated field.
type Meta struct {
	Type          string `json:"type"`
	Subtype       string `json:"subtype,omitempty"`
	Cwd           string `json:"cwd,omitempty"`
	GitBranch     string `json:"git_branch,omitempty"`
	Version       string `json:"version,omitempty"`
	Title         string `json:"title,omitempty"`
	Agent         string `json:"agent,omitempty"`
	ParentSession string `json:"parent_session,omitempty"`
	// Continues is set on the meta event (type session_named) that opens a
	// session named late: the native id of the provisional session whose
	// events it continues (see Emitter.Provisional); and on a duplicate
	// event whose original is another session's (a resumed or forked
	// session's copy of it): that session's native id.
	Continues string `json:"continues,omitempty"`
	// Of is set on a duplicate event (type duplicate): the id of the event
	// whose record it repeats.
	Of string `json:"of,omitempty"`
	// Outcome is set on the event of a record that says how the run (or
	// its current turn) ended: a result, a failed turn, an API error, an
	// interrupt. Each provider maps its own signals to it.
	Outcome *Outcome `json:"outcome,omitempty"`
	Data    Raw      `json:"data,omitempty"`
}

// MetaDuplicate is the meta type of an event standing for a record that an
// earlier input of the run already held (a copy, a backup, a resumed
// session's copied history): it accounts for its line and counts for
// nothing; meta.of names the event it repeats.
const MetaDuplicate = "duplicate"

// DuplicateOf is the id of the event that ev repeats when ev is a duplicate
// event, "" for any other event.
func DuplicateOf(ev *Event) string {
	if ev.Kind != KindMeta || ev.Meta == nil || ev.Meta.Type != MetaDuplicate {
		return ""
	}
	return ev.Meta.Of
}

// Outcome is how a run or a turn ended, as a record of the agent says it.
// Status is one of the Outcome* constants a signal may carry (success,
// error, max_turns, interrupted); Reason is the agent's own words for it:
// its error message for a failure, else the name of its signal (a result
// subtype, a stop reason).
type Outcome struct {
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// Outcome statuses. A signal carries one of the first four; a transcript
// also says truncated (the log is cut: its last line is unreadable, or it
// ends in a tool call with no result) or unknown (no end signal).
const (
	OutcomeSuccess     = "success"
	OutcomeError       = "error"
	OutcomeMaxTurns    = "max_turns"
	OutcomeInterrupted = "interrupted"
	OutcomeTruncated   = "truncated"
	OutcomeUnknown     = "unknown"
)

// signalled are the statuses a signal (Meta.Outcome) may carry.
var signalled = map[string]bool{OutcomeSuccess: true, OutcomeError: true, OutcomeMaxTurns: true, OutcomeInterrupted: true}

// Failed tells whether a status is a failure of the run: an error or the
// turn limit reached.
func Failed(status string) bool { return status == OutcomeError || status == OutcomeMaxTurns }

// MetaNamed is the meta type of the event that ties a provisional session
// to the session the stream names later.
const MetaNamed = "session_named"

// ProvisionalPrefix begins the native id of a provisional session.
const ProvisionalPrefix = "provisional-"

// Continued is the agt session id of the provisional session that ev
// (a session_named event) ties to its own session, "" for any other event.
func Continued(ev *Event) string {
	if ev.Kind != KindMeta || ev.Meta == nil || ev.Meta.Continues == "" || ev.Meta.Type != MetaNamed {
		return ""
	}
	p := SessionID(ev.Provider, ev.Meta.Continues)
	if p == ev.Session {
		return ""
	}
	return p
}

// Error describes input that could not be read. LineText keeps the offending
// input.
type Error struct {
	Message  string `json:"message"`
	LineText string `json:"line_text,omitempty"`
}

// Src says where an event came from: a line of a line format, or a JSON
// pointer into a whole-document format.
type Src struct {
	Path string `json:"path"`
	Line int64  `json:"line,omitempty"`
	Ptr  string `json:"ptr,omitempty"`
}
