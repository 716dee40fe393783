//go:build unix

package main

import (
	"os"
	"syscall"
)

// syncDisks flushes written files to disk, so that a removed tree's
// writes do not land in the next run's time.
func syncDisks() { syscall.Sync() }

// peakRSS is the peak resident set size of a finished process, as the
// system reports it (ru_maxrss: KiB on Linux, bytes on macOS).
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
