package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// Config is a parse run's configuration: the run's own (stage.Config:
// Strict, Quiet, Name, Workers, Transform, Prepare, Progress) and what
// reading the inputs takes.
type Config struct {
	stage.Config
	Provider string // "" or "auto": detect from content
	Opts     agt.Options
	// MaxLine is the longest line read (0 = DefaultMaxLine): a longer one
	// is an error event holding its head, and is not held in memory.
	MaxLine int
	// MaxDoc is the largest whole JSON document read (0 = DefaultMaxDoc):
	// a larger one is an error event and an unreadable input.
	MaxDoc int64
	// Sink, when set, receives the events of each batch in input order
	// instead of the JSONL writer; an error ends the run.
	Sink func(evs []agt.Event) error
	// Skip, when set, is asked before a group of units (the inputs of one
	// session, see groupUnits) is read whether it can be left out (its
	// output is up to date); unit is UnitKey of the group's first file and
	// files are all the files of the group.
	Skip func(unit string, files []stage.Input) bool
	// Recall, when set, is asked for each session the grouping pre-pass
	// finds (provider name, native session id, the files of its group, the
	// first as Skip will be given it): the inputs not among this run's that
	// an earlier run read it from. They join the session's group (see
	// groupUnits), so that a session met again is made of all of its
	// inputs, not of the new ones alone.
	Recall func(provider, native string, files []stage.Input) []stage.Input
	// Flush, when set with Sink, is called whenever the Sink has been given
	// every batch ready so far, so that what it wrote reaches its reader
	// without waiting for more input.
	Flush func() error
	// NotLog, when set, tells why the first non-blank lines of an input
	// named or on stdin, that no provider recognises, are text known not
	// to be an agent log ("" when they may be one): see notALog.
	NotLog func(lines [][]byte) string
}

// Stats counts what a run read and wrote (see stage.Stats).
type Stats = stage.Stats

// Limits of what is read.
const (
	DefaultMaxLine = 256 << 20
	DefaultMaxDoc  = 1 << 30
)

// ErrData is returned under Strict when a data error ended the run.
var ErrData = stage.ErrData

const (
	batchBytes = 256 << 10
	// firstBlock is the size of a file's first block: small, as many files
	// are.
	firstBlock = 16 << 10
	headLines  = 5
)

// Output is where cfg sends the events: its Sink, else agt.event/1 lines
// on w.
func (cfg Config) Output(w io.Writer) stage.Output {
	if cfg.Sink != nil {
		return stage.Events{Take: cfg.Sink, Done: cfg.Flush}
	}
	return stage.NewJSONL(w)
}

// Parse reads the inputs and writes events to w (or cfg.Sink), diagnostics
// to diag.
//
// When ctx ends (an interrupt), reading stops, and the input unit being
// read ends there as if its input had (its last model call's usage and its
// session's end come out): every event of what was read is written, and
// Parse returns ctx's error.
func Parse(ctx context.Context, cfg Config, inputs []stage.Input, w io.Writer, diag io.Writer) (Stats, error) {
	src, err := NewSource(ctx, cfg, inputs)
	if err != nil {
		return Stats{}, err
	}
	return Run(ctx, cfg, src, cfg.Output(w), diag)
}

// Run runs the pipeline from src to out (see stage.Run). An interrupt (ctx
// ending) is the source's to handle: the run writes out what was read and
// returns ctx's error.
func Run(ctx context.Context, cfg Config, src *Source, out stage.Output, diag io.Writer) (Stats, error) {
	if src.diag != nil {
		diag = src.diag
	}
	st, err := stage.Run(context.WithoutCancel(ctx), cfg.Config, src, out, diag)
	if err == nil && !src.follow {
		err = ctx.Err()
	}
	return st, err
}

// Source reads input units for stage.Run: the registry detects the
// provider and format of each from its head, and the provider's parser
// makes its events.
type Source struct {
	cfg     Config // with its defaults set
	forced  Provider
	ign     ignored
	skipped atomic.Int64 // units left out by cfg.Skip
	read    func(ctx context.Context, s *Source, out chan<- *stage.Batch) error
	follow  bool      // a followed run: an interrupt is its normal end
	diag    io.Writer // set when the source's readers write notes too
}

// NewSource is the source of inputs read once, in groups of units (see
// groupUnits); when ctx ends (an interrupt), the unit being read ends
// there and no other is read.
func NewSource(ctx context.Context, cfg Config, inputs []stage.Input) (*Source, error) {
	s, err := newSource(cfg)
	if err != nil {
		return nil, err
	}
	stop := ctx.Done()
	s.read = func(rctx context.Context, s *Source, out chan<- *stage.Batch) error {
		return s.readAll(rctx, stop, out, inputs)
	}
	return s, nil
}

func newSource(cfg Config) (*Source, error) {
	if cfg.MaxLine <= 0 {
		cfg.MaxLine = DefaultMaxLine
	}
	if cfg.MaxDoc <= 0 {
		cfg.MaxDoc = DefaultMaxDoc
	}
	var forced Provider
	if cfg.Provider != "" && cfg.Provider != "auto" {
		if forced = Lookup(cfg.Provider); forced == nil {
			return nil, fmt.Errorf("unknown provider %q", cfg.Provider)
		}
	}
	return &Source{cfg: cfg, forced: forced}, nil
}

// Read sends the batches of the inputs' units (stage.Source).
func (s *Source) Read(ctx context.Context, out chan<- *stage.Batch) error { return s.read(ctx, s, out) }

// Skipped is how many units cfg.Skip left out so far.
func (s *Source) Skipped() int64 { return s.skipped.Load() }

// Ignored is how many walked files no provider recognised, and one line
// per walked argument that reports them.
func (s *Source) Ignored() (int64, []string) {
	var n int64
	for _, ps := range s.ign.paths {
		n += int64(len(ps))
	}
	return n, s.ign.report()
}

// readAll reads the inputs one group of units after another, until stop is
// closed (see readUnit).
func (s *Source) readAll(ctx context.Context, stop <-chan struct{}, out chan<- *stage.Batch, inputs []stage.Input) error {
	cfg := s.cfg
	groups := groupUnits(ctx, cfg, s.forced, Units(inputs))
	var rc *recount // a record several units hold counts once (see recount)
	for gi, g := range groups {
		if stopped(stop) && !fromStdin(g.units...) { // stdin may be a pipe, read to its end (stage.WithDrainStop)
			continue
		}
		if s.skip(g) {
			rc = nil
			continue
		}
		// an untold unit may be a copy of the group before it, or have a
		// copy in the group after it
		join := gi > 0 && (!g.told || !groups[gi-1].told)
		if !join {
			rc = nil
		}
		if rc == nil && (len(g.units) > 1 || gi+1 < len(groups) && (!g.told || !groups[gi+1].told)) {
			rc, join = newRecount(), false
		}
		for i, u := range g.units {
			if stopped(stop) && !fromStdin(u) {
				continue
			}
			if rc != nil {
				u.Recount = rc.unit(join && i == 0)
			}
			if err := s.readUnit(ctx, stop, u, out, g.roots); err != nil {
				return err
			}
		}
	}
	return nil
}

// skip tells whether cfg.Skip leaves the group g out (its output is up to
// date), and counts its units then.
func (s *Source) skip(g group) bool {
	if s.cfg.Skip == nil {
		return false
	}
	var files []stage.Input
	for _, u := range g.units {
		files = append(files, u.Files...)
	}
	if !s.cfg.Skip(UnitKey(agt.PathText(g.units[0].Files[0].Path)), files) { // the group as events name it (src.path of its first unit)
		return false
	}
	s.skipped.Add(int64(len(g.units)))
	return true
}

// fromStdin tells whether one of the units reads standard input.
func fromStdin(us ...*stage.Unit) bool {
	for _, u := range us {
		for _, f := range u.Files {
			if f.Path == stage.StdinPath {
				return true
			}
		}
	}
	return false
}

// stopped tells whether stop is closed.
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// UnitKey names the input unit a path belongs to: the file its provider
// reads it with (a Claude Code subagent file's session file), or itself.
func UnitKey(path string) string {
	for _, p := range registry {
		if g, ok := p.(Grouper); ok {
			if o := g.Owner(path); o != "" {
				return o
			}
		}
	}
	return path
}

// Units groups inputs into units: a file, together with the files its
// provider reads with it (a Claude Code session and its subagent files).
// Order follows the first file of each unit. An input given more than once
// (the same path twice, archive members of the same name) is read each
// time: the k-th occurrence of a file joins the k-th occurrence of the file
// it is read with (or the last one, when there are fewer).
func Units(inputs []stage.Input) []*stage.Unit {
	units := make([]*stage.Unit, len(inputs))
	byPath := map[string][]*stage.Unit{} // occurrences of a path, in order
	nth := make([]int, len(inputs))      // occurrence of inputs[i] among its path's
	for i, in := range inputs {
		units[i] = &stage.Unit{Files: []stage.Input{in}}
		nth[i] = len(byPath[in.Path])
		byPath[in.Path] = append(byPath[in.Path], units[i])
	}
	owner := func(i int) *stage.Unit {
		for _, p := range registry {
			if g, ok := p.(Grouper); ok {
				if o := g.Owner(inputs[i].Path); o != "" && o != inputs[i].Path {
					if us := byPath[o]; len(us) > 0 {
						return us[min(nth[i], len(us)-1)]
					}
				}
			}
		}
		return nil
	}
	for i, in := range inputs {
		if o := owner(i); o != nil {
			o.Files = append(o.Files, in)
			units[i].Files = nil
		}
	}
	out := units[:0]
	for _, u := range units {
		if len(u.Files) > 0 {
			out = append(out, u)
		}
	}
	return out
}

// readUnit reads the files of u and sends their lines in batches. roots
// names the sessions of a lineage its emitter makes ids for in their
// original too (group.roots).
//
// When stop is closed (an interrupt), the unit ends where it is: a stream
// read that would wait is its end, and no further block of a file or
// further file is read. The lines read are sent, and the unit's last batch
// ends it, as at the end of its input.
func (s *Source) readUnit(ctx context.Context, stop <-chan struct{}, u *stage.Unit, out chan<- *stage.Batch, roots map[string]string) error {
	send := func(b *stage.Batch) error {
		select {
		case out <- b:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	var last *stage.Batch
	flush := func(b *stage.Batch) error {
		if last != nil {
			if err := send(last); err != nil {
				return err
			}
		}
		last = b
		return nil
	}
	push := func() error { // a stream's batch goes on at once
		err := send(last)
		last = nil
		return err
	}
	for i, in := range u.Files {
		end, err := s.readFile(ctx, stop, u, i, in, roots, flush, push)
		if err != nil {
			return err
		}
		if end {
			break
		}
	}
	if last == nil {
		last = &stage.Batch{Unit: u}
	}
	last.End = true
	return send(last)
}

// readFile reads in, the i-th file of the unit u (see readUnit), and hands
// its batches to flush, and to push too once a stream's batch is to go on
// at once. end tells that the unit's files are not read further (stop).
// Its steps: open, then the batch loop, whose first batch holds the head
// that detects the provider and format (see fileRead.head).
func (s *Source) readFile(ctx context.Context, stop <-chan struct{}, u *stage.Unit, i int, in stage.Input, roots map[string]string,
	flush func(*stage.Batch) error, push func() error) (end bool, err error) {
	if stopped(stop) && in.Path != stage.StdinPath {
		return true, nil
	}
	if in.Walk != "" && stage.Store(in.Path) && !in.Store {
		s.ign.add(in) // a database no provider claimed
		return false, nil
	}
	f, end, err := s.open(ctx, stop, u, i, in, flush)
	if f == nil {
		return end, err
	}
	defer f.close()
	return false, f.batches(roots, flush, push)
}

// fileRead is one file of a unit being read (see readFile).
type fileRead struct {
	s    *Source
	u    *stage.Unit
	i    int // the file's index in u.Files
	in   stage.Input
	rc   io.ReadCloser
	br   *stage.BlockReader
	stop <-chan struct{} // the unit's stop: for a pipe, its end (stage.WithDrainStop)
	// sniffed is Detect of the file's head, once asked (the walk's filter
	// and detect ask it of the same head; every provider's Sniff decodes
	// the head's lines)
	sniffed *struct {
		p      Provider
		format string
	}
}

// detect is Detect(head), computed once for the file: head is the file's
// one head.
func (f *fileRead) detect(head agt.Head) (Provider, string) {
	if f.sniffed == nil {
		p, format := Detect(head)
		f.sniffed = &struct {
			p      Provider
			format string
		}{p, format}
	}
	return f.sniffed.p, f.sniffed.format
}

// recognised tells whether a provider recognises the file's head.
func (f *fileRead) recognised(head agt.Head) bool {
	p, _ := f.detect(head)
	return p != nil
}

// open opens in for reading; a file that cannot be opened is one
// diagnostic, handed to flush, and no fileRead. end tells that the unit
// is not read further (stopped before its read).
func (s *Source) open(ctx context.Context, stop <-chan struct{}, u *stage.Unit, i int, in stage.Input, flush func(*stage.Batch) error) (f *fileRead, end bool, err error) {
	rc, err := in.Open()
	if err != nil {
		return nil, false, flush(&stage.Batch{Unit: u, Path: in.Path, Diags: []agt.Diag{{Src: agt.Src{Path: in.Path}, Text: "unreadable: " + err.Error(), IO: true}}})
	}
	br := stage.NewBlockReader(rc)
	br.SetLimit(s.cfg.MaxLine, agt.MaxLineText)
	unitStop := stop
	if d := stage.DrainStop(ctx); d != nil && stage.Drains(rc) {
		unitStop = d // a pipe is read to its end after an interrupt (stage.WithDrainStop)
	} else if stopped(stop) { // stdin from a file or a terminal, interrupted before its read
		rc.Close()
		return nil, true, nil
	}
	br.StopOn(unitStop)
	br.SetStream(stage.IsStream(rc))
	return &fileRead{s: s, u: u, i: i, in: in, rc: rc, br: br, stop: unitStop}, false, nil
}

// blockFor is the size of the next block of a file of which left bytes
// are not in a batch yet (the cut line carried included): a batch's
// bytes, or, for the file's tail, what is left of it (no less than a
// first block). Most files end in a block of their own: one of a batch's
// size would be mostly empty (such blocks' empty parts were a fifth of
// the bytes a usage report allocated on the bench trees).
func blockFor(left int64) int {
	return int(max(min(left+1, batchBytes), firstBlock))
}

// size is the size of a plain file read as it is (not decompressed, not a
// stream), -1 for any other input. A reader that passes a file's bytes on
// as they are (the -o folder's, which hashes them) has the file's Stat.
func (f *fileRead) size() int64 {
	file, ok := f.rc.(interface{ Stat() (fs.FileInfo, error) })
	if !ok || f.br.Stream() {
		return -1
	}
	st, err := file.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return -1
	}
	return st.Size()
}

func (f *fileRead) close() {
	f.br.Close()
	f.rc.Close()
}

// batches is the batch loop: blocks of lines read and handed to flush
// until the file ends, a read fails or the unit stops.
func (f *fileRead) batches(roots map[string]string, flush func(*stage.Batch) error, push func() error) error {
	br, maxLine := f.br, f.s.cfg.MaxLine
	size := firstBlock
	left := f.size() // the bytes of the file not read into a batch yet (-1: unknown)
	for first := true; ; first = false {
		lines, rerr := br.Next(size)
		size = batchBytes
		b := &stage.Batch{Unit: f.u, Path: f.in.Path, First: br.Line() - int64(len(lines)) + 1}
		b.Add(br, lines, maxLine)
		if first {
			var h headEnd
			switch h, rerr = f.head(b, rerr, roots); h {
			case notLog:
				return flush(b)
			case leftOut:
				return nil
			}
		}
		for _, l := range b.Lines {
			b.Bytes += int64(len(l)) + 1
		}
		if left >= 0 {
			left -= b.Bytes
			size = blockFor(left)
		}
		if rerr != nil && rerr != io.EOF {
			b.ReadErr = f.readErr(b, rerr)
		}
		if err := flush(b); err != nil {
			return err
		}
		if rerr != nil || stopped(f.stop) && !br.Stream() { // a stream stopped ends with what it read (StopOn)
			return nil
		}
		if br.Stream() { // its lines go on now: the next may be long in coming
			if err := push(); err != nil {
				return err
			}
		}
	}
}

// readErr is the diagnostic of the read error that ended the file after
// the batch b.
func (f *fileRead) readErr(b *stage.Batch, rerr error) *agt.Diag {
	src := agt.Src{Path: f.in.Path, Line: f.br.Stopped()}
	if b.First == 0 { // in a document
		src.Line = 0
	}
	var big *docTooBig
	return &agt.Diag{Src: src, Text: "unreadable: " + rerr.Error(), IO: true,
		Said: errors.As(rerr, &big)} // its error event's line says it
}

// head completes the first batch b until it holds the file's head, and
// detects the unit's provider and format from it when this file is the
// unit's first (or none was found before), or tells that the file ends
// there.
func (f *fileRead) head(b *stage.Batch, rerr error, roots map[string]string) (headEnd, error) {
	br, cfg, u, in := f.br, f.s.cfg, f.u, f.in
	// a stream's first lines may come one by one, and an input's first
	// lines may all be longer than --max-line (an OpenCode database's
	// first session): the head is read until it tells the input's
	// provider and format
	for rerr == nil && (br.Stream() || onlyBad(b)) && !headReady(b) {
		var lines [][]byte
		lines, rerr = br.Next(batchBytes)
		b.Add(br, lines, cfg.MaxLine)
	}
	if len(b.Lines) > 0 && b.Bad[0] == nil { // a UTF-8 byte order mark is not content
		b.Lines[0] = bytes.TrimPrefix(b.Lines[0], []byte("\ufeff"))
	}
	if f.i != 0 && u.Parser != nil {
		return isLog, rerr
	}
	var head agt.Head
	if head, rerr = readHead(br, b, rerr, cfg.MaxDoc); head.Doc != nil && rerr == nil {
		rerr = io.EOF // the document is the whole input
	}
	if why := notALog(in, head, f.s.forced, cfg.NotLog); why != "" {
		// one line, no event: nothing of it is a record
		b.Lines, b.Bad, b.Diags = nil, nil, append(b.Diags, agt.Diag{Src: agt.Src{Path: in.Path}, Text: why, IO: true})
		return notLog, rerr
	}
	if in.Walk != "" && (len(head.Lines) > 0 || head.Doc != nil) && !isEvents(head) && !f.recognised(head) && !(cfg.Opts.Usage && isTranscripts(head)) {
		if !stage.Document(in.Path) {
			f.s.ign.add(in) // a walked file of no agent: left out
		} // a document (README.md) is left out silently
		return leftOut, rerr
	}
	f.start(b, head, rerr, roots)
	return isLog, rerr
}

// headEnd is what the head of a file tells of the rest of it.
type headEnd int

const (
	isLog   headEnd = iota // read on
	notLog                 // the batch holds the one line that says so, the file's only one
	leftOut                // a walked file of no agent: no batch
)

// start sets the unit's parser and emitter from the head of its file.
func (f *fileRead) start(b *stage.Batch, head agt.Head, rerr error, roots map[string]string) {
	u := f.u
	var big *docTooBig
	if errors.As(rerr, &big) { // its error event only
		u.Parser, u.Em = unclaimed{}, unclaimedEmitter(f.in.Path, f.s.cfg.Opts)
	} else {
		f.s.detect(u, f.in.Path, head, b, f.detect)
		for native, root := range roots { // sets a map: order does not matter
			u.Em.Continues(native, root)
		}
	}
	if m, ok := u.Parser.(Members); ok && f.i == 0 && len(u.Files) > 1 {
		paths := make([]string, 0, len(u.Files)-1)
		for _, file := range u.Files[1:] {
			paths = append(paths, file.Path)
		}
		m.Members(paths)
	}
}

// headReady tells whether the lines of a stream's first batch b are enough
// to detect its provider and format as readHead and detect do: a provider
// recognises them for good (not Tentative), they are headLines non-blank
// lines, or the first opens a JSON document (read whole by readHead).
func headReady(b *stage.Batch) bool {
	lines, doc := headOf(b)
	if doc {
		return true
	}
	h := agt.Head{Lines: lines}
	return len(h.Lines) >= headLines || len(h.Lines) > 0 && (isEvents(h) || recognised(h) && !tentative(h))
}

// maxBadHead bounds the lines read for a head when all of them are bad
// (longer than --max-line: each holds its first MiB).
const maxBadHead = 64

// onlyBad tells whether the batch b has lines, all bad or blank, and fewer
// than maxBadHead: its head must be looked for in the lines after them.
func onlyBad(b *stage.Batch) bool {
	if len(b.Bad) == 0 || len(b.Lines) >= maxBadHead {
		return false
	}
	lines, doc := headOf(b)
	return len(lines) == 0 && !doc
}

// headOf takes the first headLines non-blank lines of the batch b, bad ones
// left out, or tells that the first opens a JSON document (opensDocument).
func headOf(b *stage.Batch) (lines [][]byte, doc bool) {
	for i, line := range b.Lines {
		t := stage.TrimSpace(line)
		if len(t) == 0 || b.Bad[i] != nil {
			continue
		}
		if len(lines) == 0 && opensDocument(b, t) {
			return nil, true
		}
		if lines = append(lines, t); len(lines) == headLines {
			break
		}
	}
	return lines, false
}

// opensDocument tells whether t, the first non-blank line of the batch b
// (which has no bad line), is not JSON on its own but opens a JSON
// document: the input is then read whole, as one document.
func opensDocument(b *stage.Batch, t []byte) bool {
	return len(b.Bad) == 0 && (t[0] == '{' || t[0] == '[') && !agt.API.Valid(t)
}

// readHead takes the first non-blank lines of an input from its first batch
// b for detection. When the first one is not JSON but opens a JSON
// document, the whole input is read as one document record (compacted),
// up to maxDoc bytes: a larger document is an error event holding its head
// and a read error.
func readHead(br *stage.BlockReader, b *stage.Batch, rerr error, maxDoc int64) (agt.Head, error) {
	lines, opens := headOf(b)
	if !opens {
		return agt.Head{Lines: lines}, rerr
	}
	doc := bytes.Join(b.Lines, []byte("\n"))
	if rerr == nil {
		rest, err := io.ReadAll(io.LimitReader(br.Rest(), max(maxDoc-int64(len(doc)), 0)+1))
		doc = append(append(doc, '\n'), rest...)
		rerr = err
	}
	if int64(len(doc)) > maxDoc {
		b.Lines, b.First = [][]byte{doc[:min(len(doc), agt.MaxLineText)]}, 0
		err := &docTooBig{maxDoc}
		b.SetBad(0, err)
		if rerr == nil || rerr == io.EOF {
			rerr = err
		}
		return agt.Head{}, rerr
	}
	doc = agt.Compact(doc)
	b.Lines, b.First = [][]byte{doc}, 0
	return agt.Head{Doc: doc}, rerr
}

// detect picks the provider and format of u from the head of its first file
// (detected: Detect of it). A document given to a line format is one record
// (a pretty-printed line).
func (s *Source) detect(u *stage.Unit, path string, head agt.Head, b *stage.Batch, detected func(agt.Head) (Provider, string)) {
	cfg, forced := s.cfg, s.forced
	if isEvents(head) {
		u.Parser = events{}
		u.Em = agt.NewEmitter("", FormatEvents, cfg.Opts)
		u.Recount = nil // events pass as they are, as cat passes lines
		return
	}
	if cfg.Opts.Usage && isTranscripts(head) { // a usage report reads transcripts back
		u.Parser = transcripts{}
		u.Em = agt.NewEmitter("", FormatTranscripts, cfg.Opts)
		u.Recount = nil
		return
	}
	p, format := forced, ""
	if p != nil {
		format = p.Sniff(head)
		if format == "" {
			format = p.Formats()[0]
			if q, f := Detect(head); q != nil && len(head.Lines)+len(head.Doc) > 0 {
				b.Diags = append(b.Diags, agt.Diag{Src: agt.Src{Path: path}, Text: fmt.Sprintf("--provider %s given, but the content looks like %s (%s): records %s does not know become unknown events", p.Name(), q.Name(), f, p.Name())})
			}
		}
	} else {
		p, format = detected(head)
	}
	if p == nil {
		if len(head.Lines) > 0 || head.Doc != nil {
			b.Diags = append(b.Diags, agt.Diag{Src: agt.Src{Path: path}, Text: "no provider recognises this input; its records are kept as unknown events", Data: true})
		}
		u.Parser = unclaimed{}
		u.Em = unclaimedEmitter(path, cfg.Opts)
		return
	}
	u.Parser = p.NewParser(format, cfg.Opts)
	u.Em = agt.NewEmitter(p.Name(), format, cfg.Opts)
}

// notALog tells why an input named on the command line (or stdin) whose
// head is neither events nor content its provider (forced or detected)
// recognises is no agent log, for the one line that replaces its records:
// binary data (a NUL byte, a PDF, a first line that is not UTF-8), or
// text that the caller's NotLog knows; "" when it may be a log of a format
// agt does not know (its records are then unknown events).
func notALog(in stage.Input, head agt.Head, forced Provider, text func([][]byte) string) string {
	if in.Walk != "" || head.Doc != nil || len(head.Lines) == 0 || isEvents(head) {
		return ""
	}
	if forced != nil && forced.Sniff(head) != "" || forced == nil && recognised(head) {
		return ""
	}
	first := head.Lines[0]
	switch {
	case bytes.HasPrefix(first, []byte("%PDF-")) || slices.ContainsFunc(head.Lines, func(l []byte) bool { return bytes.IndexByte(l, 0) >= 0 }) ||
		!utf8.Valid(first) && first[0] != '{' && first[0] != '[':
		return "binary data, not an agent log"
	case text != nil:
		return text(head.Lines)
	}
	return ""
}

// docTooBig is the error of a JSON document larger than the limit.
type docTooBig struct{ limit int64 }

func (e *docTooBig) Error() string {
	return fmt.Sprintf("JSON document larger than the limit of %d bytes (--max-doc): not read", e.limit)
}

// recognised tells whether a provider recognises the content of head.
func recognised(head agt.Head) bool {
	p, _ := Detect(head)
	return p != nil
}

// ignored collects the walked files no provider recognises, for one line
// per walked argument at the end of the run.
type ignored struct {
	mu    sync.Mutex
	walks []string            // walked arguments, in order of first skip
	paths map[string][]string // walk → paths skipped
}

func (ig *ignored) add(in stage.Input) {
	ig.mu.Lock() // the readers of followed files add from goroutines of their own
	defer ig.mu.Unlock()
	if ig.paths == nil {
		ig.paths = map[string][]string{}
	}
	if _, ok := ig.paths[in.Walk]; !ok {
		ig.walks = append(ig.walks, in.Walk)
	}
	ig.paths[in.Walk] = append(ig.paths[in.Walk], in.Path)
}

// maxNamed is how many skipped files the report of a walk names.
const maxNamed = 10

// report is one line per walked argument: how many files were skipped and
// the first ones, named from the argument.
func (ig *ignored) report() []string {
	var lines []string
	for _, w := range ig.walks {
		paths := ig.paths[w]
		var names []string
		for _, p := range paths[:min(len(paths), maxNamed)] {
			n := strings.TrimPrefix(p, w)
			n = strings.TrimPrefix(strings.TrimPrefix(n, "!"), "/")
			names = append(names, strings.TrimPrefix(n, string(filepath.Separator)))
		}
		if len(paths) > maxNamed {
			names = append(names, fmt.Sprintf("… (%d more)", len(paths)-maxNamed))
		}
		what := fmt.Sprintf("%d files no provider recognises were skipped", len(paths))
		if len(paths) == 1 {
			what = "1 file no provider recognises was skipped"
		}
		lines = append(lines, fmt.Sprintf("%s: %s: %s", w, what, strings.Join(names, ", ")))
	}
	return lines
}

// unclaimed keeps every record of an input no provider recognises as an
// unknown event.
type unclaimed struct{}

// unclaimedEmitter is the emitter of an input no provider recognises: no
// record of it names a session, so its events go to the session named after
// the file at once rather than wait for one.
func unclaimedEmitter(path string, opts agt.Options) *agt.Emitter {
	em := agt.NewEmitter("unknown", "unknown", opts)
	em.Session(agt.FallbackSession(agt.PathText(path)))
	return em
}

func (unclaimed) Decode(rec []byte) (any, error) {
	var v struct{}
	if err := agt.Decode(rec, &v); err != nil {
		return nil, err
	}
	return v, nil
}
func (unclaimed) Apply(em *agt.Emitter, _ any) { em.Unknown("", "", "") }
func (unclaimed) Finish(*agt.Emitter)          {}
