package stage

import (
	"bytes"
	"io"
)

// BlockReader reads an input in blocks of whole lines: each block is read
// straight into a buffer of its own and its lines are slices of it, so a
// line is never copied, however long (a line longer than a block grows the
// block). Line ends (\n or \r\n) are removed.
type BlockReader struct {
	r     io.Reader
	carry []byte // the start of a line the last block cut
	n     int64  // lines returned so far
	err   error
}

// NewBlockReader reads from r.
func NewBlockReader(r io.Reader) *BlockReader { return &BlockReader{r: r} }

// Line is the number of the last line returned, 1-based.
func (b *BlockReader) Line() int64 { return b.n }

// Next returns the next lines, about size bytes of them (at least one line
// unless the input is done). At the end of input it returns io.EOF with the
// last lines (a last line without a line end included); a read error is
// returned with the whole lines before it.
func (b *BlockReader) Next(size int) ([][]byte, error) {
	if b.err != nil && len(b.carry) == 0 {
		return nil, b.err
	}
	buf := make([]byte, len(b.carry), max(size, 2*len(b.carry)))
	copy(buf, b.carry)
	b.carry = nil
	scanned := 0 // bytes of buf known to hold no line end
	for b.err == nil {
		if i := bytes.IndexByte(buf[scanned:], '\n'); i >= 0 && len(buf) >= size/2 {
			break // whole lines and a fair block
		} else if i < 0 {
			scanned = len(buf)
		}
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), 2*cap(buf)) // a line longer than the block
			copy(grown, buf)
			buf = grown
		}
		n, err := b.r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil {
			b.err = err
		}
	}
	var lines [][]byte
	for len(buf) > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			if b.err == nil {
				b.carry = buf // the cut line: read again with the next block
				break
			}
			if b.err != io.EOF {
				break // a read error cut the line: it is not returned
			}
			i = len(buf)
		}
		line := buf[:i:i]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[: n-1 : n-1]
		}
		lines = append(lines, line)
		b.n++
		if i == len(buf) {
			break
		}
		buf = buf[i+1:]
	}
	if b.err != nil && len(b.carry) == 0 {
		return lines, b.err
	}
	return lines, nil
}

// Rest returns what is left of the input after the lines returned so far.
func (b *BlockReader) Rest() io.Reader {
	carry := b.carry
	b.carry = nil
	if b.err != nil {
		if b.err == io.EOF {
			return bytes.NewReader(carry)
		}
		return io.MultiReader(bytes.NewReader(carry), errReader{b.err})
	}
	return io.MultiReader(bytes.NewReader(carry), b.r)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
