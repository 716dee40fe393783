package transcript

import (
	"bytes"
	"fmt"

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
	spillBlock = 1 << 20
	// spillFrom is how many bytes a session keeps of its events (texts,
	// tool inputs and outputs) before it may spill, and spillUnit how many
	// the sessions of its unit (the file or group under way) keep
	// together: a session spills once both are passed. The sessions of
	// most trees never do, and cost no compression: spilling a 14 MB
	// session took a third of a fused run's time on a tree of 103 MB.
	spillFrom = 8 << 20
	spillUnit = 64 << 20
)

// zstd coders of the spilled blocks, shared: EncodeAll and DecodeAll may be
// called from several goroutines (a consolidator seals, the -o writers
// read).
var (
	zenc, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(2),
		zstd.WithLowerEncoderMem(true), zstd.WithZeroFrames(true))
	zdec, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(2), zstd.WithDecoderLowmem(true))
)

// store holds the spilled messages of a session's conversations, in the
// order they were spilled: compressed blocks, and the last messages not
// compressed yet (cur). The conversations of a session (its main stream
// and its subagents', which interleave) share it, so that a session holds
// one block under way, not one per subagent.
type store struct {
	blocks []*spillBlk
	cur    []byte   // encoded messages not yet compressed, back to back
	curEnd []uint32 // where each message of cur ends
	sealed int      // bytes of encoded messages sealed so far
	disk   *disk    // the file of the blocks past diskFrom (nil: none)
	zbuf   []byte   // a block read back from disk
	// the block last decompressed, for readers that walk a conversation
	last    int
	lastBuf []byte
}

// spillBlk is a compressed block of messages, end[i] where the i-th ends
// in the decompressed bytes. A block is compressed on a goroutine of its
// own while the session goes on: z is set once done is closed.
type spillBlk struct {
	z    []byte
	end  []uint32
	done chan struct{}
	// on disk (z nil): n bytes at off
	off int64
	n   int
}

// sealing bounds the blocks being compressed at once (each holds its
// uncompressed bytes until done): a session that spills faster than they
// compress waits.
var sealing = make(chan struct{}, 2)

// loc is where a spilled message is: the i-th of block blk (blk ==
// len(blocks): of cur).
type loc struct{ blk, i int32 }

// put spills m and returns where it is.
func (st *store) put(m *Message) loc {
	st.cur = AppendJSON(st.cur, m)
	st.cur = st.cur[:len(st.cur)-1] // the line end
	st.curEnd = append(st.curEnd, uint32(len(st.cur)))
	l := loc{int32(len(st.blocks)), int32(len(st.curEnd) - 1)}
	if len(st.cur) >= spillBlock {
		st.seal()
	}
	return l
}

// seal compresses cur into a block, on a goroutine of its own.
func (st *store) seal() {
	if len(st.curEnd) == 0 {
		return
	}
	b := &spillBlk{end: st.curEnd, done: make(chan struct{})}
	st.blocks = append(st.blocks, b)
	raw := st.cur
	st.cur, st.curEnd = make([]byte, 0, min(cap(raw), 2*spillBlock)), nil
	st.sealed += len(raw)
	if st.disk == nil && st.sealed > diskFrom {
		st.disk = newDisk(st)
	}
	d := st.disk
	sealing <- struct{}{}
	go func() {
		z := zenc.EncodeAll(raw, make([]byte, 0, len(raw)/4))
		if off, ok := d.put(z); ok {
			b.off, b.n = off, len(z)
		} else {
			b.z = bytes.Clone(z) // its own size: the blocks are what a session holds
		}
		close(b.done)
		<-sealing
	}()
}

// end compresses the messages not compressed yet: the session is over,
// and it may wait for its output (a group's sessions).
func (st *store) end() {
	st.seal()
	st.cur = nil
}

// Held is how many bytes the store holds: its compressed blocks (once
// compressed: it waits for them) and the encoded messages not compressed
// yet.
func (st *store) Held() int {
	if st == nil {
		return 0
	}
	n := len(st.cur)
	for _, b := range st.blocks {
		<-b.done
		n += len(b.z) + 4*len(b.end)
	}
	return n
}

// bytes returns the encoded message at l. It is valid until the next call.
func (st *store) bytes(l loc) []byte {
	data, end := st.cur, st.curEnd
	if int(l.blk) < len(st.blocks) {
		b := st.blocks[l.blk]
		if st.lastBuf == nil || st.last != int(l.blk) {
			<-b.done
			z := b.z
			if z == nil {
				st.zbuf = st.disk.get(st.zbuf, b.off, b.n)
				z = st.zbuf
			}
			var err error
			st.lastBuf, err = zdec.DecodeAll(z, st.lastBuf[:0])
			if err != nil { // the blocks are the encoder's own: never
				panic(fmt.Sprintf("transcript: spilled block: %v", err))
			}
			st.last = int(l.blk)
		}
		data, end = st.lastBuf, b.end
	}
	from := uint32(0)
	if l.i > 0 {
		from = end[l.i-1]
	}
	return data[from:end[l.i]]
}

// drop lets go of the block buffers of bytes.
func (st *store) drop() { st.lastBuf, st.last, st.zbuf = nil, 0, nil }

// spill is a conversation's spilled messages: messages 0 to len(at)-1.
type spill struct {
	st *store
	at []loc
	// messages decoded again because an event still reached them: they are
	// written from these values
	reopened map[int]*Message
}

// add spills ms, the messages that follow the ones already spilled.
func (s *spill) add(ms []Message) {
	for i := range ms {
		s.at = append(s.at, s.st.put(&ms[i]))
	}
}

// reopen returns spilled message i as a value that its events may change.
func (s *spill) reopen(i int) *Message {
	if m := s.reopened[i]; m != nil {
		return m
	}
	m := new(Message)
	// its strings point into what they are decoded from
	err := agt.API.Unmarshal(bytes.Clone(s.st.bytes(s.at[i])), m)
	s.st.drop()     // rare: not worth a block held
	if err != nil { // the bytes are the encoder's own: never
		panic(fmt.Sprintf("transcript: spilled message %d: %v", i, err))
	}
	if s.reopened == nil {
		s.reopened = map[int]*Message{}
	}
	s.reopened[i] = m
	return m
}

// each calls f with the encoded bytes of each spilled message in order (a
// reopened message as it was spilled), until f returns false. The block
// last decompressed stays for the next conversation (the subagents'
// messages are spilled between the main stream's, and are written in
// about the order they came): the caller drops it once done.
func (s *spill) each(f func(i int, b []byte) bool) {
	if s.st == nil {
		return
	}
	for i, l := range s.at {
		if !f(i, s.st.bytes(l)) {
			return
		}
	}
}

// write writes the spilled messages to c, a comma between them, a
// reopened one encoded again, and returns how many it wrote.
func (s *spill) write(c *chunkWriter) int {
	s.each(func(i int, b []byte) bool {
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
	return len(s.at)
}

// whole returns the spilled messages as values followed by tail.
func (s *spill) whole(tail []Message) []Message {
	ms := make([]Message, 0, len(s.at)+len(tail))
	s.each(func(i int, b []byte) bool {
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

// eachMessage calls f with each message of the main conversation in
// order, index and value: a spilled one decoded on its own, and only the
// fields turns reads (role, kind, ts, text, tool calls' id and ended_at,
// usage; its strings hold what it was decoded from: a caller keeps
// copies), so that a reader of them all holds one at a time.
func (t *Transcript) eachMessage(f func(i int, m *Message)) { eachOf(t.spill, t.Messages, f) }

// eachMessage is Transcript.eachMessage for a subagent's conversation.
func (s *Subagent) eachMessage(f func(i int, m *Message)) { eachOf(s.spill, s.Messages, f) }

// turnView is what turns reads of a spilled message: decoding it skips
// the rest (tool inputs and outputs, reasoning), most of a message's bytes.
type turnView struct {
	Role      string  `json:"role"`
	Kind      string  `json:"kind"`
	TS        string  `json:"ts"`
	Text      agt.Raw `json:"text"`
	ToolCalls []struct {
		ID      string `json:"id"`
		EndedAt string `json:"ended_at"`
	} `json:"tool_calls"`
	Usage *agt.Usage `json:"usage"`
}

// eachOf calls f with the messages sp spilled, then with msgs.
func eachOf(sp *spill, msgs []Message, f func(i int, m *Message)) {
	n := 0
	if sp != nil {
		defer sp.st.drop()
		sp.each(func(i int, b []byte) bool {
			if m := sp.reopened[i]; m != nil {
				f(i, m)
				return true
			}
			var v turnView
			if err := agt.API.Unmarshal(bytes.Clone(b), &v); err != nil {
				panic(fmt.Sprintf("transcript: spilled message %d: %v", i, err))
			}
			m := Message{Role: v.Role, Kind: v.Kind, TS: v.TS, Text: v.Text, Usage: v.Usage}
			if len(v.ToolCalls) > 0 {
				m.ToolCalls = make([]ToolCall, len(v.ToolCalls))
				for j, c := range v.ToolCalls {
					m.ToolCalls[j].ID, m.ToolCalls[j].EndedAt = c.ID, c.EndedAt
				}
			}
			f(i, &m)
			return true
		})
		n = len(sp.at)
	}
	for i := range msgs {
		f(n+i, &msgs[i])
	}
}

// Whole makes the transcript hold all its messages (and its subagents') as
// values: a transcript built with Consolidator.Spill holds its older
// messages encoded, which WriteJSON writes as they are but which a reader
// of Messages (an export) would not see. It does nothing to a transcript
// whose messages are all values.
func (t *Transcript) Whole() {
	defer t.drop()
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

// drop lets go of the block its store last decompressed.
func (t *Transcript) drop() {
	if t.spill != nil {
		t.spill.st.drop()
	}
	for i := range t.Subagents {
		if s := t.Subagents[i].spill; s != nil {
			s.st.drop()
		}
	}
}

// Held is how many bytes the transcript's spilled messages hold (its
// subagents' too, which share its store): compressed, and the last ones
// not yet compressed.
func (t *Transcript) Held() int {
	if t.spill != nil {
		return t.spill.st.Held()
	}
	for i := range t.Subagents {
		if s := t.Subagents[i].spill; s != nil {
			return s.st.Held()
		}
	}
	return 0
}
