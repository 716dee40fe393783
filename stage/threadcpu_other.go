//go:build !linux

package stage

import "time"

// threadCPU is the CPU time of the calling thread, where the system tells
// it: not here (the serial share is then a wall-clock span).
func threadCPU() (time.Duration, bool) { return 0, false }
