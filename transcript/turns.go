package transcript

import (
	"sort"
	"strings"

	"github.com/agt-project/agt"
)

// ScopeTurn is the usage scope of a turn's totals.
const ScopeTurn = "turn"

// PromptCut is how many characters of its prompt a turn keeps (the whole
// text is its first message's).
const PromptCut = 200

// Turn is what one user prompt led to: the main conversation's messages from
// the prompt to the message before the next prompt, the usage of their model
// calls, the run-scope totals the log wrote in that time and the subagents
// the turn started. A turn starts at a message the person typed (role user:
// a prompt or a slash command), never at a tool result or injected context
// (those are not user messages). Messages and usage before the first prompt
// form a turn of their own, first, with no prompt. The turns' usage and
// costs sum to the transcript's; so do their tool calls to counts.tool_calls.
type Turn struct {
	Index int `json:"index"`
	// Prompt is the prompt's text, cut to PromptCut characters (an ellipsis
	// marks a cut); empty on a turn before the first prompt.
	Prompt    string `json:"prompt,omitempty"`
	StartedAt string `json:"started_at,omitempty"`
	EndedAt   string `json:"ended_at,omitempty"`
	// Messages is [first, last]: the indexes of the turn's first and last
	// message in the transcript's messages (absent when it has none).
	Messages      []int     `json:"messages,omitempty"`
	Usage         agt.Usage `json:"usage"`
	CostUSD       *float64  `json:"cost_usd,omitempty"`
	NativeCostUSD *float64  `json:"native_cost_usd,omitempty"`
	// ModelCalls counts the turn's assistant messages (one model call each),
	// its subagents' included; ToolCalls its tool calls, subagents' included.
	ModelCalls int `json:"model_calls"`
	ToolCalls  int `json:"tool_calls"`
	// Subagents are the streams of the subagents the turn started.
	Subagents []string `json:"subagents,omitempty"`
}

// runNote is a run-scope usage event of the main stream and how many main
// messages came before it: it counts in the turn those messages end in.
type runNote struct {
	at int
	ts string
	u  agt.Usage
}

// noteRun keeps a run-scope usage event of the main stream for the turns.
func (b *builder) noteRun(c *conv, ev *agt.Event) {
	if ev.Stream != agt.StreamMain {
		return // a subagent's usage counts whole in the turn that started it
	}
	u := *ev.Usage
	u.MessageID = ""
	b.runUsage = append(b.runUsage, runNote{at: c.base + len(c.msgs), ts: b.mem.str(ev.TS), u: u})
}

// isPrompt tells whether a message starts a turn: the person typed it.
func isPrompt(m *Message) bool {
	return m.Role == RoleUser && (m.Kind == "" || m.Kind == KindCommand)
}

// turns groups t's main conversation (its messages final, its subagents
// built) into turns.
func turns(t *Transcript, runs []runNote) []Turn {
	var ts []Turn
	starts := []int{} // the first message of each turn
	t.eachMessage(func(i int, m *Message) {
		if isPrompt(m) || i == 0 {
			ts = append(ts, Turn{Index: len(ts)})
			starts = append(starts, i)
			if isPrompt(m) {
				ts[len(ts)-1].Prompt = strings.Clone(agt.Abbrev(m.Text.Str(), PromptCut))
			}
		}
	})
	// where messages, run totals or subagents are but no turn to hold them
	if len(ts) == 0 && (len(runs) > 0 || len(t.Subagents) > 0) {
		ts = append(ts, Turn{})
		starts = append(starts, 0)
	}
	// the turn holding message i
	of := func(i int) int {
		return max(sort.Search(len(starts), func(k int) bool { return starts[k] > i })-1, 0)
	}
	costs := make([]costSum, len(ts))
	calls := map[string]int{} // a tool call's id → its message
	t.eachMessage(func(i int, m *Message) {
		for j := range m.ToolCalls {
			if id := m.ToolCalls[j].ID; id != "" {
				if _, ok := calls[id]; !ok {
					calls[strings.Clone(id)] = i
				}
			}
		}
		k := of(i)
		tu := &ts[k]
		if tu.Messages == nil {
			tu.Messages = []int{i, i}
		}
		tu.Messages[1] = i
		widen(tu, m.TS)
		if m.Role == RoleAssistant {
			tu.ModelCalls++
		}
		tu.ToolCalls += len(m.ToolCalls)
		for j := range m.ToolCalls {
			widen(tu, m.ToolCalls[j].EndedAt)
		}
		if m.Usage != nil {
			costs[k].add(m.Usage)
		}
	})
	for i := range runs {
		k := of(runs[i].at - 1)
		costs[k].add(&runs[i].u)
		widen(&ts[k], runs[i].ts)
	}
	at := make([]int, len(t.Subagents)) // decided before subagents widen turns
	for i := range t.Subagents {
		at[i] = subagentTurn(ts, calls, of, &t.Subagents[i])
	}
	for i := range t.Subagents {
		s := &t.Subagents[i]
		k := at[i]
		tu := &ts[k]
		tu.Subagents = append(tu.Subagents, s.Stream)
		u := s.Usage
		u.CostUSD, u.NativeCostUSD = s.CostUSD, s.NativeCostUSD
		costs[k].add(&u)
		tu.ToolCalls += s.Counts.ToolCalls
		s.eachMessage(func(_ int, m *Message) {
			if m.Role == RoleAssistant {
				tu.ModelCalls++
			}
		})
		widen(tu, s.StartedAt)
		widen(tu, s.EndedAt)
	}
	for k := range ts {
		ts[k].Usage = costs[k].u
		ts[k].Usage.Scope = ScopeTurn
		ts[k].CostUSD, ts[k].NativeCostUSD = ts[k].Usage.CostUSD, ts[k].Usage.NativeCostUSD
		ts[k].Usage.CostUSD, ts[k].Usage.NativeCostUSD = nil, nil
	}
	if ts == nil {
		ts = []Turn{}
	}
	return ts
}

// subagentTurn is the turn a subagent counts in: the turn of the tool call
// that started it, else the last turn begun by the subagent's start, else
// the first turn (a subagent with no time and no call: the warm-up
// subagents Claude Code runs before the first prompt).
func subagentTurn(ts []Turn, calls map[string]int, of func(int) int, s *Subagent) int {
	if i, ok := calls[s.ToolCallID]; ok && s.ToolCallID != "" {
		return of(i)
	}
	k := 0
	if s.StartedAt != "" {
		for i := range ts {
			if ts[i].StartedAt != "" && ts[i].StartedAt <= s.StartedAt {
				k = i
			}
		}
	}
	return k
}

// costSum adds usage (costs included) for a turn.
type costSum struct{ u agt.Usage }

func (c *costSum) add(u *agt.Usage) { c.u.Add(u) }

// widen sets a turn's start (its first time) and end (its latest) by ts.
func widen(t *Turn, ts string) {
	if ts == "" {
		return
	}
	// copies: a spilled message's strings hold its decoded bytes
	if t.StartedAt == "" {
		t.StartedAt = strings.Clone(ts)
	}
	if ts > t.EndedAt {
		t.EndedAt = strings.Clone(ts)
	}
}
