//go:build !amd64 && !arm64

package agt

// Compiled compiles nothing where sonic decodes with encoding/json (see
// decoder_amd64.go).
func Compiled(v any) bool { return false }
