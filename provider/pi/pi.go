// Package pi reads the formats of pi.
package pi

import "github.com/agt-project/agt"

// Provider is the pi provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "pi" }

// Formats is empty until the parser lands.
func (Provider) Formats() []string { return nil }

// Sniff recognises nothing yet.
func (Provider) Sniff(agt.Head) string { return "" }

// NewParser returns nil until the parser lands.
func (Provider) NewParser(string, agt.Options) agt.Parser { return nil }
