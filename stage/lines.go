package stage

import (
	"bytes"
	"io"
	"os"
)

// BlockReader reads an input in blocks of whole lines: each block is read
// straight into a buffer of its own and its lines are slices of it, so a
// line is never copied, however long (a line longer than a block grows the
// block). Line ends (\n or \r\n) are removed.
//
// With a limit (SetLimit), a line longer than the limit is not held: its
// head is kept, the rest is read and dropped up to the next line end, and
// Long reports it. Memory is then bounded by the limit, whatever the input.
type BlockReader struct {
	r       io.Reader
	carry   []byte // the start of a line the last block cut
	n       int64  // lines returned so far
	err     error
	max     int    // longest line held; 0 = no limit
	head    int    // bytes kept of a longer line
	long    []Long // long lines of the last block
	scratch []byte // where the rest of a long line is read and dropped
	cutLast bool   // the last line returned is a long line a read error ended
	stream  bool   // lines arrive over time: hand them on at a short read
	stop    <-chan struct{}
}

// Long is a line longer than the limit: Index is its place in the lines
// Next returned (which hold its head only), Size its length in bytes (as
// far as it could be read).
type Long struct {
	Index int
	Size  int64
}

// NewBlockReader reads from r.
func NewBlockReader(r io.Reader) *BlockReader { return &BlockReader{r: r} }

// SetLimit sets the longest line held (max > 0) and how much of a longer
// line is kept (at most max).
func (b *BlockReader) SetLimit(max, head int) {
	b.max, b.head = max, min(head, max)
}

// SetStream tells that the input's lines arrive over time (a pipe, a
// terminal, a socket): Next then returns the whole lines it has as soon as a
// read returns less than it asked for, instead of waiting for a fair block.
// A regular file's short read is its end, or nearly, so it batches as
// before.
//
// A stream is read ahead by a goroutine of its own (see prefetch), so that
// a short read means that nothing more has come yet: Close stops it.
func (b *BlockReader) SetStream(on bool) {
	if on && !b.stream {
		b.r = newPrefetch(b.r, b.stop)
	}
	b.stream = on
}

// StopOn makes a stream (SetStream, called after) end when stop is
// closed: it is read no further, and what was read before is returned,
// then io.EOF. A nil stop never ends it.
func (b *BlockReader) StopOn(stop <-chan struct{}) { b.stop = stop }

// Close stops the reading ahead of a stream (see SetStream). It does not
// close the input.
func (b *BlockReader) Close() {
	if p, ok := b.r.(*prefetch); ok {
		p.Close()
	}
}

// Stream reports whether SetStream was set.
func (b *BlockReader) Stream() bool { return b.stream }

// IsStream tells whether r delivers its input over time: a file that is not
// a regular file (a pipe, a terminal, a socket, a device), or a reader with
// a Stream method that says so. Other readers (archive members, decompressed
// files) are read in full blocks.
func IsStream(r io.Reader) bool {
	switch s := r.(type) {
	case interface{ Stream() bool }:
		return s.Stream()
	case *os.File:
		st, err := s.Stat()
		return err != nil || !st.Mode().IsRegular()
	}
	return false
}

// Line is the number of the last line returned, 1-based.
func (b *BlockReader) Line() int64 { return b.n }

// Stopped is the number of the line where a read error stopped the input:
// the line after the last one returned, or the last one when it is a long
// line the error ended.
func (b *BlockReader) Stopped() int64 {
	if b.cutLast {
		return b.n
	}
	return b.n + 1
}

// Long lists the lines of the last Next longer than the limit.
func (b *BlockReader) Long() []Long { return b.long }

// Next returns the next lines, about size bytes of them (at least one line
// unless the input is done). At the end of input it returns io.EOF with the
// last lines (a last line without a line end included); a read error is
// returned with the whole lines before it (and the head of a long line it
// ended).
func (b *BlockReader) Next(size int) ([][]byte, error) {
	b.long = nil
	if b.err != nil && len(b.carry) == 0 {
		return nil, b.err
	}
	if p, ok := b.r.(*prefetch); ok {
		p.wait() // a quiet stream holds no block while it waits
	}
	buf, longs := b.fill(size)
	lines := b.split(buf, longs)
	if b.err != nil && len(b.carry) == 0 {
		return lines, b.err
	}
	return lines, nil
}

// longAt is a line longer than the limit in a block: the offset of its
// head in the block, and its size.
type longAt struct {
	at   int
	size int64
}

// fill reads a block for Next: the carried cut line, then reads until the
// block holds whole lines and about size bytes (or all a stream has, or
// the input ends). A line longer than the limit keeps its head only, and
// is listed in longs.
func (b *BlockReader) fill(size int) (buf []byte, longs []longAt) {
	buf = newBlock(len(b.carry), max(size, 2*len(b.carry)))
	copy(buf, b.carry)
	b.carry = nil
	scanned := 0   // bytes of buf looked at for line ends
	lineStart := 0 // offset of the line being read: after the last line end
	short := false // the last read returned less than asked for
	for {
		if j := bytes.LastIndexByte(buf[scanned:], '\n'); j >= 0 {
			lineStart = scanned + j + 1
		}
		scanned = len(buf)
		if b.max > 0 && len(buf)-lineStart > b.max {
			// too long: keep the head, drop the rest up to the line end
			n := int64(len(buf) - lineStart)
			// a buffer of its own, so that the long one can be freed
			buf = append(make([]byte, 0, lineStart+b.head+1+skipBuf), buf[:lineStart+b.head]...)
			extra, after := b.skipLine()
			longs = append(longs, longAt{lineStart, n + extra})
			if after != nil || b.err != io.EOF {
				buf = append(buf, '\n') // the head is a line of its own
			}
			b.cutLast = after == nil && b.err != nil && b.err != io.EOF
			lineStart, scanned = len(buf), len(buf)
			buf = append(buf, after...)
			continue
		}
		if b.err != nil || lineStart > 0 && (len(buf) >= size/2 || short && b.stream) {
			return buf, longs // whole lines and a fair block (or all a stream has), or the end
		}
		if len(buf) == cap(buf) { // a line longer than the block
			buf = b.grow(buf, lineStart)
		}
		n, err := b.r.Read(buf[len(buf):cap(buf)])
		short = n < cap(buf)-len(buf)
		buf = buf[:len(buf)+n]
		if err != nil {
			b.err = err
		}
	}
}

// grow doubles the block buf, whose line at lineStart fills it, to no
// more than the limit needs.
func (b *BlockReader) grow(buf []byte, lineStart int) []byte {
	c := 2 * cap(buf)
	if b.max > 0 && c >= lineStart+b.max {
		c = lineStart + b.max + 1 // no more than the limit needs
	}
	grown := newBlock(len(buf), max(c, len(buf)+1))
	copy(grown, buf)
	return grown
}

// split cuts the block buf into lines (without their line ends), noting
// the long ones (b.long); a cut last line is carried to the next block.
func (b *BlockReader) split(buf []byte, longs []longAt) [][]byte {
	var lines [][]byte
	off := 0 // offset of buf[0] in the block
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
		if len(longs) > 0 && longs[0].at == off {
			b.long = append(b.long, Long{len(lines), longs[0].size})
			longs = longs[1:]
		} else if b.max > 0 && i > b.max { // a long line read whole
			b.long = append(b.long, Long{len(lines), int64(i)})
			line = line[:b.head:b.head]
		} else if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[: n-1 : n-1]
		}
		lines = append(lines, line)
		b.n++
		if i == len(buf) {
			break
		}
		buf = buf[i+1:]
		off += i + 1
	}
	return lines
}

// skipLine reads and drops input up to the next line end. It returns how
// many bytes it dropped and what it read after the line end (nil when the
// input ended first; b.err is then set).
func (b *BlockReader) skipLine() (int64, []byte) {
	if b.scratch == nil {
		b.scratch = make([]byte, skipBuf)
	}
	var n int64
	for b.err == nil {
		k, err := b.r.Read(b.scratch)
		if i := bytes.IndexByte(b.scratch[:k], '\n'); i >= 0 {
			if err != nil {
				b.err = err
			}
			return n + int64(i), append([]byte{}, b.scratch[i+1:k]...)
		}
		n += int64(k)
		if err != nil {
			b.err = err
		}
	}
	return n, nil
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

// skipBuf is the size of the reads that drop the rest of a long line.
const skipBuf = 64 << 10
