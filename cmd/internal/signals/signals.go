// Package signals catches SIGINT and SIGTERM as early as a filter starts:
// its only imports are the standard library's, so Go initialises it
// before the packages that take the rest of a filter's start (the JSON
// codec, the providers' tables). An interrupt that comes in that time is
// kept for the filter, not taken as the end of a program that has not
// started. Only the filters' own binaries (named agt-*) catch them; a test
// binary that imports the package is left as it is.
package signals

import (
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
)

// C receives the interrupts caught since the start; nil when they are not
// caught here (a program not named agt-*).
var C chan os.Signal

func init() {
	if !strings.HasPrefix(filepath.Base(os.Args[0]), "agt-") {
		return
	}
	C = make(chan os.Signal, 2)
	signal.Notify(C, os.Interrupt, syscall.SIGTERM)
}
