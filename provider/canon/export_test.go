package canon

// Names the tests use that the program does not: the table as a whole, and
// Normalize and Render without a working folder.

import "github.com/agt-project/agt"

// Table returns the canonical tool table, one row per provider-native name
// (and input condition), in a fixed order.
func Table() []Row { return append([]Row(nil), rows...) }

// Normalize sets t's canonical name, kind, origin, MCP and input from its
// native name and input (and an MCP server the parser found, in t.MCP);
// provider is the call's Source.
// NativeName and NativeInput are not changed; normalizing twice changes
// nothing. Names not in the table pass through with kind other, origin
// custom and the native input.
func Normalize(provider string, t *agt.Tool) { NormalizeIn(provider, "", t) }

// Render returns the name and input of the normalized call t in the
// layout of provider to (claude codex gemini copilot pi opencode). from is
// the provider the call came from ("" when unknown): when it is to and t
// is as Normalize made it, the native name and input are returned.
func Render(to, from string, t *agt.Tool) (name string, input agt.Raw) {
	name, input, _ = RenderIn(to, from, "", t)
	return name, input
}
