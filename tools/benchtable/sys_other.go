//go:build !unix

package main

import "os"

// syncDisks does nothing where there is no sync(2).
func syncDisks() {}

// peakRSS is 0 where the system gives no ru_maxrss (the table shows 0 MB).
func peakRSS(*os.ProcessState) int64 { return 0 }
