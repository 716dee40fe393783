package transcript

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/agt-project/agt"
	"github.com/klauspost/compress/zstd"
)

// A long session's messages are not held as they were built: with
// Consolidator.Spill, each conversation keeps its last messages as Message
// values (those its next events may still change) and the older ones as
// their encoded JSON, compressed in blocks (spilled). An event that still
// reaches a spilled message (a tool result or a usage that comes late)
// decodes it again (reopens it): the message is then held as a value and
// encoded from it when the transcript is written. Encoding a message, then
// decoding and encoding it again, gives the same bytes (agt.Raw keeps its
// bytes, numbers and strings go back to what they were), so the transcript
// is the same either way.
var (
	// spillWindow is how many of a conversation's last messages stay
	// values: when twice as many are held, all but the last spillWindow are
	// spilled. At least 1: the open message is the last one.
	spillWindow = 64
	// spillBlock is about how many bytes of encoded messages a compressed
	// block holds (a message larger than that is a block of its own).
	spillBlock = 256 << 10
)

// zstd coders of the spilled blocks, shared: EncodeAll and DecodeAll may be
// called from several goroutines (a consolidator seals, the -o writers
// read).
var (
	zenc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(2),
		zstd.WithLowerEncoderMem(true), zstd.WithZeroFrames(true))
	zdec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(2), zstd.WithDecoderLowmem(true))
)

// spill holds the spilled messages of one conversation: messages 0 to n-1,
// in blocks, the last of them (cur) not compressed yet.
type spill struct {
	blocks []spillBlk
	cur    []byte   // encoded messages not yet compressed, back to back
	curEnd []uint32 // where each message of cur ends
	n      int      // messages spilled
	// messages decoded again because an event still reached them: they are
	// written from these values
	reopened map[int]*Message
	held     int // bytes held: compressed blocks and cur
}

// spillBlk is a compressed block of messages first to first+len(end)-1,
// end[i] where the i-th ends in the decompressed bytes.
type spillBlk struct {
	z     []byte
	first int
	end   []uint32
}

// add spills ms, the messages that follow the ones already spilled.
func (s *spill) add(ms []Message) {
	for i := range ms {
		s.cur = AppendJSON(s.cur, &ms[i])
		s.cur = s.cur[:len(s.cur)-1] // the line end
		s.curEnd = append(s.curEnd, uint32(len(s.cur)))
		s.n++
		if len(s.cur) >= spillBlock {
			s.seal()
		}
	}
}

// seal compresses cur into a block.
func (s *spill) seal() {
	if len(s.curEnd) == 0 {
		return
	}
	z := zenc.EncodeAll(s.cur, make([]byte, 0, len(s.cur)/4))
	s.blocks = append(s.blocks, spillBlk{z: z[:len(z):len(z)], first: s.n - len(s.curEnd), end: s.curEnd})
	s.held += len(z) + 4*len(s.curEnd)
	s.cur, s.curEnd = s.cur[:0], nil
	if cap(s.cur) > 2*spillBlock { // grown for a large message: not kept
		s.cur = nil
	}
}

// end compresses the messages not compressed yet: the conversation is
// over, and many may wait for their output (a group's sessions).
func (s *spill) end() {
	s.seal()
	s.cur = nil
}

// Held is how many bytes the spilled messages hold: their compressed
// blocks and the encoded messages not compressed yet.
func (s *spill) Held() int {
	if s == nil {
		return 0
	}
	return s.held + len(s.cur)
}

// reopen returns spilled message i as a value that its events may change.
func (s *spill) reopen(i int) *Message {
	if m := s.reopened[i]; m != nil {
		return m
	}
	m := new(Message)
	var err error
	s.each(i, i+1, func(_ int, b []byte) bool {
		err = agt.API.Unmarshal(bytes.Clone(b), m) // its strings point into what they are decoded from
		return false
	})
	if err != nil { // the bytes are the encoder's own: never
		panic(fmt.Sprintf("transcript: spilled message %d: %v", i, err))
	}
	if s.reopened == nil {
		s.reopened = map[int]*Message{}
	}
	s.reopened[i] = m
	return m
}

// blockBufs are the buffers blocks are decompressed into.
var blockBufs = sync.Pool{New: func() any { b := make([]byte, 0, spillBlock+spillBlock/2); return &b }}

// each calls f with the encoded bytes of the spilled messages from to
// to-1 (to -1: to the last) in order, until f returns false. A reopened
// message is given as its bytes when it was spilled: callers that write
// check reopened.
func (s *spill) each(from, to int, f func(i int, b []byte) bool) {
	if to < 0 || to > s.n {
		to = s.n
	}
	bp := blockBufs.Get().(*[]byte)
	defer blockBufs.Put(bp)
	walk := func(first int, data []byte, end []uint32) bool {
		start := uint32(0)
		for k, e := range end {
			i := first + k
			if i >= to {
				return false
			}
			if i >= from && !f(i, data[start:e]) {
				return false
			}
			start = e
		}
		return true
	}
	for _, b := range s.blocks {
		if b.first+len(b.end) <= from {
			continue
		}
		if b.first >= to {
			return
		}
		data, err := zdec.DecodeAll(b.z, (*bp)[:0])
		if err != nil { // the blocks are the encoder's own: never
			panic(fmt.Sprintf("transcript: spilled block: %v", err))
		}
		*bp = data
		if !walk(b.first, data, b.end) {
			return
		}
	}
	walk(s.n-len(s.curEnd), s.cur, s.curEnd)
}

// write writes the spilled messages to c, a comma between them, a
// reopened one encoded again, and returns how many it wrote.
func (s *spill) write(c *chunkWriter) int {
	s.each(0, -1, func(i int, b []byte) bool {
		if i > 0 {
			c.buf = append(c.buf, ',')
		}
		if m := s.reopened[i]; m != nil {
			c.buf = AppendJSON(c.buf, m)
			c.buf = c.buf[:len(c.buf)-1]
		} else {
			c.buf = append(c.buf, b...)
		}
		c.spill()
		return c.err == nil
	})
	return s.n
}

// whole returns the spilled messages as values followed by tail.
func (s *spill) whole(tail []Message) []Message {
	ms := make([]Message, 0, s.n+len(tail))
	s.each(0, -1, func(i int, b []byte) bool {
		if m := s.reopened[i]; m != nil {
			ms = append(ms, *m)
			return true
		}
		var m Message
		if err := agt.API.Unmarshal(bytes.Clone(b), &m); err != nil {
			panic(fmt.Sprintf("transcript: spilled message %d: %v", i, err))
		}
		ms = append(ms, m)
		return true
	})
	return append(ms, tail...)
}

// Whole makes the transcript hold all its messages (and its subagents') as
// values: a transcript built with Consolidator.Spill holds its older
// messages encoded, which WriteJSON writes as they are but which a reader
// of Messages (an export) would not see. It does nothing to a transcript
// whose messages are all values.
func (t *Transcript) Whole() {
	if t.spill != nil {
		t.Messages, t.spill = t.spill.whole(t.Messages), nil
	}
	for i := range t.Subagents {
		s := &t.Subagents[i]
		if s.spill != nil {
			s.Messages, s.spill = s.spill.whole(s.Messages), nil
		}
	}
}

// Held is how many bytes the transcript's spilled messages hold (its
// subagents' too): compressed, and the last ones not yet compressed.
func (t *Transcript) Held() int {
	n := t.spill.Held()
	for i := range t.Subagents {
		n += t.Subagents[i].spill.Held()
	}
	return n
}
