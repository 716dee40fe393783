//go:build agtstub

package cli

// With the agtstub tag a provider that is not agt's is registered (the
// stub-provider test, provider/stub.go): the filters' --help lists it, so
// docs/flags.md, which documents agt's own, is not compared.
func init() { stubProvider = true }
