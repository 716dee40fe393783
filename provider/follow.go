package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
	"golang.org/x/sync/errgroup"
)

// FollowSource is the source of a run (see Run) that reads like Parse,
// but follows (see stage.Follower): the log files
// among inputs are read as they grow, and the files that appear in roots
// (the paths given: folders are walked again, a file removed is read again
// when it comes back) are read as they come, from their start. The files
// of one session (a Claude Code session file and its subagent files) are
// one unit, read side by side (see liveUnits), so that its events are
// those of the finished files. A JSON document that is a unit of its own
// is read again whole when it changes, only its new records' events handed
// on (see followDoc). Inputs that are not followed (archive members,
// stores a provider claims, stdin) are read once, as Parse reads them, and
// one line on diag names them.
//
// Following ends when ctx does (an interrupt) or when fl.Idle has passed:
// each file is then read to its end and ended as a whole file is, and the
// run ends without an error: an interrupt is how following is meant to end.
// The notes of its readers and the run's diagnostics go to diag, one at a
// time.
func FollowSource(ctx context.Context, cfg Config, fl *stage.Follower, roots []string, inputs []stage.Input, diag io.Writer) (*Source, error) {
	s, err := newSource(cfg)
	if err != nil {
		return nil, err
	}
	s.follow = true
	s.diag = stage.Locked(diag)
	if fl.Note == nil && !cfg.Quiet {
		fl.Note = func(m string) { fmt.Fprintln(s.diag, m) }
	}
	s.read = func(rctx context.Context, s *Source, out chan<- *stage.Batch) error {
		fctx, stop := fl.Start(ctx)
		defer stop()
		defer context.AfterFunc(rctx, stop)() // a failed run (stdout closed) stops following
		r := &followRun{s: s, fl: fl, ctx: ctx, rctx: rctx, fctx: fctx, out: out, lives: newLiveUnits(s, out)}
		return r.run(roots, inputs)
	}
	return s, nil
}

// followRun is one followed run's reading (FollowSource): ctx is the
// caller's (an interrupt), rctx the run's (a failure), fctx following's;
// each file and document is read on a goroutine of g.
type followRun struct {
	s               *Source
	fl              *stage.Follower
	ctx, rctx, fctx context.Context
	out             chan<- *stage.Batch
	lives           *liveUnits
	g               errgroup.Group
}

// run reads the inputs, then the files that appear under roots, until
// following ends; the first read error is its error.
func (r *followRun) run(roots []string, inputs []stage.Input) error {
	followed, docs, once := r.sort(inputs)
	// the files of one session are one unit, read side by side: a session
	// and its subagent files are one session while followed, as when read
	// whole
	units, orphans := r.lives.group(Units(followed))
	for _, u := range units {
		if len(u.Files) == 1 && !stage.HasLine(u.Files[0].Path) {
			// created, not written yet: what it is (a member file,
			// perhaps) is known once it is, as for a file found later
			r.join(u.Files[0], false)
			continue
		}
		lu := r.lives.add(u)
		for i, in := range u.Files {
			r.spawn(func() error { return r.lives.read(r.rctx, lu, i, in) })
		}
	}
	for _, in := range orphans {
		r.join(in, true)
	}
	for _, in := range docs {
		r.spawn(func() error { return r.s.followDoc(r.rctx, r.fctx, r.fl, in, r.out) })
	}
	if len(once) > 0 {
		if note := onceNote(once); note != "" && !r.s.cfg.Quiet {
			fmt.Fprintln(r.s.diag, note)
		}
		// read whole, unless interrupted: the idle timeout waits for them
		r.spawn(func() error { return r.s.readAll(r.rctx, r.ctx.Done(), r.out, once) })
	}
	r.fl.Watch(r.fctx, roots, Claim, r.found)
	if err := r.lives.watched(r.rctx); err != nil {
		r.g.Wait()
		return err
	}
	return r.g.Wait()
}

// spawn runs read on a goroutine of its own; its error, unless it is the
// end of following, is the run's.
func (r *followRun) spawn(read func() error) {
	r.g.Go(func() error {
		if err := read(); err != nil && !(errors.Is(err, context.Canceled) && r.fctx.Err() != nil) {
			return err
		}
		return nil
	})
}

// sort parts the inputs into the files followed, the JSON documents
// followed (read again whole when they change) and the inputs read once;
// with --from-end, it says how many lines the followed files held.
func (r *followRun) sort(inputs []stage.Input) (followed, docs, once []stage.Input) {
	fl := r.fl
	var past int64
	for _, in := range inputs {
		if in.File && stage.Followable(in.Path) {
			fl.Mark(in.Path)
			past += fl.Backlog(in.Path) // --from-end: what it holds now is the past
			followed = append(followed, r.open(in))
		} else if in.File && stage.JSONDocument(in.Path) && UnitKey(in.Path) == in.Path {
			fl.Mark(in.Path)
			docs = append(docs, in)
		} else {
			fl.Before(in.Path)
			once = append(once, in)
		}
	}
	if fl.FromEnd && !r.s.cfg.Quiet {
		files := "files"
		if len(followed) == 1 {
			files = "file"
		}
		fmt.Fprintf(r.s.diag, "--from-end: %d lines already in %d %s, read for the totals, not shown\n", past, len(followed), files)
	}
	return followed, docs, once
}

// open makes in read through the follower (a file followed as it grows).
func (r *followRun) open(in stage.Input) stage.Input {
	path := in.Path
	in.Open = func() (io.ReadCloser, error) { return r.fl.Open(r.fctx, path) }
	return in
}

// found reads the files Watch found: a session's main file before its
// members (a folder is walked before the file of its name:
// <session>/subagents/ before <session>.jsonl), each joined now when it
// holds a whole line, else once it does (its head tells its session), and
// a member file whose main file waits so too after it (see join).
func (r *followRun) found(ins []stage.Input) {
	for _, in := range r.lives.mainsFirst(ins) {
		r.join(r.open(in), stage.HasLine(in.Path))
	}
}

// join joins in, a followed file found (or there at start, empty or a
// member whose main file is not there) to its unit and reads it: at once
// when written (it holds a whole line) and its unit is known, else on a
// goroutine once it is written and the files it may belong to are joined
// (see liveUnits.join).
func (r *followRun) join(in stage.Input, written bool) {
	seq := r.lives.find(in, !written)
	if written {
		if lu, i := r.lives.join(r.rctx, in, seq, false); lu != nil {
			r.spawn(func() error { return r.lives.read(r.rctx, lu, i, in) })
			return
		}
	}
	r.spawn(func() error {
		if !written {
			r.fl.Written(r.fctx, in.Path)
		}
		lu, i := r.lives.join(r.rctx, in, seq, true)
		return r.lives.read(r.rctx, lu, i, in)
	})
}

// onceNote is the line that names the inputs of a followed run that are
// read once, as they are when following starts: JSON documents, databases
// and agent stores, archives, which their agents rewrite or which are not
// appended to; up to three are named.
func onceNote(once []stage.Input) string {
	var names []string
	for _, in := range once {
		if in.Path == stage.StdinPath {
			continue
		}
		names = append(names, agt.PathText(in.Path))
	}
	if len(names) == 0 {
		return ""
	}
	more := ""
	if len(names) > 3 {
		more = fmt.Sprintf(" and %d more", len(names)-3)
		names = names[:3]
	}
	return fmt.Sprintf("-f: not followed, read once as they are now (databases and stores, archives): %s%s", strings.Join(names, ", "), more)
}

// followDoc follows a JSON document (a Gemini CLI session up to 0.38),
// which its agent writes again whole at each change: it is read whole now,
// and again each time it changes (a database would be watched with its
// write-ahead log: paths), as a unit of its own; a
// read again hands on only the events of records it did not hold before
// (by event id, made of the session and the record's own id), so that its
// records count once. A record changed in place keeps its first reading.
// When following ends, it is read once more if it changed.
func (s *Source) followDoc(ctx, fctx context.Context, fl *stage.Follower, in stage.Input, out chan<- *stage.Batch) error {
	seen := map[string]bool{} // on the goroutine that applies records (Keep)
	paths := []string{in.Path}
	if stage.Store(in.Path) {
		paths = append(paths, in.Path+"-wal")
	}
	info := stage.States(paths)
	for first := true; ; first = false {
		u := &stage.Unit{Files: []stage.Input{in}}
		u.Keep = func(ev *agt.Event) bool {
			if ev.ID == "" {
				return first
			}
			if seen[ev.ID] {
				return false
			}
			seen[strings.Clone(ev.ID)] = true
			if first {
				fl.PastEvent(ev) // --from-end: the document as it was is the past
			}
			return true
		}
		if err := s.readUnit(ctx, nil, u, out, nil); err != nil {
			return err
		}
		next := fl.Changed(fctx, paths, info)
		if fctx.Err() != nil { // following ended: once more if it changed
			if next = stage.States(paths); stage.SameStates(next, info) {
				return nil
			}
		}
		if next[0] == nil {
			return nil // removed: left
		}
		if info = settled(fctx, paths, next); info[0] == nil {
			return nil
		}
	}
}

// settled waits until the files at paths stop changing (their agent may
// be writing them: a read then would find a document cut short), a few
// moments at most, and returns their states then.
func settled(ctx context.Context, paths []string, st []os.FileInfo) []os.FileInfo {
	for range 20 {
		t := time.NewTimer(settle)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
		now := stage.States(paths)
		if stage.SameStates(now, st) || ctx.Err() != nil {
			return now
		}
		st = now
	}
	return st
}

// settle is how long a followed document is left unchanged before it is
// read again.
const settle = 50 * time.Millisecond
