package stage

import (
	"fmt"
	"io"
	"sync"

	"github.com/agt-project/agt"
	"github.com/bytedance/sonic/encoder"
)

// EncodeOpts are the options every agt JSON output is encoded with: map
// keys sorted, so that the same value gives the same bytes.
const EncodeOpts = encoder.NoValidateJSONMarshaler | encoder.SortMapKeys | encoder.EncodeNullForInfOrNan

// AppendEvent appends ev as one agt.event/1 line: the line it was read
// from when it passed through unchanged, else its encoding. It is the only
// event encoder: the pipe's events and the fused run's are the same bytes.
func AppendEvent(buf []byte, ev *agt.Event) []byte {
	if ev.Orig != nil {
		buf = append(buf, ev.Orig...)
	} else if err := encoder.EncodeInto(&buf, ev, EncodeOpts); err != nil {
		panic(fmt.Sprintf("encoding event: %v", err))
	}
	return append(buf, '\n')
}

// JSONL is the Output that writes events as agt.event/1 lines: each batch
// is encoded on the encoding goroutines, and written in order.
type JSONL struct{ w *Writer }

// NewJSONL writes events to w.
func NewJSONL(w io.Writer) *JSONL { return &JSONL{NewWriter(w)} }

// outBuffers are the buffers batches are encoded into, reused once
// written.
var outBuffers sync.Pool

// Encode encodes the batch's events into b.Out.
func (j *JSONL) Encode(b *Batch) {
	evs := b.Events()
	need := outSize(b)
	var buf []byte
	if p, _ := outBuffers.Get().(*[]byte); p != nil && cap(*p) >= need {
		buf = (*p)[:0]
	} else {
		buf = make([]byte, 0, need+need/4)
	}
	for i := range evs {
		buf = AppendEvent(buf, &evs[i])
	}
	b.Out = buf
}

// outSize is about the size of a batch's events encoded: its input, a
// quarter more, and 320 bytes an event. A long line's dropped tail is in no
// event, so it does not count.
func outSize(b *Batch) int {
	held := b.Bytes - b.Dropped
	return int(held + held/4 + int64(len(b.Events()))*320)
}

// Write writes the encoded batch, and keeps its buffer for another.
func (j *JSONL) Write(b *Batch) error {
	_, err := j.w.Write(b.Out)
	buf := b.Out[:0]
	b.Out = nil
	outBuffers.Put(&buf)
	return err
}

// Flush writes out what is buffered.
func (j *JSONL) Flush() error { return j.w.Flush() }

// Events is the Output of a function that takes each batch's events in
// order, and of one that hands on what it wrote (a buffered stdout).
type Events struct {
	Take func(evs []agt.Event) error
	Done func() error // nil: nothing to hand on
}

// Encode does nothing: the events are taken as they are.
func (Events) Encode(*Batch) {}

// Write gives the batch's events to Take.
func (e Events) Write(b *Batch) error { return e.Take(b.Events()) }

// Flush calls Done.
func (e Events) Flush() error {
	if e.Done == nil {
		return nil
	}
	return e.Done()
}

// Since is the Output of out without the events before a point (past):
// following from the end of the files (--from-end), the events of what
// they held when following started are made, so that the parsers know
// their sessions, but not written.
func Since(out Output, past func(ev *agt.Event) bool) Output {
	return since{out, past}
}

type since struct {
	Output
	past func(ev *agt.Event) bool
}

func (s since) Encode(b *Batch) {
	kept := b.events[:0]
	for i := range b.events {
		if !s.past(&b.events[i]) {
			kept = append(kept, b.events[i])
		}
	}
	clear(b.events[len(kept):])
	b.events = kept
	s.Output.Encode(b)
}
