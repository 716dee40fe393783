// Package claude reads the formats of claude.
package claude

import "github.com/agt-project/agt"

// Provider is the claude provider.
type Provider struct{}

func (Provider) Name() string { return "claude" }
func (Provider) Formats() []string { return []string{"claude"} }
func (Provider) Sniff(h agt.Head) string { return "" }
func (Provider) NewParser(format string, opts agt.Options) agt.Parser { return nil }
