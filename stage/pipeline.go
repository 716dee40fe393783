package stage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/agt-project/agt"
	"golang.org/x/sync/errgroup"
)

// The pipeline every filter runs:
//
//	Source ──batches──▶ decode (n goroutines, in order)
//	       ──▶ apply + Prepare (one goroutine: parser state, input order)
//	       ──▶ Transform + Output.Encode (n goroutines, in order)
//	       ──▶ Output.Write, diagnostics, stats (one goroutine)
//
// A Source (the provider registry reading inputs: provider.Source) sends
// the batches of lines of its input units, each unit's in order, the last
// one ending it; the unit's parser decodes each line on the decoding
// goroutines and applies the records to the unit's emitter in order, which
// makes the events. An Output receives them: the JSONL writer (the only
// event encoder, see JSONL), the transcript consolidator or the summary
// stream log (package transcript).

// Config is what a run does beside reading and writing.
type Config struct {
	Strict  bool   // the first data error ends the run
	Quiet   bool   // no diagnostics on stderr
	Name    string // the program, the prefix of warnings ("" = agt)
	Workers int    // decode and encode goroutines; 0 = GOMAXPROCS
	// Transform, when set, is applied to every event before it is written,
	// on the encoding goroutines (it must be safe for concurrent use). A
	// non-empty return is a warning for stderr; the writer prints each
	// distinct warning once.
	Transform func(ev *agt.Event) (warning string)
	// Prepare, when set, sees every batch's events in input order, on one
	// goroutine, before Transform does: what a transform needs of earlier
	// events (a session's working folder) is taken there.
	Prepare func(evs []agt.Event)
	// Progress, when set, is called after each batch is written.
	Progress func(st Stats)
}

// Stats counts what a run read and wrote. Ignored counts the walked files
// no provider recognises, left out.
type Stats struct {
	Units, Skipped, Lines, Bytes, Events, Errors, Unknown, Unreadable, Ignored int64
	// Apply is the time spent in the one ordered step (records applied to
	// their emitters, Prepare): the serial part of the run, whose share of
	// the CPU bounds how far the run scales with cores.
	Apply time.Duration
}

// ErrData is returned under Strict when a data error ended the run.
var ErrData = errors.New("data error")

// A Source reads input units and sends their batches.
type Source interface {
	// Read sends batches to out until its inputs are read, or ctx ends (a
	// failure of the run). It may send batches of several units from
	// several goroutines, as long as the batches of each unit are sent in
	// order and its last one has End set.
	Read(ctx context.Context, out chan<- *Batch) error
	// Skipped is how many units were left out as up to date so far.
	Skipped() int64
	// Ignored is, once Read has returned, how many walked files were left
	// out as no provider's, and the lines that report them.
	Ignored() (n int64, report []string)
}

// An Output receives the events of a run.
type Output interface {
	// Encode prepares a batch for Write on the encoding goroutines, after
	// the transform: batches come in any order.
	Encode(b *Batch)
	// Write takes the batches in input order.
	Write(b *Batch) error
	// Flush hands on what was written: it is called whenever no other
	// batch is ready, and at the end.
	Flush() error
}

// Unit is one input unit: a file, or a session's files read together, and
// the parser and emitter that make its events (set by the source when it
// reads the unit's head).
type Unit struct {
	Files  []Input
	Parser agt.Parser
	Em     *agt.Emitter
	// Recount, when set, sees the events of each of the unit's batches as
	// soon as its parser made them, in input order, on the one goroutine
	// that applies records, and may replace them (the source's records
	// that an earlier unit already held: provider.Source).
	Recount func(evs []agt.Event)
	// Keep, when set, is asked of each event its parser made (after
	// Recount, on the same goroutine): those it refuses are not handed on
	// (a document followed and read again: the records it held before
	// were handed on then).
	Keep func(ev *agt.Event) bool
}

// Batch is a run of lines of one unit's file, and what the stages make of
// them.
type Batch struct {
	Unit  *Unit
	Path  string
	First int64 // line number of Lines[0]; 0 for a document
	Lines [][]byte
	Bad   map[int]error // lines that are errors whatever their content (too long)
	// ReadErr is the read error that ended the batch's file, reported after
	// the batch's other diagnostics.
	ReadErr *agt.Diag
	Bytes   int64 // input bytes the batch stands for
	// Dropped is the part of Bytes that was read but not held: the tails
	// of lines longer than the limit.
	Dropped int64
	End     bool       // the unit's last batch
	Diags   []agt.Diag // diagnostics of the source (detection)
	// Out is what an Output's Encode made of the events (JSONL).
	Out []byte

	recs     []decoded
	fixed    []int // lines whose invalid UTF-8 was replaced
	events   []agt.Event
	warnings []string
}

// Events are the batch's events, once applied.
func (b *Batch) Events() []agt.Event { return b.events }

// SetBad makes line i an error event whatever its content.
func (b *Batch) SetBad(i int, err error) {
	if b.Bad == nil {
		b.Bad = map[int]error{}
	}
	b.Bad[i] = err
}

// Add appends lines just read by br to b, marking those longer than the
// limit.
func (b *Batch) Add(br *BlockReader, lines [][]byte, maxLine int) {
	off := len(b.Lines)
	for _, l := range br.Long() {
		b.Bytes += l.Size - int64(len(lines[l.Index]))
		b.Dropped += l.Size - int64(len(lines[l.Index]))
		b.SetBad(off+l.Index, fmt.Errorf("line of %d bytes is longer than the limit of %d bytes (--max-line): only its head is kept", l.Size, maxLine))
	}
	b.Lines = append(b.Lines, lines...)
}

// Run runs the pipeline from src to out, diagnostics to diag. ctx ends
// only with a failure of the run: an interrupt is the source's to handle
// (it ends its units, and the pipeline writes them out).
//
// Its steps are the diagram's: feed, decode, apply, encode, write; the
// first error of one ends the others (errgroup).
func Run(ctx context.Context, cfg Config, src Source, out Output, diag io.Writer) (Stats, error) {
	n := cfg.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	g, gctx := errgroup.WithContext(ctx)
	read := feed(g, gctx, src, n)
	decoded := Map(gctx, read, n, decodeBatch)
	var serial time.Duration // written by the apply step, read after Wait
	applied := applyInOrder(g, gctx, decoded, cfg.Prepare, n, &serial)
	encoded := Map(gctx, applied, n, func(b *Batch) *Batch {
		transform(b, cfg.Transform)
		out.Encode(b)
		return b
	})
	w := &writer{cfg: cfg, src: src, out: out, diag: diag, warned: map[string]bool{}}
	g.Go(func() error { return w.run(gctx, encoded) })
	err := g.Wait()
	w.st.Skipped, w.st.Apply = src.Skipped(), serial
	return w.st, err
}

// serialCPU: AGT_DEBUG_SERIAL is set (a measuring hook: see applyInOrder).
var serialCPU = os.Getenv("AGT_DEBUG_SERIAL") != ""

// feed is the first step: the source's batches, on a channel of n. The
// source runs outside the group, so that a failure of a later step (stdout
// closed) does not wait for a read from a pipe, which cannot be cancelled:
// the reader is left behind (its context ends when the run does).
func feed(g *errgroup.Group, ctx context.Context, src Source, n int) <-chan *Batch {
	read := make(chan *Batch, n)
	raw := make(chan *Batch)
	var readErr error
	go func() {
		defer close(raw)
		readErr = src.Read(ctx, raw)
	}()
	g.Go(func() error {
		defer close(read)
		for {
			select {
			case b, ok := <-raw:
				if !ok {
					return readErr
				}
				select {
				case read <- b:
				case <-ctx.Done():
					return nil
				}
			case <-ctx.Done():
				return nil
			}
		}
	})
	return read
}

// applyInOrder is the one ordered step: each decoded batch's records
// applied to its unit's emitter, then prepare, in input order. The time
// it spends on them is added to serial (two clock reads a batch); with
// AGT_DEBUG_SERIAL set, where the system tells a thread's CPU time, the
// step runs on a thread of its own and serial is that thread's CPU time
// instead, which a busy machine does not inflate.
func applyInOrder(g *errgroup.Group, ctx context.Context, decoded <-chan *Batch, prepare func([]agt.Event), n int, serial *time.Duration) <-chan *Batch {
	applied := make(chan *Batch, n)
	g.Go(func() error {
		defer close(applied)
		wall := true
		if serialCPU {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if c0, ok := threadCPU(); ok {
				wall = false
				defer func() {
					c1, _ := threadCPU()
					*serial = c1 - c0
				}()
			}
		}
		for b := range decoded {
			var t time.Time
			if wall {
				t = time.Now()
			}
			apply(b)
			if prepare != nil {
				prepare(b.events)
			}
			if wall {
				*serial += time.Since(t)
			}
			select {
			case applied <- b:
			case <-ctx.Done():
				return nil
			}
		}
		return nil
	})
	return applied
}

// writer is the last step: warnings and diagnostics on diag, the run's
// counts, and the batches handed to the output in input order.
type writer struct {
	cfg    Config
	src    Source
	out    Output
	diag   io.Writer
	st     Stats
	warned map[string]bool
	shown  capped
}

// run writes the encoded batches until the channel closes, then the
// source's report of what it left out.
func (w *writer) run(ctx context.Context, encoded <-chan *Batch) error {
	defer w.shown.report(w.diag, "")
	for b := range encoded {
		if err := w.batch(b); err != nil {
			return err
		}
		if len(encoded) == 0 { // nothing else is ready: what was written goes out now
			if err := w.out.Flush(); err != nil {
				return err
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// the source is done (read is closed before encoded)
	var report []string
	w.st.Ignored, report = w.src.Ignored()
	if !w.cfg.Quiet {
		for _, line := range report {
			fmt.Fprintln(w.diag, line)
		}
	}
	return w.out.Flush()
}

// batch tells b's warnings and diagnostics, counts it and writes it.
func (w *writer) batch(b *Batch) error {
	w.warn(b.warnings)
	if err := w.diags(b.Diags); err != nil {
		return err
	}
	w.count(b)
	if err := w.out.Write(b); err != nil {
		return err
	}
	if w.cfg.Progress != nil {
		w.st.Skipped = w.src.Skipped()
		w.cfg.Progress(w.st)
	}
	return nil
}

// warn prints each distinct warning once.
func (w *writer) warn(warnings []string) {
	name := w.cfg.Name
	if name == "" {
		name = "agt"
	}
	for _, m := range warnings {
		if !w.warned[m] && !w.cfg.Quiet {
			fmt.Fprintf(w.diag, "%s: %s\n", name, m)
		}
		w.warned[m] = true
	}
}

// diags counts and prints a batch's diagnostics (the first of each kind
// per input); under Strict, the first data error ends the run.
func (w *writer) diags(ds []agt.Diag) error {
	strict := w.cfg.Strict
	for _, d := range ds {
		if d.Data {
			w.st.Errors++
		}
		if d.IO {
			w.st.Unreadable++
		}
		if strict && d.Data || !w.cfg.Quiet && !d.Said && w.shown.show(d) {
			fmt.Fprintln(w.diag, d)
		}
		if strict && d.Data {
			w.out.Flush()
			return ErrData
		}
	}
	return nil
}

// count adds the batch's lines, bytes, units and events to the run's
// counts.
func (w *writer) count(b *Batch) {
	w.st.Lines += int64(len(b.Lines))
	w.st.Bytes += b.Bytes
	if b.End {
		w.st.Units++
		for _, f := range b.Unit.Files {
			w.shown.report(w.diag, f.Path)
		}
	}
	w.st.Events += int64(len(b.events))
	for i := range b.events {
		if b.events[i].Kind == agt.KindUnknown {
			w.st.Unknown++
		}
	}
}
