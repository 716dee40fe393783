package provider

import (
	"context"
	"io"
	"os"
	"path"
	"sync"

	"github.com/agt-project/agt/stage"
)

// liveUnits are the units of a followed run. The files of one session (a
// Claude Code session file and its subagent files, by path or by the
// session their head names) are one unit, as when read whole: its files
// are read side by side, each by a goroutine of its own, and their batches
// go to the one parser of the unit as they come (the files' own order is
// kept). The first file read (the session's main file) tells the unit's
// format; a member file's batches wait for it. The unit ends (its last
// batch) once all its files have ended: when following ends. A file that
// appears later joins the unit of its session while it is followed; a
// member file whose main file holds no whole line yet (created empty)
// waits for it (see join).
type liveUnits struct {
	s         *Source
	out       chan<- *stage.Batch
	mu        sync.Mutex
	byPath    map[string]*liveUnit // a unit by the path of each of its files being read
	byMain    map[string]*liveUnit // a unit not ended by the path of its main file, read or not
	bySession map[string]*liveUnit // a unit by provider NUL native session of its main file
	// watching: the folders are still looked at (their last look is taken
	// when following ends): no unit ends before, nor while a file found
	// is still to join its unit (unjoined), so that a member file found in
	// the last look, or waiting for its main file, joins its session's unit
	watching bool
	unjoined int
	units    []*liveUnit
	// found counts the files found; waiting are those found empty (or
	// with no whole line yet), by path, not joined yet: a member file
	// whose main file is not followed waits for those found before it
	// (see join)
	found   int
	waiting map[string]*waitingFile
}

// waitingFile is a file found before it held a whole line: its head
// cannot tell its session yet.
type waitingFile struct {
	seq  int           // when it was found (liveUnits.found)
	done chan struct{} // closed once it is joined (its head read)
}

type liveUnit struct {
	u       *stage.Unit
	send    sync.Mutex // one batch at a time, in the order of each file
	files   int        // files joined so far (the index of the next one)
	running int        // files being read
	ended   bool
	paths   []string
	session string
	ready   chan struct{} // closed once the main file's first batch went (or it ended)
	once    sync.Once
}

func newLiveUnits(s *Source, out chan<- *stage.Batch) *liveUnits {
	return &liveUnits{s: s, out: out, byPath: map[string]*liveUnit{}, byMain: map[string]*liveUnit{}, bySession: map[string]*liveUnit{}, watching: true, waiting: map[string]*waitingFile{}}
}

// group joins units whose first file is a member file of a session (a
// Claude Code 2.0 sidechain file) to the unit of the session's main file,
// one in the same folder first, as groupUnits does for a run read once.
// The member files whose main file is not among them are orphans: they
// join a unit as files found while following do (see join).
func (ls *liveUnits) group(units []*stage.Unit) (out []*stage.Unit, orphans []stage.Input) {
	ids := make([]identity, len(units))
	mains := map[string][]int{}
	for i, u := range units {
		ids[i] = ls.identify(u.Files[0])
		if ids[i].session != "" && !ids[i].member {
			k := ids[i].prov + "\x00" + ids[i].session
			mains[k] = append(mains[k], i)
		}
	}
	for i, u := range units {
		if !ids[i].member {
			out = append(out, u)
			continue
		}
		into := -1
		for _, m := range mains[ids[i].prov+"\x00"+ids[i].session] {
			if into < 0 || path.Dir(units[m].Files[0].Path) == path.Dir(u.Files[0].Path) {
				into = m
			}
		}
		switch {
		case into >= 0:
			units[into].Files = append(units[into].Files, u.Files...)
		case len(u.Files) == 1:
			orphans = append(orphans, u.Files[0])
		default:
			out = append(out, u)
		}
	}
	return out, orphans
}

// add makes a live unit of u, whose files are all read from now.
func (ls *liveUnits) add(u *stage.Unit) *liveUnit {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	lu := &liveUnit{u: u, ready: make(chan struct{}), files: len(u.Files), running: len(u.Files)}
	ls.units = append(ls.units, lu)
	for _, f := range u.Files {
		lu.paths = append(lu.paths, f.Path)
		ls.byPath[f.Path] = lu
	}
	ls.byMain[u.Files[0].Path] = lu
	if id := ls.identify(u.Files[0]); id.session != "" && !id.member {
		lu.session = id.prov + "\x00" + id.session
		ls.bySession[lu.session] = lu
	}
	return lu
}

// find counts in, a file found while following; wait tells that it holds
// no whole line yet (its read waits for one): until it is joined, member
// files found after it may be its own.
func (ls *liveUnits) find(in stage.Input, wait bool) int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.found++
	ls.unjoined++
	if wait {
		ls.waiting[in.Path] = &waitingFile{seq: ls.found, done: make(chan struct{})}
	}
	return ls.found
}

// join places in, a file found while following as the seq-th, in the
// unit of its session when one is followed (by its path: UnitKey, else by
// its head), else in a unit of its own; it returns the unit and the
// file's index in it. A member file whose unit is not followed yet waits
// first for the files found before it that held no whole line then: one
// may be its main file (created empty, written a moment later), and it is
// read in that unit, as when its folder is read whole. When wait is false
// and it would wait, join returns no unit.
func (ls *liveUnits) join(ctx context.Context, in stage.Input, seq int, wait bool) (*liveUnit, int) {
	id := ls.identify(in)
	ls.mu.Lock()
	lu := ls.followed(in.Path, id)
	for w := ls.mainWaiting(in.Path, id, seq); lu == nil && w != nil; w = ls.mainWaiting(in.Path, id, seq) {
		ls.mu.Unlock()
		if !wait {
			return nil, 0
		}
		<-w.done // once written, or when following ends
		ls.mu.Lock()
		lu = ls.followed(in.Path, id)
	}
	if w := ls.waiting[in.Path]; w != nil { // the files that wait for it go on
		delete(ls.waiting, in.Path)
		close(w.done)
	}
	lu, i := ls.place(in, id, lu)
	ls.unjoined--
	last := ls.unjoined == 0 && !ls.watching
	ls.mu.Unlock()
	if last { // the units whose files have all ended end now
		ls.endDone(ctx) // fails only when the run does: its error is the run's
	}
	return lu, i
}

// followed is the unit followed of the file at p, which identifies as id:
// the unit of its UnitKey (for a member by its path, the unit of that main
// file even when it is read to its end: the folder's last look may find
// the member after), else, for a member by its head, its session's (ls.mu
// held).
func (ls *liveUnits) followed(p string, id identity) *liveUnit {
	k := UnitKey(p)
	lu := ls.byPath[k]
	if lu == nil && k != p {
		lu = ls.byMain[k]
	}
	if lu == nil && id.member {
		if lu = ls.bySession[id.prov+"\x00"+id.session]; lu == nil {
			lu = ls.told(id.prov + "\x00" + id.session)
		}
	}
	return lu
}

// place makes in, which identifies as id, the next file of lu, or, when
// lu is nil or ended, the first of a unit of its own; it returns the unit
// and the file's index in it (ls.mu held).
func (ls *liveUnits) place(in stage.Input, id identity, lu *liveUnit) (*liveUnit, int) {
	if lu != nil && !lu.ended {
		i := lu.files
		lu.files++
		lu.running++
		lu.paths = append(lu.paths, in.Path)
		ls.byPath[in.Path] = lu
		return lu, i
	}
	lu = &liveUnit{u: &stage.Unit{Files: []stage.Input{in}}, ready: make(chan struct{}), files: 1, running: 1, paths: []string{in.Path}}
	ls.units = append(ls.units, lu)
	ls.byPath[in.Path] = lu
	ls.byMain[in.Path] = lu
	if id.session != "" && !id.member {
		lu.session = id.prov + "\x00" + id.session
		ls.bySession[lu.session] = lu
	}
	return lu, 0
}

// read reads in, the i-th file of lu, to its end (when following ends),
// and ends the unit when it is its last file.
func (ls *liveUnits) read(ctx context.Context, lu *liveUnit, i int, in stage.Input) error {
	send := func(b *stage.Batch) error { return ls.send(ctx, lu, b) }
	ready := func() { lu.once.Do(func() { close(lu.ready) }) }
	var err error
	if i > 0 {
		select {
		case <-lu.ready:
		case <-ctx.Done():
		}
	}
	if i == 0 || lu.u.Parser != nil {
		flush := func(b *stage.Batch) error {
			err := send(b)
			if i == 0 {
				ready()
			}
			return err
		}
		_, err = ls.s.readFile(ctx, nil, lu.u, i, in, nil, flush, func() error { return nil })
	} else { // the main file told nothing (it is empty): this one is read on its own
		alone := &liveUnit{u: &stage.Unit{Files: []stage.Input{in}}, ready: make(chan struct{}), files: 1, running: 1}
		_, err = ls.s.readFile(ctx, nil, alone.u, 0, in, nil, func(b *stage.Batch) error { return send(b) }, func() error { return nil })
		if serr := send(&stage.Batch{Unit: alone.u, End: true}); err == nil {
			err = serr
		}
	}
	if i == 0 {
		ready()
	}
	ls.mu.Lock()
	if ls.byPath[in.Path] == lu { // a new file of its name (truncated, replaced) is a new unit
		delete(ls.byPath, in.Path)
	}
	lu.running--
	last := lu.running == 0 && !ls.watching && ls.unjoined == 0 && !lu.ended
	if last {
		ls.end(lu)
	}
	ls.mu.Unlock()
	if last {
		if serr := ls.send(ctx, lu, &stage.Batch{Unit: lu.u, End: true}); err == nil {
			err = serr
		}
	}
	return err
}

// mainWaiting is a file found before the seq-th (at p, which identifies
// as id) that may be its main file and waits to be written: the file of
// its UnitKey, or for a member by its head, one in its folder (ls.mu
// held).
func (ls *liveUnits) mainWaiting(p string, id identity, seq int) *waitingFile {
	if k := UnitKey(p); k != p {
		if w := ls.waiting[k]; w != nil && w.seq < seq {
			return w
		}
		return nil
	}
	if !id.member {
		return nil
	}
	var first *waitingFile
	for q, w := range ls.waiting {
		if w.seq < seq && path.Dir(q) == path.Dir(p) && (first == nil || w.seq < first.seq) {
			first = w
		}
	}
	return first
}

// end marks lu ended: no file joins it any more (ls.mu held).
func (ls *liveUnits) end(lu *liveUnit) {
	lu.ended = true
	for _, p := range lu.paths {
		if ls.byPath[p] == lu {
			delete(ls.byPath, p)
		}
	}
	if lu.session != "" && ls.bySession[lu.session] == lu {
		delete(ls.bySession, lu.session)
	}
	if main := lu.u.Files[0].Path; ls.byMain[main] == lu {
		delete(ls.byMain, main)
	}
}

// send sends b, a batch of lu, after the batch before it.
func (ls *liveUnits) send(ctx context.Context, lu *liveUnit, b *stage.Batch) error {
	lu.send.Lock()
	defer lu.send.Unlock()
	select {
	case ls.out <- b:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// watched is told that the folders' last look is taken: the units whose
// files have all ended end now (or once the files found are all joined),
// the others when their last file does.
func (ls *liveUnits) watched(ctx context.Context) error {
	ls.mu.Lock()
	ls.watching = false
	ls.mu.Unlock()
	return ls.endDone(ctx)
}

// endDone ends the units whose files have all ended, once the folders'
// last look is taken and the files found are all joined.
func (ls *liveUnits) endDone(ctx context.Context) error {
	ls.mu.Lock()
	var ending []*liveUnit
	if !ls.watching && ls.unjoined == 0 {
		for _, lu := range ls.units {
			if lu.running == 0 && !lu.ended {
				ls.end(lu)
				ending = append(ending, lu)
			}
		}
	}
	ls.mu.Unlock()
	for _, lu := range ending {
		if err := ls.send(ctx, lu, &stage.Batch{Unit: lu.u, End: true}); err != nil {
			return err
		}
	}
	return nil
}

// identify reads the head of the file of in as it is now (not as a
// followed file, whose read waits for more).
func (ls *liveUnits) identify(in stage.Input) identity {
	if st, err := os.Stat(in.Path); err != nil || !st.Mode().IsRegular() {
		return identity{} // a named pipe is read once, by its reader only
	}
	whole := stage.FileInput(in.Path)
	whole.Walk = in.Walk
	whole.Open = func() (io.ReadCloser, error) { // a line being written is not read
		f, err := os.Open(in.Path)
		if err != nil {
			return nil, err
		}
		return stage.WholeLines(f), nil
	}
	return identify(ls.s.cfg, ls.s.forced, whole)
}

// told finds the unit of session among the units not ended whose main
// file's head did not tell its session when it was found (a Claude Code
// session file opens with a record of no session, and its next line comes
// later), their main file read to its end or not: their head is read
// again now.
func (ls *liveUnits) told(session string) *liveUnit {
	var found *liveUnit
	for _, lu := range ls.units {
		if lu.session != "" || lu.ended {
			continue
		}
		if id := ls.identify(lu.u.Files[0]); id.session != "" && !id.member {
			lu.session = id.prov + "\x00" + id.session
			if ls.bySession[lu.session] == nil {
				ls.bySession[lu.session] = lu
			}
			if lu.session == session && found == nil {
				found = lu
			}
		}
	}
	return found
}

// mainsFirst orders the files found in one look at a followed folder: the
// files read with another (UnitKey) or that are a member of a session by
// their head come after the others, each part in walk order.
func (ls *liveUnits) mainsFirst(ins []stage.Input) []stage.Input {
	var mains, members []stage.Input
	for _, in := range ins {
		if UnitKey(in.Path) != in.Path || ls.identify(in).member {
			members = append(members, in)
		} else {
			mains = append(mains, in)
		}
	}
	return append(mains, members...)
}
