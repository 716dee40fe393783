package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// TestStreamlogResize: agt-streamlog -f on a terminal cuts its lines to
// the terminal's width, and to the new width once the terminal is resized
// (SIGWINCH): the width is read again.
func TestStreamlogResize(t *testing.T) {
	t.Setenv("COLUMNS", "")
	m, tty := openPTY(t)
	setCols := func(n int) {
		if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: uint16(n)}); err != nil {
			t.Skipf("setting the terminal's size: %v", err)
		}
	}
	setCols(60)
	var mu sync.Mutex
	var lines []string
	go func() { // what the terminal shows
		sc := bufio.NewScanner(m)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, strings.TrimRight(sc.Text(), "\r"))
			mu.Unlock()
		}
	}()
	widest := func(from int) (int, int) {
		mu.Lock()
		defer mu.Unlock()
		w := 0
		for _, l := range lines[min(from, len(lines)):] {
			w = max(w, utf8.RuneCountInString(l))
		}
		return w, len(lines)
	}
	session := testLines(t, "claude/ccviewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")
	dir := t.TempDir()
	a := filepath.Join(dir, "s.jsonl")
	appendFile(t, a, strings.Join(session[:10], ""))
	f := startFollowTo(t, Streamlog, tty, "--color", "never", "-f", dir)
	var before int
	f.wait(t, "the lines of the first part", func() bool { _, n := widest(0); before = n; return n >= 8 })
	if w, _ := widest(0); w > 60 || w < 50 {
		t.Errorf("lines up to %d columns on a 60-column terminal", w)
	}
	setCols(120)
	if err := unix.Kill(os.Getpid(), unix.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	// the signal is taken before the next lines: wait until they show wider
	for i := 10; i < len(session); i += 5 {
		appendFile(t, a, strings.Join(session[i:min(i+5, len(session))], ""))
		done := false
		f.wait(t, "the lines of the next part", func() bool { _, n := widest(0); done = n > before; return done })
		if w, n := widest(before); w > 60 {
			if w > 120 {
				t.Errorf("lines up to %d columns on a 120-column terminal", w)
			}
			return
		} else {
			before = n
		}
	}
	t.Error("after the resize to 120 columns, no line is wider than 60")
}
