package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
)

// isTerminal reports whether w (a stream) is a character device (a
// terminal).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress draws a one-line progress bar on a terminal: units, bytes, rate
// and time left. It is also the writer of the run's diagnostics: the bar
// is cleared before each and drawn again after it, so that no message is
// printed into the bar's line.
type progress struct {
	w            io.Writer
	units, bytes int64
	start, last  time.Time

	mu   sync.Mutex
	line string // the bar drawn, "" when none
}

// Write writes diagnostic lines above the bar.
func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.line != "" {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	n, err := p.w.Write(b)
	if p.line != "" {
		fmt.Fprint(p.w, p.line)
	}
	return n, err
}

func newProgress(w io.Writer, inputs []stage.Input) *progress {
	p := &progress{w: w, start: time.Now()}
	seen := map[string]bool{}
	for _, in := range inputs {
		path := in.Path
		if i := strings.Index(path, "!/"); i >= 0 {
			path = path[:i]
		}
		if seen[path] {
			continue
		}
		seen[path] = true
		if st, err := os.Stat(path); err == nil {
			p.bytes += st.Size()
		}
	}
	p.units = int64(len(provider.Units(inputs)))
	return p
}

func (p *progress) update(st provider.Stats) {
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	el := now.Sub(p.start).Seconds()
	rate := float64(st.Bytes) / el / 1e6
	eta := "?"
	if st.Bytes > 0 && p.bytes > st.Bytes {
		eta = (time.Duration(float64(p.bytes-st.Bytes)/float64(st.Bytes)*el) * time.Second).Round(time.Second).String()
	}
	done := st.Units + st.Skipped
	frac := 0.0
	if p.units > 0 {
		frac = float64(done) / float64(p.units)
	}
	bar := strings.Repeat("#", int(frac*20)) + strings.Repeat(".", 20-int(frac*20))
	p.mu.Lock()
	defer p.mu.Unlock()
	p.line = fmt.Sprintf("\r[%s] %d/%d files  %.1f/%.1f MB  %.1f MB/s  ETA %s \x1b[K", bar, done, p.units, float64(st.Bytes)/1e6, float64(p.bytes)/1e6, rate, eta)
	fmt.Fprint(p.w, p.line)
}

// clear takes the bar away for good.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\x1b[K")
	p.line = ""
}
