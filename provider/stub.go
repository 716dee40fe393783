//go:build agtstub

package provider

import "github.com/agt-project/agt/provider/internal/template"

// With the agtstub build tag the template provider is registered like any
// other: one folder and this one row. `go test -tags agtstub ./...` runs
// every registry-driven check of the suite over it (the stub-provider
// test of docs/adding-a-provider.md).
func init() { Register(template.Provider{}) }
