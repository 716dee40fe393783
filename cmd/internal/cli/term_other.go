//go:build !unix

package cli

import "os"

// isTTY tells whether f is a terminal: a character device, here.
func isTTY(f *os.File) bool { return isTerminal(f) }

// interruptible: no blocked read can be ended here.
func interruptible(*os.File) (*os.File, func()) { return nil, nil }
