package cli

import (
	"os"
	"syscall"
)

// widenPipe gives a pipe on f a buffer of pipeSize bytes, where the system
// allows it and the buffer is smaller: a filter writes its output in blocks of hundreds of
// kilobytes, which the default 64 KiB buffer cut into as many sleeps and
// wake-ups of each end (a tenth of a fused run's time on two cores, with
// the reader's).
func widenPipe(f *os.File) {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) {
			if n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETPIPE_SZ, 0); errno == 0 && n < pipeSize {
				syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETPIPE_SZ, pipeSize)
			}
		})
	}
}

// pipeSize is the pipe buffer asked for: the most an unprivileged process
// may set by default (/proc/sys/fs/pipe-max-size).
const pipeSize = 1 << 20
