// Package canon maps provider-native tool calls to agt's canonical tools
// (DESIGN.md §3) and back.
package canon

import "github.com/agt-project/agt"

// Normalize sets t's canonical name, kind, origin, MCP and input from its
// native name and input. Names it does not know pass through unchanged
// with kind "other".
func Normalize(provider string, t *agt.Tool) {
	t.Name = t.NativeName
	t.Kind = "other"
	t.Input = t.NativeInput
}

// Render returns the name and input of the normalized tool t in the layout
// of provider to; from is the provider the call came from.
func Render(to, from string, t *agt.Tool) (name string, input agt.Raw) {
	return t.Name, t.Input
}
