package copilot

import "github.com/agt-project/agt"

// handler emits the events of one decoded record of a type with
// conversational content (or usage).
type handler func(p *sessionParser, em *agt.Emitter, r *rec)

// typeSpec says how a record type is read. Types with a handler are decoded
// in full (data); the others become one meta event whose Meta.Data is the
// record's data when keep is set (types whose data is large or repeats
// content found elsewhere drop it; the record stays in raw with --raw).
type typeSpec struct {
	handle   handler
	keep     bool
	sub      func(m *metaFields) string // Meta.Subtype
	model    func(m *metaFields) string // Event.Model
	switches bool                       // the model becomes the session's current model
	// outcome is the status the record says of how the run or its turn
	// ended (meta.outcome), "" for none
	outcome string
}

// metaFields are the fields of meta-only records that give Meta its
// Subtype, Title or Agent, and the event its stream and model.
type metaFields struct {
	InfoType         string  `json:"infoType"`
	WarningType      string  `json:"warningType"`
	HookType         string  `json:"hookType"`
	NewMode          string  `json:"newMode"`
	NewModel         string  `json:"newModel"`
	ChosenModel      string  `json:"chosenModel"`
	Model            string  `json:"model"`
	Title            string  `json:"title"`
	AgentName        string  `json:"agentName"`
	Operation        string  `json:"operation"`
	Reason           agt.Raw `json:"reason"`
	ParentToolCallID string  `json:"parentToolCallId"`
}

func subInfo(m *metaFields) string    { return m.InfoType }
func subWarning(m *metaFields) string { return m.WarningType }
func subHook(m *metaFields) string    { return m.HookType }
func subMode(m *metaFields) string    { return m.NewMode }
func subOp(m *metaFields) string      { return m.Operation }
func subReason(m *metaFields) string  { return str(m.Reason) }
func modelNew(m *metaFields) string   { return m.NewModel }
func modelChosen(m *metaFields) string {
	return m.ChosenModel
}
func modelField(m *metaFields) string { return m.Model }

// types lists every record type of Copilot CLI's session events (the
// SessionEvent union of @github/copilot-sdk, the types seen in real logs,
// and the live `-p --output-format json` stream). Any other type is an
// unknown event.
var types = map[string]typeSpec{
	// session lifecycle
	"session.start":                       {keep: true, handle: (*sessionParser).start},
	"session.resume":                      {keep: true, handle: (*sessionParser).resume},
	"session.shutdown":                    {keep: true, handle: (*sessionParser).shutdown},
	"session.error":                       {keep: true, handle: (*sessionParser).sessionError, outcome: agt.OutcomeError},
	"session.task_complete":               {handle: (*sessionParser).taskComplete, outcome: agt.OutcomeSuccess},
	"session.compaction_complete":         {keep: true, handle: (*sessionParser).compactionComplete},
	"session.compaction_start":            {keep: true},
	"session.truncation":                  {keep: true},
	"session.idle":                        {keep: true},
	"session.info":                        {keep: true, sub: subInfo},
	"session.warning":                     {keep: true, sub: subWarning},
	"session.title_changed":               {keep: true},
	"session.model_change":                {keep: true, model: modelNew, switches: true},
	"session.mode_changed":                {keep: true, sub: subMode},
	"session.permissions_changed":         {keep: true},
	"session.remote_steerable_changed":    {keep: true},
	"session.plan_changed":                {keep: true, sub: subOp},
	"session.todos_changed":               {keep: true},
	"session.workspace_file_changed":      {keep: true, sub: subOp},
	"session.handoff":                     {keep: true},
	"session.snapshot_rewind":             {keep: true},
	"session.context_changed":             {keep: true},
	"session.context_cleared":             {keep: true},
	"session.usage_info":                  {keep: true},
	"session.usage_checkpoint":            {keep: true},
	"session.auto_mode_resolved":          {keep: true, model: modelChosen, switches: true},
	"session.schedule_created":            {keep: true},
	"session.schedule_cancelled":          {keep: true},
	"session.schedule_rearmed":            {keep: true},
	"session.autopilot_objective_changed": {keep: true, sub: subOp},
	"session.custom_notification":         {keep: true},
	"session.tools_updated":               {keep: true, model: modelField},
	"session.background_tasks_changed":    {keep: true},
	"session.skills_loaded":               {},
	"session.custom_agents_updated":       {},
	"session.extensions_loaded":           {},
	"session.mcp_servers_loaded":          {keep: true},
	"session.mcp_server_status_changed":   {keep: true},

	// conversation
	"user.message":                   {handle: (*sessionParser).userMessage},
	"pending_messages.modified":      {keep: true},
	"system.message":                 {handle: (*sessionParser).systemMessage},
	"system.notification":            {handle: (*sessionParser).notification},
	"assistant.message":              {handle: (*sessionParser).assistantMessage},
	"assistant.reasoning":            {handle: (*sessionParser).reasoning},
	"assistant.usage":                {handle: (*sessionParser).callUsage},
	"assistant.turn_start":           {keep: true, model: modelField},
	"assistant.turn_end":             {keep: true, model: modelField},
	"assistant.intent":               {keep: true},
	"assistant.idle":                 {keep: true},
	"assistant.message_start":        {keep: true},
	"assistant.server_tool_progress": {keep: true},
	// streaming deltas repeat what the final objects carry
	"assistant.message_delta":   {},
	"assistant.reasoning_delta": {},
	"assistant.streaming_delta": {},
	"assistant.tool_call_delta": {},
	"model.call_start":          {keep: true, model: modelField},
	"model.call_finished":       {keep: true},
	"model.call_final_result":   {keep: true, model: modelField},
	"model.call_failure":        {keep: true, model: modelField, outcome: agt.OutcomeError},
	"abort":                     {keep: true, sub: subReason, outcome: agt.OutcomeInterrupted},

	// tools
	"tool.execution_start":          {handle: (*sessionParser).toolStart},
	"tool.execution_complete":       {handle: (*sessionParser).toolComplete},
	"tool.user_requested":           {keep: true},
	"tool.execution_partial_result": {},
	"tool.execution_progress":       {},
	"tool.shell_output":             {},
	"skill.invoked":                 {handle: (*sessionParser).skill},
	"mcp_app.tool_call_complete":    {keep: true},
	"external_tool.requested":       {keep: true},
	"external_tool.completed":       {keep: true},

	// sub-agents
	"subagent.started":    {keep: true},
	"subagent.configured": {keep: true},
	"subagent.completed":  {keep: true, model: modelField},
	"subagent.failed":     {keep: true},
	"subagent.selected":   {keep: true},
	"subagent.deselected": {keep: true},

	// hooks, permissions, prompts to the user
	"hook.start":                 {handle: (*sessionParser).hookStart},
	"hook.end":                   {keep: true, sub: subHook},
	"hook.progress":              {keep: true, sub: subHook},
	"permission.requested":       {keep: true},
	"permission.completed":       {keep: true},
	"user_input.requested":       {keep: true},
	"user_input.completed":       {keep: true},
	"elicitation.requested":      {keep: true},
	"elicitation.completed":      {keep: true},
	"sampling.requested":         {keep: true},
	"sampling.completed":         {keep: true},
	"mcp.oauth_required":         {keep: true},
	"mcp.oauth_completed":        {keep: true},
	"exit_plan_mode.requested":   {keep: true},
	"exit_plan_mode.completed":   {keep: true},
	"auto_mode_switch.requested": {keep: true},
	"auto_mode_switch.completed": {keep: true},

	// slash commands
	"command.queued":       {handle: (*sessionParser).command},
	"command.execute":      {handle: (*sessionParser).command},
	"command.completed":    {keep: true},
	"commands.changed":     {keep: true},
	"capabilities.changed": {keep: true},

	// the last line of `copilot -p --output-format json`
	"result": {handle: (*sessionParser).result},
}
