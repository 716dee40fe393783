//go:build unix

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// control runs fn on f's descriptor (f.Fd would make f blocking, its reads
// no longer ended by a deadline).
func control(f *os.File, fn func(fd int)) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	return rc.Control(func(fd uintptr) { fn(int(fd)) }) == nil
}

// isTTY tells whether f is a terminal (a character device such as
// /dev/null is not).
func isTTY(f *os.File) bool {
	var err error = unix.ENOTTY
	control(f, func(fd int) { _, err = unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ) })
	return err == nil
}
