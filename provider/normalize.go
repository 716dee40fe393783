package provider

import (
	"fmt"
	"math"
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
	"github.com/agt-project/agt/provider/price"
)

// Normalizer is the domain layer of agt-normalize: canonical tool names,
// kinds and inputs, and cost and context window from a price table.
// Normalizing an event twice changes nothing.
type Normalizer struct {
	To     string       // render tool calls in this provider's layout ("" = canonical)
	Prices *price.Table // nil: no costs
	// Model is the model of the usage and assistant events that name none
	// (Codex exec --json names none), so that they get a cost and a
	// context window; "" leaves them as they are.
	Model string
	// KeepShell keeps a shell call that only reads, lists or searches a
	// Bash call (its kind and via say what it does) instead of making it
	// a Read, LS, Glob or Grep.
	KeepShell bool

	folders map[string]string // session → its working folder (Prepare's goroutine only)
}

// Prepare notes the working folder of each session (the latest a meta
// event states; a session named late starts with its provisional
// session's) for the tool calls that follow it: Event joins relative paths
// to it. It runs in input order (Config.Prepare).
func (n *Normalizer) Prepare(evs []agt.Event) {
	if n.folders == nil {
		n.folders = map[string]string{}
	}
	for i := range evs {
		ev := &evs[i]
		switch {
		case ev.Meta != nil && ev.Meta.Cwd != "":
			if n.folders[ev.Session] != ev.Meta.Cwd {
				// copies: a decoded string may hold on to its whole input block
				n.folders[strings.Clone(ev.Session)] = strings.Clone(ev.Meta.Cwd)
			}
		case ev.Kind == agt.KindMeta && agt.Continued(ev) != "":
			// a session named late goes on in its provisional one's folder
			if f := n.folders[agt.Continued(ev)]; f != "" && n.folders[ev.Session] == "" {
				n.folders[strings.Clone(ev.Session)] = f
			}
		case ev.Kind == agt.KindToolCall && ev.Tool != nil && n.folders[ev.Session] != "":
			ev.Tool.Cwd = n.folders[ev.Session]
		}
	}
}

// Event normalizes ev in place; it returns a warning for a usage event whose
// model has no price or that names no model (and has tokens but no cost of
// the agent's), and for a tool call that --to's provider has no tool
// for.
func (n *Normalizer) Event(ev *agt.Event) string {
	if n.Model != "" && ev.Model == "" && modelled[ev.Kind] {
		ev.Orig = nil
		ev.Model = n.Model
	}
	switch {
	case ev.Kind == agt.KindToolCall && ev.Tool != nil:
		ev.Orig = nil
		src := canon.Source(ev.Provider, ev.Format)
		cwd := ev.Tool.Cwd
		if n.KeepShell {
			canon.NormalizeKeep(src, cwd, ev.Tool)
		} else {
			canon.NormalizeIn(src, cwd, ev.Tool)
		}
		if n.To != "" {
			var warn string
			ev.Tool.Name, ev.Tool.Input, warn = canon.RenderIn(n.To, src, cwd, ev.Tool)
			return warn
		}
	case ev.Kind == agt.KindUsage && ev.Usage != nil && n.Prices != nil:
		if ev.Model == "" {
			if ev.Usage.CostUSD == nil && ev.Usage.NativeCostUSD != nil {
				ev.Orig = nil
				ev.Usage.CostUSD = native(ev.Usage)
			}
			if ev.Usage.CostUSD == nil && ev.Usage.Total > 0 {
				return NoModel
			}
			return ""
		}
		ev.Orig = nil
		cost, window, ok := n.Prices.Cost(ev.Model, ev.Usage)
		if !ok {
			// no price: the agent's own figure, when it wrote one
			ev.Usage.CostUSD = native(ev.Usage)
			if ev.Usage.CostUSD != nil {
				return ""
			}
			return fmt.Sprintf("no price for model %q: its usage has no cost_usd", ev.Model)
		}
		cost = math.Round(cost*1e10) / 1e10 // no float noise past a ten-billionth of a dollar
		if ev.Usage.ContextWindow == 0 && window > 0 && window <= agt.MaxCount {
			ev.Usage.ContextWindow = window
		}
		if !agt.GoodCost(cost) { // a price table with huge or negative rates
			ev.Usage.CostUSD = nil
			return fmt.Sprintf("the cost of model %q's usage is not a number in 0…2^53 dollars: it has no cost_usd", ev.Model)
		}
		ev.Usage.CostUSD = &cost
	}
	return ""
}

// NoModel is the warning for usage whose log names no model (Codex exec
// --json names none) and gives no cost of its own: its cost cannot be
// computed. The pipeline prints each distinct warning once per run.
const NoModel = "usage without a model: no cost; give --model M"

// modelled are the kinds of event that name the model that made them.
var modelled = map[string]bool{agt.KindUsage: true, agt.KindAssistant: true}

// Window is the context window of model from the price table, for a session
// whose usage events name none (it has no usage, or its model spoke no
// usage); 0 when unknown.
func (n *Normalizer) Window(model string) int64 {
	if n.Prices == nil || model == "" {
		return 0
	}
	if w := n.Prices.Window(model); w > 0 && w <= agt.MaxCount {
		return w
	}
	return 0
}

// native is a copy of the cost the agent logged for u, or nil.
func native(u *agt.Usage) *float64 {
	if u.NativeCostUSD == nil {
		return nil
	}
	c := *u.NativeCostUSD
	return &c
}
