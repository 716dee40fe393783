package stage

import (
	"bufio"
	"errors"
	"io"
	"sync"
	"syscall"
)

// ErrClosed reports that the reader of the output went away (a closed pipe,
// as in `agt-parse big.jsonl | head -1`). Filters end quietly with exit 0.
var ErrClosed = errors.New("output closed")

// Writer is a buffered writer that reports a closed pipe as ErrClosed.
type Writer struct {
	w   *bufio.Writer
	err error
}

// NewWriter buffers w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 64<<10)} }

// Write writes p; after the first error it writes nothing and returns it.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.w.Write(p)
	return n, w.fail(err)
}

// Flush writes out what is buffered.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	return w.fail(w.w.Flush())
}

func (w *Writer) fail(err error) error {
	if err == nil {
		return nil
	}
	if IsClosed(err) {
		err = ErrClosed
	}
	w.err = err
	return err
}

// IsClosed reports whether err means that the output's reader went away.
func IsClosed(err error) bool {
	return errors.Is(err, ErrClosed) || errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe)
}

// Locked is w with its writes one at a time: the diagnostics a run's
// goroutines write (a followed file's notes) and the CLI's own lines,
// also those written after a failed run left its reader behind. Locked of
// a Locked writer is that writer, so every layer that locks shares one
// lock.
func Locked(w io.Writer) io.Writer {
	if l, ok := w.(*lockedWriter); ok {
		return l
	}
	return &lockedWriter{w: w}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
