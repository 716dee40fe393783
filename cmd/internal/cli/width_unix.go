//go:build unix

package cli

import (
	"io"
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// termWidth is the number of columns of the terminal f, 0 when unknown.
func termWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}

// watchWidth calls set with the width of lines on w (lineWidth) each time
// the terminal is resized (SIGWINCH), until the function it returns is
// called; nothing when w is not a terminal.
func watchWidth(w io.Writer, set func(int)) func() {
	if lineWidth(w) == 0 {
		return func() {}
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, unix.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-c:
				set(lineWidth(w))
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(c)
		close(done)
	}
}
