// Package acp reads Agent Client Protocol captures.
package acp

import "github.com/agt-project/agt"

// Provider is the ACP reader.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "acp" }

// Formats is empty until the parser lands.
func (Provider) Formats() []string { return nil }

// Sniff recognises nothing yet.
func (Provider) Sniff(agt.Head) string { return "" }

// NewParser returns nil until the parser lands.
func (Provider) NewParser(string, agt.Options) agt.Parser { return nil }
