package stage

import (
	"fmt"

	"github.com/agt-project/agt"
)

// decoded is a record after Decode: its value, an error, or both (fields of
// the wrong type in an otherwise readable record).
type decoded struct {
	v   any
	err error
	ok  bool // a record (not a blank line)
}

// decodeBatch decodes the lines of a batch with its unit's parser, on the
// decoding goroutines.
func decodeBatch(b *Batch) *Batch {
	if b.Unit.Parser == nil {
		return b
	}
	b.recs = make([]decoded, len(b.Lines))
	for i, line := range b.Lines {
		if err := b.Bad[i]; err != nil {
			b.recs[i] = decoded{nil, err, true}
			continue
		}
		if len(TrimSpace(line)) == 0 {
			continue
		}
		// JSON text is UTF-8: invalid bytes (a binary tool output written
		// raw) are replaced, so that the record is kept and what is copied
		// out is valid
		if l, fixed := agt.ValidUTF8(line); fixed {
			b.Lines[i], line = l, l
			b.fixed = append(b.fixed, i)
		}
		v, err := SafeDecode(b.Unit.Parser, line)
		b.recs[i] = decoded{v, err, true}
	}
	return b
}

// apply applies a batch's records to its unit's emitter, in input order,
// and takes the events and diagnostics they made.
func apply(b *Batch) {
	if b.ReadErr != nil {
		defer func() { b.Diags = append(b.Diags, *b.ReadErr) }()
	}
	u := b.Unit
	if u.Parser == nil {
		return
	}
	em := u.Em
	for i := range b.recs {
		d := &b.recs[i]
		if !d.ok {
			continue
		}
		line := agt.Raw(b.Lines[i])
		src := agt.Src{Path: b.Path, Line: b.First + int64(i)}
		if b.First == 0 { // a whole document, compacted when read
			src.Line = 0
		}
		em.At(src, line)
		if d.err != nil {
			em.Errorf("%v", d.err)
		}
		if d.v != nil {
			SafeApply(u.Parser, em, d.v)
		}
	}
	b.recs = nil
	if b.End {
		SafeFinish(u.Parser, em)
		em.Done()
	}
	ev, d := em.Take()
	if u.Recount != nil {
		u.Recount(ev)
	}
	if u.Keep != nil {
		kept := ev[:0]
		for i := range ev {
			if u.Keep(&ev[i]) {
				kept = append(kept, ev[i])
			}
		}
		clear(ev[len(kept):])
		ev = kept
	}
	b.events = ev
	for _, i := range b.fixed {
		b.Diags = append(b.Diags, agt.Diag{Src: agt.Src{Path: b.Path, Line: b.First + int64(i)}, Text: "invalid UTF-8 replaced with U+FFFD"})
	}
	b.Diags = append(b.Diags, d...)
	if b.End { // the unit's state is no longer needed
		u.Parser, u.Em, u.Recount, u.Keep = nil, nil, nil, nil
	}
}

// transform applies fn to a batch's events, on the encoding goroutines.
func transform(b *Batch, fn func(*agt.Event) string) {
	if fn == nil {
		return
	}
	for i := range b.events {
		if w := fn(&b.events[i]); w != "" {
			b.warnings = append(b.warnings, w)
		}
	}
}

// A parser that panics on a record is a bug, but it must not end the run:
// the record becomes an error event naming the bug, and the run goes on.

// SafeDecode decodes a record with p, a panic an error.
func SafeDecode(p agt.Parser, line []byte) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("internal error (please report): %v", r)
		}
	}()
	return p.Decode(line)
}

// SafeApply applies a record to em, a panic an error event.
func SafeApply(p agt.Parser, em *agt.Emitter, v any) {
	defer func() {
		if r := recover(); r != nil {
			em.Errorf("internal error (please report): %v", r)
		}
	}()
	p.Apply(em, v)
}

// SafeFinish ends an input, a panic an error event.
func SafeFinish(p agt.Parser, em *agt.Emitter) {
	defer func() {
		if r := recover(); r != nil {
			em.Errorf("internal error at the end of the input (please report): %v", r)
		}
	}()
	p.Finish(em)
}

// TrimSpace removes JSON white space (space, tab, CR, LF) around b: a line
// of other spaces (U+00A0) is not blank.
func TrimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
