//go:build linux

package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agt-project/agt/provider/providertest"
	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal of cols columns: its controlling
// side and the terminal a program writes to.
func openTerminal(t *testing.T, cols uint16) (ctl, term *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	fd := int(ctl.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	term, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetWinsize(int(term.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: cols, Row: 24}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close(); ctl.Close() })
	return ctl, term
}

// TestLineWidth: lines are cut to $COLUMNS, else the terminal's width, on
// a terminal only.
func TestLineWidth(t *testing.T) {
	_, term := openTerminal(t, 57)
	t.Setenv("COLUMNS", "")
	if w := lineWidth(term); w != 57 {
		t.Errorf("terminal of 57 columns: width %d", w)
	}
	t.Setenv("COLUMNS", "101")
	if w := lineWidth(term); w != 101 {
		t.Errorf("COLUMNS=101: width %d", w)
	}
	t.Setenv("COLUMNS", "wide")
	if w := lineWidth(term); w != 57 {
		t.Errorf("COLUMNS=wide: width %d, want the terminal's", w)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Setenv("COLUMNS", "101")
	for name, out := range map[string]io.Writer{"pipe": w, "file": f, "buffer": &bytes.Buffer{}} {
		if n := lineWidth(out); n != 0 {
			t.Errorf("%s: width %d, want 0 (lines whole)", name, n)
		}
	}
}

// TestStreamlogTerminal: on a terminal, agt-streamlog cuts each line to its
// width and colors the labels, unless NO_COLOR is set.
func TestStreamlogTerminal(t *testing.T) {
	file := filepath.Join(providertest.RepoRoot(t), "testdata", "claude", "agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	t.Setenv("COLUMNS", "")
	for _, noColor := range []string{"", "1"} {
		t.Setenv("NO_COLOR", noColor)
		ctl, term := openTerminal(t, 64)
		got := make(chan string)
		go func() {
			b, _ := io.ReadAll(ctl) // ends with EIO when the terminal closes
			got <- string(b)
		}()
		var errb bytes.Buffer
		code := Run(context.Background(), Streamlog(IO{In: strings.NewReader(""), Out: term, Err: &errb}), []string{"agt", file})
		term.Close()
		out := strings.ReplaceAll(<-got, "\r\n", "\n")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		if colored := strings.Contains(out, "\x1b["); colored != (noColor == "") {
			t.Errorf("NO_COLOR=%q: colored %v", noColor, colored)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		cut := 0
		for _, l := range lines {
			plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(l, "")
			if n := utf8.RuneCountInString(plain); n > 64 {
				t.Errorf("a line of %d columns on a terminal of 64: %q", n, plain)
			}
			if strings.HasSuffix(plain, "…") {
				cut++
			}
		}
		if len(lines) < 20 || cut < 10 {
			t.Errorf("%d lines, %d cut:\n%s", len(lines), cut, out)
		}
	}
}
