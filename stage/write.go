package stage

import (
	"bufio"
	"errors"
	"io"
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
