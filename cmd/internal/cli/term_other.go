//go:build !unix

package cli

import "os"

// isTTY tells whether f is a terminal: a character device, here.
func isTTY(f *os.File) bool { return isTerminal(f) }
