package cli

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: its controlling side and its terminal.
func openPTY(t *testing.T) (*os.File, *os.File) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the terminal: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// TestTerminalHint: every filter given no path with a terminal on stdin
// says so in one line and exits 2, without reading; /dev/null is no
// terminal; with - the terminal is read.
func TestTerminalHint(t *testing.T) {
	_, tty := openPTY(t)
	for name, app := range apps {
		var out, errb bytes.Buffer
		code := Run(context.Background(), app(IO{In: tty, Out: &out, Err: &errb}), []string{name})
		want := name + ": reading stdin from a terminal: give PATHs, -, or --discover\n"
		if code != ExitUsage || errb.String() != want || out.Len() > 0 {
			t.Errorf("%s: exit %d, stderr %q, stdout %q", name, code, errb.String(), out.String())
		}
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var errb bytes.Buffer
	if code := Run(context.Background(), Parse(IO{In: null, Out: &bytes.Buffer{}, Err: &errb}), []string{"agt-parse"}); code != 0 {
		t.Errorf("stdin /dev/null: exit %d: %s", code, errb.String())
	}
}

// TestInterruptBlockedRead: a run interrupted while its read of a
// terminal or a pipe is blocked ends at once (Main stops its stdin),
// writing what it read, with no diagnostic; the descriptor, blocking as
// a process's stdin is, is blocking again afterwards.
func TestInterruptBlockedRead(t *testing.T) {
	m, tty := openPTY(t)
	ttyFd, err := unix.Open(tty.Name(), unix.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skip(err)
	}
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	w := os.NewFile(uintptr(p[1]), "pipe-w")
	defer w.Close()
	for name, pair := range map[string][2]*os.File{
		"terminal": {os.NewFile(uintptr(ttyFd), tty.Name()), m},
		"pipe":     {os.NewFile(uintptr(p[0]), "pipe-r"), w},
	} {
		t.Run(name, func(t *testing.T) {
			defer pair[0].Close()
			in := &stdinFile{orig: pair[0]}
			if _, err := pair[1].Write([]byte(claudeLine + "\n")); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			var out, errb bytes.Buffer
			done := make(chan int)
			go func() { done <- Run(ctx, Parse(IO{In: in, Out: &out, Err: &errb}), []string{"agt-parse", "-"}) }()
			// wait until the line is read (its event comes out only at
			// the end of the input): nothing left unread
			for n := 1; n > 0; {
				time.Sleep(10 * time.Millisecond)
				control(pair[0], func(fd int) { n, err = unix.IoctlGetInt(fd, unix.TIOCINQ) })
				if err != nil {
					t.Fatal(err)
				}
			}
			cancel()
			in.stop()
			code := <-done
			in.restore()
			if code != ExitInterrupted || !strings.Contains(out.String(), `"text":"hello"`) || errb.Len() > 0 {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
			}
			var flags int
			control(pair[0], func(fd int) { flags, err = unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0) })
			if err != nil || flags&unix.O_NONBLOCK != 0 {
				t.Errorf("left non-blocking (%v)", err)
			}
		})
	}
}
