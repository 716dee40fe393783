package stage

import (
	"bufio"
	"bytes"
	"io"
)

// LineReader reads lines of any length. Line ends (\n or \r\n) are removed.
type LineReader struct {
	r *bufio.Reader
	n int64
}

// NewLineReader reads from r with a buffer of size bytes.
func NewLineReader(r io.Reader, size int) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, size)}
}

// Reset makes l read from r, keeping its buffer, and counts lines from 1.
func (l *LineReader) Reset(r io.Reader) {
	l.r.Reset(r)
	l.n = 0
}

// Line is the number of the line last returned, 1-based.
func (l *LineReader) Line() int64 { return l.n }

// Next appends the next line to dst and returns dst; the line is what was
// appended. At the end of input it returns io.EOF; a last line without a
// line end is returned first.
func (l *LineReader) Next(dst []byte) ([]byte, error) {
	start := len(dst)
	for {
		chunk, err := l.r.ReadSlice('\n')
		dst = append(dst, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(dst) > start {
			err = nil
		}
		if err != nil {
			return dst[:start], err
		}
		l.n++
		line := dst[start:]
		line = bytes.TrimSuffix(line, []byte{'\n'})
		line = bytes.TrimSuffix(line, []byte{'\r'})
		return dst[:start+len(line)], nil
	}
}

// Reader is the underlying buffered reader, for reading the rest of the
// input at once.
func (l *LineReader) Reader() *bufio.Reader { return l.r }
