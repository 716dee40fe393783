// Package signals catches SIGINT and SIGTERM as early as a filter starts:
// its only imports are os, os/signal and syscall, so Go initialises it
// right after them, before the packages that take the rest of a filter's
// start (the JSON codec, the compressors, the providers' tables: some
// 30 ms on a busy machine). Go initialises the packages whose imports are
// ready in the order of their paths: an import such as path/filepath,
// ready only late in that order, would put this package after most of
// them. An interrupt that comes in that time is
// kept for the filter, not taken as the end of a program that has not
// started. Only the filters' own binaries (named agt-*) catch them; a test
// binary that imports the package is left as it is.
package signals

import (
	"os"
	"os/signal"
	"syscall"
)

// C receives the interrupts caught since the start; nil when they are not
// caught here (a program not named agt-*).
var C chan os.Signal

func init() {
	if !filter(os.Args[0]) {
		return
	}
	C = make(chan os.Signal, 2)
	signal.Notify(C, os.Interrupt, syscall.SIGTERM)
}

// filter tells whether the program at path is one of the filters: its
// file name begins with agt-.
func filter(path string) bool {
	base := path
	for i := len(path) - 1; i >= 0; i-- {
		if os.IsPathSeparator(path[i]) {
			base = path[i+1:]
			break
		}
	}
	return len(base) >= 4 && base[:4] == "agt-"
}
