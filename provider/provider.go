// Package provider is the provider layer of agt: the registry of provider
// parsers (one sub-package each), detection of provider and format from
// content, and the parse pipeline that turns inputs into agt.event/1 lines.
package provider

import (
	"sort"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/acp"
	"github.com/agt-project/agt/provider/aider"
	"github.com/agt-project/agt/provider/amp"
	"github.com/agt-project/agt/provider/canon"
	"github.com/agt-project/agt/provider/claude"
	"github.com/agt-project/agt/provider/cline"
	"github.com/agt-project/agt/provider/codex"
	"github.com/agt-project/agt/provider/continuedev"
	"github.com/agt-project/agt/provider/copilot"
	"github.com/agt-project/agt/provider/crush"
	"github.com/agt-project/agt/provider/cursor"
	"github.com/agt-project/agt/provider/gemini"
	"github.com/agt-project/agt/provider/goose"
	"github.com/agt-project/agt/provider/kiro"
	"github.com/agt-project/agt/provider/opencode"
	"github.com/agt-project/agt/provider/openhands"
	"github.com/agt-project/agt/provider/pi"
	"github.com/agt-project/agt/provider/qwen"
	"github.com/agt-project/agt/stage"
)

// Provider reads the formats of one agent.
type Provider interface {
	// Name is the provider's name in events: claude, codex, …
	Name() string
	// Formats lists the formats the provider reads; the first is the default
	// when the provider is forced and its content is not recognised.
	Formats() []string
	// Sniff names the format of an input whose first records are head, or
	// returns "" when the content is not this provider's.
	Sniff(head agt.Head) string
	// NewParser returns a parser for one unit in format.
	NewParser(format string, opts agt.Options) agt.Parser
	// Agent is what the provider declares about its agent: its display
	// name and default vendor (for exports), the file endings a folder
	// walk must read or claim for it.
	Agent() agt.Agent
}

// Grouper is implemented by providers whose sessions span several files: it
// names the file a path is read together with ("" for none), from the path
// alone.
type Grouper interface {
	Owner(path string) string
}

// Members is implemented by parsers whose unit can hold member files read
// after its first one (a Claude Code session's subagent files): before any
// record of the unit is applied, Members is given their paths, in the
// order they will be read, so that the first file's records can defer to
// them.
type Members interface {
	Members(paths []string)
}

// Tentative is implemented by providers whose Sniff may name another
// format once more lines are read: Tentative reports a head whose format
// the next line can still change (a Pi session header opens a session file
// and `pi --mode json` output alike). A stream's head is read on while it
// holds; a file's head is all it has.
type Tentative interface {
	Tentative(head agt.Head) bool
}

// Blocks is implemented by providers whose records are blocks of lines
// (a Markdown history): an event names its block's first line only, so a
// line inside a block is named by none.
type Blocks interface {
	Blocks() bool
}

// Locator is implemented by providers whose agent writes its logs to
// known folders: Logs lists the paths where they may be (existing or not),
// given the environment (getenv returns "" for a variable unset or blank)
// and the user's home folder ("" when unknown: the paths under it are left
// out), honouring the variables the agent itself reads.
type Locator interface {
	Logs(getenv func(string) string, home string) []string
}

// Toolset is implemented by providers whose agents call tools: Tools is
// the provider's part of the canonical tool table (its folder's canon.go),
// which Register adds to provider/canon.
type Toolset interface {
	Tools() canon.Tools
}

// registry holds the providers in detection order; a provider is one folder
// under provider/ and one row here.
var registry []Provider

func init() {
	Register(qwen.Provider{})   // before claude: its system records also carry uuid and sessionId
	Register(cursor.Provider{}) // before claude: its stream-json is Claude-like
	Register(amp.Provider{})    // before claude: its stream JSON is Claude Code compatible
	Register(claude.Provider{})
	Register(codex.Provider{})
	Register(gemini.Provider{})
	Register(copilot.Provider{})
	Register(pi.Provider{})
	Register(opencode.Provider{})
	Register(cline.Provider{})
	Register(kiro.Provider{})
	Register(acp.Provider{})
	Register(crush.Provider{})
	Register(goose.Provider{})
	Register(openhands.Provider{})
	Register(continuedev.Provider{})
	Register(aider.Provider{})
}

// Register adds a provider to the registry, after those registered before
// it (detection tries them in order), and its tools to the canonical table.
// It is called while the program starts; tests use it to add a provider.
func Register(p Provider) {
	registry = append(registry, p)
	a := p.Agent()
	stage.AddEndings(a.Docs, a.Stores)
	if t, ok := p.(Toolset); ok {
		canon.Register(p.Name(), t.Tools())
	}
}

// All returns the registered providers.
func All() []Provider { return registry }

// Names lists the names of the registered providers, sorted.
func Names() []string {
	var n []string
	for _, p := range registry {
		n = append(n, p.Name())
	}
	sort.Strings(n)
	return n
}

// Targets lists the providers that tool calls can be rendered for
// (agt-normalize --to and --tool-defs), in registry order.
func Targets() []string { return canon.Targets() }

// Display is the display name of the agent of the provider named name
// (the name itself for a provider not registered, "unknown" for none).
func Display(name string) string {
	if p := Lookup(name); p != nil {
		return p.Agent().Display
	}
	if name == "" {
		return "unknown"
	}
	return name
}

// Vendor is the default vendor of the agent of the provider named name
// (its Agent's Vendor; "" when it has none or is not registered).
func Vendor(name string) string {
	if p := Lookup(name); p != nil {
		return p.Agent().Vendor
	}
	return ""
}

// Lookup finds a provider by name.
func Lookup(name string) Provider {
	for _, p := range registry {
		if p.Name() == name {
			return p
		}
	}
	return nil
}

// Detect finds the provider and format of an input from its first records.
func Detect(head agt.Head) (Provider, string) {
	for _, p := range registry {
		if f := p.Sniff(head); f != "" {
			return p, f
		}
	}
	return nil, ""
}

// tentative tells whether the provider and format detected from head may
// change with its next line.
func tentative(head agt.Head) bool {
	p, _ := Detect(head)
	t, ok := p.(Tentative)
	return ok && t.Tentative(head)
}

// Claimer is implemented by providers whose sessions live in a folder or a
// database of their own rather than in log files: Claim turns such a path
// into one input.
type Claimer interface {
	Claim(path string, isDir bool) (stage.Input, bool)
}

// Claim asks every provider whether path is one of its stores (a
// stage.Claim for stage.Expand).
func Claim(path string, isDir bool) (stage.Input, bool) {
	for _, p := range registry {
		if c, ok := p.(Claimer); ok {
			if in, ok := c.Claim(path, isDir); ok {
				return in, true
			}
		}
	}
	return stage.Input{}, false
}
