//go:build unix

package cli

import (
	"os"
	"syscall"
	"time"

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

// interruptible returns stdin as a file whose blocked read an interrupt
// can end (a read deadline), when it is a terminal or a pipe, with the
// function that puts it back as it was (and closes the new file); else nil. A blocking read from a
// terminal or a pipe cannot be cancelled otherwise. The descriptor is made
// non-blocking for the run (the terminal's other readers, if any, see it
// so until then).
func interruptible(f *os.File) (*os.File, func()) {
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 && !isTTY(f) {
		return nil, nil
	}
	if f.SetReadDeadline(time.Time{}) == nil { // already polled
		return f, func() {}
	}
	fd := -1
	control(f, func(d int) { fd, _ = unix.Dup(d) }) // a descriptor of its own, closed with nf
	if fd < 0 {
		return nil, nil
	}
	if syscall.SetNonblock(fd, true) != nil { // the description's flag: f's too
		unix.Close(fd)
		return nil, nil
	}
	nf := os.NewFile(uintptr(fd), f.Name())
	if nf.SetReadDeadline(time.Time{}) != nil { // not pollable
		syscall.SetNonblock(fd, false)
		nf.Close()
		return nil, nil
	}
	return nf, func() {
		syscall.SetNonblock(fd, false)
		nf.Close()
	}
}
