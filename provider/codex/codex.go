// Package codex reads the formats of codex.
package codex

import "github.com/agt-project/agt"

// Provider is the codex provider.
type Provider struct{}

func (Provider) Name() string { return "codex" }
func (Provider) Formats() []string { return []string{"codex"} }
func (Provider) Sniff(h agt.Head) string { return "" }
func (Provider) NewParser(format string, opts agt.Options) agt.Parser { return nil }
