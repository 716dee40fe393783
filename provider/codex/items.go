package codex

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/agt-project/agt"
	"github.com/zeebo/xxh3"
)

// itemHandler emits the events of one ResponseItem or EventMsg payload.
type itemHandler func(c *conv, em *agt.Emitter, it *item)

// responseItems maps ResponseItem types to their handlers.
var responseItems = map[string]itemHandler{
	"message":                 (*conv).message,
	"reasoning":               (*conv).reasoning,
	"agent_message":           (*conv).agentMessage,
	"function_call":           (*conv).functionCall,
	"custom_tool_call":        (*conv).customToolCall,
	"local_shell_call":        (*conv).localShellCall,
	"tool_search_call":        (*conv).toolSearchCall,
	"web_search_call":         (*conv).webSearchCall,
	"image_generation_call":   (*conv).imageGenerationCall,
	"function_call_output":    (*conv).toolOutput,
	"custom_tool_call_output": (*conv).toolOutput,
	"tool_search_output":      (*conv).toolSearchOutput,
	"ghost_snapshot":          (*conv).itemMeta,
	"compaction":              (*conv).itemMeta,
	"compaction_summary":      (*conv).itemMeta,
	"other":                   (*conv).itemMeta,
}

// roleKinds maps message roles to event kinds.
var roleKinds = map[string]string{
	"user":      agt.KindUser,
	"assistant": agt.KindAssistant,
	"developer": agt.KindSystem,
	"system":    agt.KindSystem,
}

// injected are the openings of the context blocks Codex sends as user
// messages: the fallback for input that gives no structure to tell them
// from prompts (the legacy formats, rollouts with no user_message; see
// twins.go), where such messages are system events.
var injected = [][]byte{
	[]byte(`"<environment_context>`),
	[]byte(`"<user_instructions>`),
	[]byte(`"# AGENTS.md instructions`),
	[]byte(`"<turn_aborted>`),
	[]byte(`"<permissions instructions>`),
	[]byte(`"<user_shell_command>`),
	[]byte(`"<collaboration_mode>`),
	[]byte(`"<skill>`), // a skill's instructions, sent when the user names it
}

func isInjected(t agt.Raw) bool {
	for _, p := range injected {
		if bytes.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func (c *conv) itemMeta(em *agt.Emitter, it *item) {
	c.meta(em, &agt.Meta{Type: "response_item", Subtype: it.Type})
}

func (c *conv) message(em *agt.Emitter, it *item) {
	if !c.legacy && (it.Role == "user" || it.Role == "assistant") {
		c.twinMessage(em, it)
		return
	}
	kind := roleKinds[it.Role]
	if kind == "" {
		kind = agt.KindSystem
	}
	t := it.joined
	if kind == agt.KindUser && isInjected(t) {
		kind = agt.KindSystem
	}
	var m *agt.Meta
	if kind == agt.KindSystem {
		m = &agt.Meta{Type: "response_item", Subtype: "message:" + it.Role}
	}
	c.say(em, kind, t, m, "text")
}

func (c *conv) reasoning(em *agt.Emitter, it *item) {
	if c.legacy {
		if t := it.joined; t != nil {
			c.say(em, agt.KindReasoning, t, nil, "reasoning")
			return
		}
	}
	c.itemMeta(em, it)
}

// agentMessage is a message between agents (multi-agent): a system event
// naming its author.
func (c *conv) agentMessage(em *agt.Emitter, it *item) {
	c.say(em, agt.KindSystem, it.joined, &agt.Meta{Type: "response_item", Subtype: "agent_message", Agent: it.Author}, "text")
}

func callID(it *item) string {
	if it.CallID != "" {
		return it.CallID
	}
	return it.ID
}

// repeated reports a call recorded again: in a rollout, a call id already
// called in the session with the same name and input (OpenAI call ids are
// unique per call, so this is a copy of the record, not a second call). It
// is a meta event then.
func (c *conv) repeated(em *agt.Emitter, it *item, name string) bool {
	if c.legacy || c.live {
		return false
	}
	st := c.calls[callID(it)]
	if callID(it) == "" || st == nil || st.sig != signature(name, it.in) {
		return false
	}
	c.meta(em, &agt.Meta{Type: "response_item", Subtype: it.Type, Data: object("repeated_call_id", callID(it))})
	return true
}

// signature identifies a call's name and input: the XXH3-128 of the input
// seeded with the name's.
func signature(name string, in agt.Raw) [16]byte {
	return xxh3.Hash128Seed(in, xxh3.HashString(name)).Bytes()
}

func (c *conv) functionCall(em *agt.Emitter, it *item) {
	name := it.Namespace + it.Name
	if c.repeated(em, it, name) {
		return
	}
	if c.holdMCP && strings.HasPrefix(name, "mcp__") && callID(it) != "" {
		// kept beyond the line
		c.held = append(c.held, heldCall{mark: c.mark(), src: em.Src(), raw: em.Line(), ts: strings.Clone(c.ts), id: strings.Clone(callID(it)), name: strings.Clone(name), in: it.in})
		return
	}
	c.call(em, callID(it), name, it.in)
}

func (c *conv) customToolCall(em *agt.Emitter, it *item) {
	if c.repeated(em, it, it.Name) {
		return
	}
	c.call(em, callID(it), it.Name, it.in)
}

func (c *conv) localShellCall(em *agt.Emitter, it *item) {
	c.call(em, callID(it), "local_shell", it.in)
}

func (c *conv) toolSearchCall(em *agt.Emitter, it *item) {
	c.call(em, callID(it), "tool_search", it.in)
}

func (c *conv) toolOutput(em *agt.Emitter, it *item) {
	c.result(em, it.CallID, agt.Result{Output: agt.Raw(it.Output), ExitCode: it.exit})
}

func (c *conv) toolSearchOutput(em *agt.Emitter, it *item) {
	c.result(em, it.CallID, agt.Result{Output: agt.Raw(it.Tools), IsError: isString(agt.Raw(it.Status), "failed")})
}

// webQuery is action.query of a web search.
func (it *item) webQuery() string {
	if len(it.Action) == 0 || it.Action[0] != '{' {
		return ""
	}
	var a struct {
		Query string `json:"query"`
	}
	it.field("action", agt.Raw(it.Action), &a)
	return a.Query
}

// webSearchCall is a server-side search. Its web_search_end, when there is
// one, may come before it (then the end event yielded the call and this is
// a meta event) or after it (then the end's results are the call's output).
// The item has no output of its own: a search the item reports finished
// (status completed or failed) gets its result from the item when no end
// event comes before the file ends. An item without an id gets one derived
// from its line ("ws_" and a hash), the same in every copy of the file.
func (c *conv) webSearchCall(em *agt.Emitter, it *item) {
	q := it.query
	if it.ID != "" && c.calls[it.ID] != nil {
		remove(c.web, "end\x00"+q, c.calls[it.ID])
		c.itemMeta(em, it)
		return
	}
	if pop(c.web, "end\x00"+q) != nil {
		c.itemMeta(em, it)
		return
	}
	id := it.ID
	if id == "" {
		id = lineID("ws_", content(em.Line()))
	}
	st := c.call(em, id, "web_search", it.in)
	c.web["call\x00"+q] = append(c.web["call\x00"+q], st)
	status := str(agt.Raw(it.Status))
	if status == "completed" || status == "failed" {
		r := agt.Result{Output: object("status", status), IsError: status == "failed"}
		c.endOf(em, st, r)
	}
}

// lineID is a tool id for a record that has none: prefix and the first 16
// hex digits of the SHA-256 of its line.
func lineID(prefix string, line agt.Raw) string {
	sum := sha256.Sum256(line)
	return prefix + hex.EncodeToString(sum[:8])
}

// remove drops st from the calls waiting under key.
func remove(m map[string][]*callState, key string, st *callState) {
	l := m[key]
	for i, v := range l {
		if v == st {
			l = append(l[:i:i], l[i+1:]...)
			break
		}
	}
	if len(l) == 0 {
		delete(m, key)
	} else {
		m[key] = l
	}
}

// popOpen takes the oldest call waiting under key that has no result yet.
func popOpen(m map[string][]*callState, key string) *callState {
	for {
		st := pop(m, key)
		if st == nil || !st.done {
			return st
		}
	}
}

// pop takes the oldest call waiting under key.
func pop(m map[string][]*callState, key string) *callState {
	l := m[key]
	if len(l) == 0 {
		return nil
	}
	if len(l) == 1 {
		delete(m, key)
	} else {
		m[key] = l[1:]
	}
	return l[0]
}

func (c *conv) imageGenerationCall(em *agt.Emitter, it *item) {
	id := callID(it)
	if id != "" && c.calls[id] != nil {
		c.itemMeta(em, it)
		return
	}
	c.call(em, id, "image_generation", it.in)
	c.result(em, id, agt.Result{Output: agt.Raw(it.Result), IsError: isString(agt.Raw(it.Status), "failed")})
}
