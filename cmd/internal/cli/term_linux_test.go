package cli

import (
	"bytes"
	"context"
	"os"
	"strconv"
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

// TestTerminalHint: every filter but agt-report given no path with a terminal on stdin
// says so in one line and exits 2, without reading; /dev/null is no
// terminal; with - the terminal is read.
func TestTerminalHint(t *testing.T) {
	_, tty := openPTY(t)
	for name, app := range apps {
		if name == "agt-report" {
			continue // it reads the agents' folders instead (TestReportNoArgs)
		}
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
// terminal or a pipe is blocked, once it has written the line it read,
// ends (its stream ends where it is, the blocked read is left behind),
// with no diagnostic.
func TestInterruptBlockedRead(t *testing.T) {
	m, tty := openPTY(t)
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	w := os.NewFile(uintptr(p[1]), "pipe-w")
	defer w.Close()
	for name, pair := range map[string][2]*os.File{
		"terminal": {tty, m},
		"pipe":     {os.NewFile(uintptr(p[0]), "pipe-r"), w},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := pair[1].Write([]byte(claudeLine + "\n")); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			out := notifyWriter{make(chan []byte, 64)}
			var errb bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- Run(ctx, Parse(IO{In: pair[0], Out: out, Err: &errb}), []string{"agt-parse", "-"}) }()
			// the line's event is out: then the interrupt
			var got []byte
			for !bytes.Contains(got, []byte(`"text":"hello"`)) {
				select {
				case p := <-out.c:
					got = append(got, p...)
				case <-time.After(hangGuard):
					t.Fatal("hang guard: the line's event never came out")
				}
			}
			cancel()
			var code int
			select {
			case code = <-done:
			case <-time.After(hangGuard): // not a time limit: a run that never ends
				t.Fatal("hang guard: the interrupted run did not end")
			}
			if code != ExitInterrupted || errb.Len() > 0 {
				t.Errorf("exit %d, stderr %q", code, errb.String())
			}
		})
	}
}
