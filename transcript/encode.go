package transcript

import (
	"bytes"
	"io"
	"slices"
	"sync"
)

// chunk is about how much encoded JSON WriteJSON holds before it hands it
// on: a transcript of a long session is hundreds of MB as one line, and
// encoding it whole would hold it twice (the messages and their bytes).
const chunk = 1 << 20

// Markers of the two arrays WriteJSON encodes element by element. They can
// only stand where a key does: in an encoded string every '"' is escaped.
var (
	messagesKey  = []byte(`,"messages":[]`)
	subagentsKey = []byte(`,"subagents":[]`)
)

// WriteJSON writes t as one JSON line to w, the same bytes as AppendJSON,
// encoding its messages (and its subagents' messages) one at a time so that
// no more than about a chunk of encoded text is held at once.
func WriteJSON(w io.Writer, t *Transcript) error {
	shell := *t
	// nil arrays encode as null, as AppendJSON has them
	if t.Messages != nil {
		shell.Messages = []Message{}
	}
	if t.Subagents != nil {
		shell.Subagents = []Subagent{}
	}
	head := AppendJSON(nil, &shell)
	i, j := len(head), len(head) // where the arrays' elements go
	if t.Messages != nil {
		i = bytes.Index(head, messagesKey) + len(messagesKey) - 1
	}
	if t.Subagents != nil {
		j = bytes.Index(head, subagentsKey) + len(subagentsKey) - 1
	}
	if i < len(messagesKey)-1 || j < len(subagentsKey)-1 || j < i {
		whole := *t // not the layout looked for: whole
		whole.Subagents = slices.Clone(t.Subagents)
		whole.Whole()
		_, err := w.Write(AppendJSON(nil, &whole))
		return err
	}
	defer t.drop()
	bp := chunks.Get().(*[]byte)
	defer chunks.Put(bp)
	cw := &chunkWriter{w: w, buf: (*bp)[:0]}
	defer func() { *bp = cw.buf[:0] }()
	cw.put(head[:i])
	cw.messages(t.spill, t.Messages)
	cw.put(head[i:j])
	for k := range t.Subagents {
		if k > 0 {
			cw.put([]byte{','})
		}
		cw.subagent(&t.Subagents[k])
	}
	cw.put(head[j:])
	return cw.flush()
}

// chunks are the buffers of WriteJSON, reused from one transcript to the
// next: a new one per transcript is a megabyte cleared for each.
var chunks = sync.Pool{New: func() any { b := make([]byte, 0, chunk+chunk/4); return &b }}

// chunkWriter gathers encoded pieces and writes them in chunks; the first
// write error is kept and ends the writing.
type chunkWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (c *chunkWriter) put(b []byte) {
	c.buf = append(c.buf, b...)
	c.spill()
}

func (c *chunkWriter) spill() {
	if len(c.buf) >= chunk && c.err == nil {
		_, c.err = c.w.Write(c.buf)
		c.buf = c.buf[:0]
	}
}

func (c *chunkWriter) flush() error {
	if c.err == nil && len(c.buf) > 0 {
		_, c.err = c.w.Write(c.buf)
		c.buf = c.buf[:0]
	}
	return c.err
}

// messages encodes the elements of a messages array that put has opened:
// the spilled messages (s, nil when none), then ms.
func (c *chunkWriter) messages(s *spill, ms []Message) {
	n := 0
	if s != nil {
		n = s.write(c)
	}
	for k := range ms {
		if k+n > 0 {
			c.buf = append(c.buf, ',')
		}
		c.buf = AppendJSON(c.buf, &ms[k])
		c.buf = c.buf[:len(c.buf)-1] // the line end AppendJSON adds
		c.spill()
	}
}

// subagent encodes one subagent, its messages one at a time.
func (c *chunkWriter) subagent(s *Subagent) {
	shell := *s
	shell.Messages = []Message{}
	b := AppendJSON(nil, &shell)
	b = b[:len(b)-1]
	i := bytes.Index(b, messagesKey)
	if i < 0 || s.Messages == nil {
		whole := *s
		if s.spill != nil {
			whole.Messages, whole.spill = s.spill.whole(s.Messages), nil
		}
		c.buf = AppendJSON(c.buf, &whole)
		c.buf = c.buf[:len(c.buf)-1]
		c.spill()
		return
	}
	c.put(b[:i+len(messagesKey)-1])
	c.messages(s.spill, s.Messages)
	c.put(b[i+len(messagesKey)-1:])
}
