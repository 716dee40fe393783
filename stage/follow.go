package stage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agt-project/agt"
)

// Polling intervals of a Follower: a file read to its end is looked at
// again every DefaultPoll (the delay between a line written and its
// events, where the system does not tell when a file changes), or every
// WatchedPoll when it does (inotify); followed folders are walked again
// every DefaultScan (the delay before a new file is read).
const (
	DefaultPoll = 100 * time.Millisecond
	WatchedPoll = time.Second
	DefaultScan = 500 * time.Millisecond
)

// A Follower follows files as they grow and folders as files appear in them
// (the -f of the filters, like tail -f). It polls: a look at a file's size
// is cheap and works on every system and file system. Where the system
// tells when a file changes (inotify on Linux), a change wakes its reader
// at once and the poll is only a safety net.
//
// A followed file is read from its start; at its end its reader waits for
// the file to grow. Only whole lines are handed on while following: a line
// being written (a read ends without a line end) is held back until its end
// is there. A file that shrinks (truncated) ends its reader and is found
// again as a new file (its lines numbered from 1); a file replaced by a
// rename with a file that begins with all that was read (an atomic
// rewrite) is read on from there; a file removed or replaced by another of
// its name is read to its end and left (a new file of the name in a
// followed folder is then read as a new file); a file read before met
// under another name (renamed: log rotation) is not read again. When following ends (its context is cancelled, or Idle has passed)
// each reader reads what its file holds then, a last line without its end
// included, and ends: the output is then what reading the files whole
// gives.
type Follower struct {
	// Poll and Scan are the polling intervals (0: DefaultPoll and
	// DefaultScan).
	Poll, Scan time.Duration
	// Idle, when > 0, ends following once no followed file has grown and
	// no new file has appeared for that long.
	Idle time.Duration
	// FromEnd follows from the end of the files there when following
	// starts (tail -n 0 -f): their lines before it are read (a parser
	// needs them to know its session) but are the past (Past), which the
	// outputs do not write.
	FromEnd bool
	// Note, when set, is told what following meets: a file truncated,
	// removed or replaced, a followed folder gone. It is called from the
	// readers' goroutines.
	Note func(msg string)

	last atomic.Int64 // time of the last growth or new file, Unix ns
	// lines: path → the lines it held when following started (FromEnd)
	lines sync.Map
	// pastIDs: the ids of the events of followed documents' first reads (FromEnd)
	pastIDs sync.Map
	mu      sync.Mutex
	known   map[string]bool // paths being read or read
	// read are the files followed so far, by the name they were read
	// under: one of them met under another name (renamed: log rotation)
	// is not read again
	read   []readFile
	notify *notifier // set by Start
	// catching holds a place per followed file read to its end for the
	// first time, at most CatchUp at once: hundreds of files followed
	// from their start are read a few at a time, as a run without -f
	// reads them, instead of each holding its blocks in flight
	catching chan struct{}
}

// CatchUp is how many followed files are read from their start to their
// end at once; the others wait for a place (a file at its end holds none).
const CatchUp = 8

func (f *Follower) poll() time.Duration { return orDefault(f.Poll, DefaultPoll) }
func (f *Follower) scan() time.Duration { return orDefault(f.Scan, DefaultScan) }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

func (f *Follower) touch() { f.last.Store(time.Now().UnixNano()) }

func (f *Follower) note(format string, args ...any) {
	if f.Note != nil {
		f.Note(fmt.Sprintf(format, args...))
	}
}

// Followable tells whether a file is followed as it grows: a log of lines.
// Archives and databases are read once, and so are JSON documents (.json),
// which the agents that write them rewrite whole.
func Followable(path string) bool {
	l := strings.ToLower(path)
	return archiveOf(l) == notArchive && !strings.HasSuffix(l, ".json") && !Store(l)
}

// Mark records that path is being read, so that Watch does not start it
// again.
func (f *Follower) Mark(path string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.known == nil {
		f.known = map[string]bool{}
	}
	f.known[path] = true
}

// claim marks path and tells whether it was new.
func (f *Follower) claim(path string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.known[path] {
		return false
	}
	if f.known == nil {
		f.known = map[string]bool{}
	}
	f.known[path] = true
	return true
}

func (f *Follower) forget(path string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.known, path)
	f.lines.Delete(path) // a new file of its name is new
}

// Backlog notes, with FromEnd, how many whole lines the file at path holds
// now, and returns it: those are the past. A file of a line being written
// has that line ahead.
func (f *Follower) Backlog(path string) int64 {
	if !f.FromEnd {
		return 0
	}
	file, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer file.Close()
	var n int64
	buf := make([]byte, 256<<10)
	for {
		k, err := file.Read(buf)
		n += int64(bytes.Count(buf[:k], []byte{'\n'}))
		if err != nil {
			break
		}
	}
	f.lines.Store(path, n)
	return n
}

// Before notes, with FromEnd, that all of the input at path is the past:
// an input read once (a document, a database, an archive).
func (f *Follower) Before(path string) {
	if f.FromEnd {
		f.lines.Store(path, int64(math.MaxInt64))
	}
}

// Past tells whether ev comes from the past (FromEnd): from a line, or a
// record of a document, that its input held when following started.
func (f *Follower) Past(ev *agt.Event) bool {
	if n, ok := f.lines.Load(ev.Src.Path); ok && ev.Src.Line <= n.(int64) {
		return true
	}
	_, ok := f.pastIDs.Load(ev.ID)
	return ok
}

// PastEvent notes, with FromEnd, that ev is of the past: an event of a
// followed document's first read (its records have no line to count).
func (f *Follower) PastEvent(ev *agt.Event) {
	if f.FromEnd && ev.ID != "" {
		f.pastIDs.Store(strings.Clone(ev.ID), true)
	}
}

// JSONDocument reports whether the input at path is a JSON document,
// followed by reading it again whole when it changes (Changed).
func JSONDocument(path string) bool {
	l := strings.ToLower(path)
	return strings.HasSuffix(l, ".json") && archiveOf(l) == notArchive
}

// Changed waits until one of the files at paths is no longer as infos
// tell (nil: not there): its size, its time of change, its identity
// (written again, replaced by a rename, appeared or gone), or ctx ends; it
// returns the files' states then. A database is watched with its
// write-ahead log (path-wal), where its new rows are written first.
func (f *Follower) Changed(ctx context.Context, paths []string, infos []os.FileInfo) []os.FileInfo {
	for {
		var wakes []<-chan struct{}
		var unwatch []func()
		for _, p := range paths {
			w, u := f.notify.watch(p)
			wakes, unwatch = append(wakes, w), append(unwatch, u)
		}
		stop := func() {
			for _, u := range unwatch {
				u()
			}
		}
		now := States(paths)
		if !SameStates(now, infos) {
			stop()
			f.touch()
			return now
		}
		poll := f.poll()
		if len(wakes) > 0 && wakes[0] != nil {
			poll = max(poll, WatchedPoll)
		}
		tm := time.NewTimer(poll)
		woke := make(chan struct{}, 1)
		done := make(chan struct{})
		for _, w := range wakes {
			if w == nil {
				continue
			}
			go func() {
				select {
				case <-w:
					select {
					case woke <- struct{}{}:
					default:
					}
				case <-done:
				}
			}()
		}
		select {
		case <-ctx.Done():
		case <-tm.C:
		case <-woke:
		}
		close(done)
		tm.Stop()
		stop()
		if ctx.Err() != nil {
			return infos
		}
	}
}

// States are the states of the files at paths (nil: not there).
func States(paths []string) []os.FileInfo {
	out := make([]os.FileInfo, len(paths))
	for i, p := range paths {
		if st, err := os.Stat(p); err == nil {
			out[i] = st
		}
	}
	return out
}

// SameStates tells whether two lists of file states are the same.
func SameStates(a, b []os.FileInfo) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if (a[i] == nil) != (b[i] == nil) {
			return false
		}
		if a[i] != nil && (!os.SameFile(a[i], b[i]) || a[i].Size() != b[i].Size() || !a[i].ModTime().Equal(b[i].ModTime())) {
			return false
		}
	}
	return true
}

// Start starts following: the context returned ends when ctx does, or
// when Idle has passed without a followed file growing or a new file
// appearing.
func (f *Follower) Start(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	f.touch()
	f.notify = newNotifier()
	f.catching = make(chan struct{}, CatchUp)
	context.AfterFunc(ctx, f.notify.close)
	if f.Idle > 0 {
		go func() {
			t := time.NewTimer(f.Idle)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				left := f.Idle - time.Duration(time.Now().UnixNano()-f.last.Load())
				if left <= 0 {
					cancel()
					return
				}
				t.Reset(left)
			}
		}()
	}
	return ctx, cancel
}

// Watch looks at roots (the paths given) every Scan until ctx ends, and
// once more then, and calls found with the followable files not seen before, those of one look
// at a root together, in walk order: a folder is walked
// as Expand walks it (WalkExts, no links to folders, no folder a provider
// claims), a file is itself (found again when it comes back after being
// removed). Files ending in .json, archives and databases are not
// followed: those there when following starts are read once by the caller.
func (f *Follower) Watch(ctx context.Context, roots []string, claim Claim, found func([]Input)) {
	if claim == nil {
		claim = func(string, bool) (Input, bool) { return Input{}, false }
	}
	t := time.NewTicker(f.scan())
	defer t.Stop()
	dirs, gone := map[string]bool{}, map[string]bool{} // roots that are folders; roots not there
	for _, root := range roots {
		st, err := os.Stat(root)
		dirs[root] = err == nil && st.IsDir()
	}
	for last := false; !last; {
		select {
		case <-ctx.Done():
			// a last look: a file that appeared since the last one is read
			// too, to its end, as the files already followed are
			last = true
		case <-t.C:
		}
		for _, root := range roots {
			if root == StdinPath {
				continue
			}
			paths, dir, err := f.walk(root, claim)
			if err != nil {
				if !gone[root] && dirs[root] { // a file says so itself
					f.note("%s: %v: followed again when it is back", root, errorText(err))
				}
				gone[root] = true
				continue
			}
			dirs[root], gone[root] = dir, false
			if news := f.news(root, paths, dir); len(news) > 0 {
				found(news)
			}
		}
	}
}

// news are the inputs of the paths a look at root found that are not
// followed yet (a file renamed is followed under its first name).
func (f *Follower) news(root string, paths []string, dir bool) []Input {
	var news []Input
	for _, p := range paths {
		if !f.claim(p) {
			continue
		}
		if f.reading(p) {
			f.note("%s: a followed file under a new name: not read again", p)
			continue
		}
		f.touch()
		in := FileInput(p)
		if dir {
			in.Walk = root
		}
		news = append(news, in)
	}
	return news
}

// errorText is the reason of a path error, without its path.
func errorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// walk lists the followable files of root and tells whether it is a
// folder.
func (f *Follower) walk(root string, claim Claim) ([]string, bool, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, false, err
	}
	if _, ok := claim(root, st.IsDir()); ok {
		return nil, st.IsDir(), nil
	}
	if !st.IsDir() {
		if !st.Mode().IsRegular() || !Followable(root) {
			return nil, false, nil
		}
		return []string{root}, false, nil
	}
	var paths []string
	root = walkRoot(root)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // a folder that cannot be read now: Expand said why
		}
		if d.IsDir() {
			if _, ok := claim(p, true); ok && p != root {
				return fs.SkipDir
			}
			return nil
		}
		if walkable(p) && Followable(p) && regularFile(p, d) {
			paths = append(paths, p)
		}
		return nil
	})
	return paths, true, err
}

// Open opens the file at path for following: its reader is a stream (see
// IsStream) that waits at the end of the file for it to grow, until ctx
// ends. A file that is not a regular file (a named pipe) has no size to
// poll: it is read as it is, once.
func (f *Follower) Open(ctx context.Context, path string) (io.ReadCloser, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, err
	}
	f.Mark(path)
	if !st.Mode().IsRegular() {
		return file, nil // a pipe, a device: read as a stream, once
	}
	t := &tail{f: file, path: path, info: st, size: st.Size(), fl: f, ctx: ctx, poll: f.poll()}
	f.mu.Lock()
	f.read = append(f.read, readFile{path, st, headOf(file)})
	f.mu.Unlock()
	if f.catching != nil { // started: its place to catch up (when following ends, it reads without)
		select {
		case f.catching <- struct{}{}:
			t.placed.Store(true)
		case <-ctx.Done():
		}
	}
	if t.wake, t.unwatch = f.notify.watch(path); t.wake != nil {
		t.poll = max(t.poll, WatchedPoll)
	}
	return t, nil
}

// tail is the reader of a followed file.
type tail struct {
	f     *os.File
	path  string
	info  os.FileInfo // of the file opened, to tell it is still at path
	off   int64       // where the next read starts
	size  int64       // the size last seen
	fl    *Follower
	ctx   context.Context
	final bool // the file is left: read what it holds, then end
	poll  time.Duration
	wake  <-chan struct{} // the file changed (nil: polled only)
	// unwatch ends the watch behind wake
	unwatch func()
	// placed: it holds a place in fl.catching, which it gives up once its
	// reader waits (Idle) while it is at the end of the file (atEnd): what
	// it read is then converted, and it holds no block
	placed, atEnd, idle atomic.Bool
	// last holds the last bytes read (lastN of them, ending at off): a
	// file written anew in place and grown past off between two looks
	// differs there, where a file written on does not
	last  [32]byte
	lastN int
}

func (t *tail) unplace() {
	if t.placed.CompareAndSwap(true, false) {
		<-t.fl.catching
	}
}

// Idle is told by the read-ahead (see prefetch) when its reader waits for
// more, and when it no longer does.
func (t *tail) Idle(on bool) {
	t.idle.Store(on)
	if on && t.atEnd.Load() {
		t.unplace()
	}
}

func (t *tail) Stream() bool { return true }

func (t *tail) Close() error {
	t.unplace()
	t.unwatch()
	return t.f.Close()
}

type readFile struct {
	path string
	info os.FileInfo
	head []byte // its first bytes when it was opened
}

// headOf is the first bytes of file (up to 4 KiB): with its identity, what
// tells a file renamed from a new file that took a removed one's inode.
func headOf(file *os.File) []byte {
	b := make([]byte, 4<<10)
	n, _ := file.ReadAt(b, 0)
	return b[:n]
}

// reading tells whether the file at path is one followed before under
// another name (a followed file renamed: log rotation): it is not read
// again as a new file.
func (f *Follower) reading(path string) bool {
	file, err := os.Open(path)
	if err != nil {
		return false
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return false
	}
	var head []byte
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.read {
		if r.path != path && len(r.head) > 0 && os.SameFile(st, r.info) {
			if head == nil {
				head = headOf(file)
			}
			if bytes.HasPrefix(head, r.head) {
				return true
			}
		}
	}
	return false
}

func (t *tail) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if t.rewritten() {
			t.fl.note("%s: written anew: reading it again from its start", t.path)
			if st, err := t.f.Stat(); err == nil {
				t.off = st.Size() // as a truncation: nothing more is read of it
			}
			t.final = true
			t.fl.forget(t.path)
			return 0, io.EOF
		}
		final := t.final || t.ctx.Err() != nil
		n, err := t.f.ReadAt(p, t.off)
		if err != nil && err != io.EOF {
			t.off += int64(n)
			return n, err
		}
		if s := t.off + int64(n); err == io.EOF && s != t.size {
			t.size = s // its size, as far as this read tells
			t.fl.touch()
		}
		if n < len(p) && !final {
			// the end of what is written: a line being written waits
			// for its end
			n = bytes.LastIndexByte(p[:n], '\n') + 1
		}
		if n > 0 {
			t.off += int64(n)
			t.keepLast(p[:n])
			t.fl.touch()
			return n, nil
		}
		if final {
			return 0, io.EOF
		}
		t.wait()
	}
}

// keepLast keeps the last bytes of b, just read, in t.last.
func (t *tail) keepLast(b []byte) {
	if len(b) >= len(t.last) {
		t.lastN = copy(t.last[:], b[len(b)-len(t.last):])
		return
	}
	keep := min(t.lastN, len(t.last)-len(b))
	copy(t.last[:], t.last[t.lastN-keep:t.lastN])
	t.lastN = keep + copy(t.last[keep:], b)
}

// rewritten tells whether the bytes before off are no longer those read:
// the file was truncated and written again past off between two looks
// (a file that is shorter than off is told truncated by changed).
func (t *tail) rewritten() bool {
	if t.lastN == 0 || t.final {
		return false
	}
	var b [len(t.last)]byte
	n, _ := t.f.ReadAt(b[:t.lastN], t.off-int64(t.lastN))
	return n == t.lastN && !bytes.Equal(b[:n], t.last[:t.lastN])
}

// Ready waits until the file holds more than was read (or following
// ends), so that the read-ahead takes a buffer only then (see prefetch):
// a followed file at its end holds none. Waiting at the end, it gives up
// its place to catch up once its reader waits too (Idle).
func (t *tail) Ready() {
	for t.size <= t.off && !t.final && t.ctx.Err() == nil {
		t.atEnd.Store(true)
		if t.idle.Load() {
			t.unplace()
		}
		t.wait()
	}
	t.atEnd.Store(false)
}

// wait waits for the file to change (or following to end).
func (t *tail) wait() {
	tm := time.NewTimer(t.poll)
	defer tm.Stop()
	for !t.changed() {
		select {
		case <-t.ctx.Done():
			return
		case <-tm.C:
			tm.Reset(t.poll)
		case <-t.wake:
		}
	}
}

// changed tells whether the file changed since it was last read: it grew or
// shrank, or it is no longer at its path (the reader then reads what is left
// and ends).
func (t *tail) changed() bool {
	if st, err := t.f.Stat(); err == nil && st.Size() != t.size {
		if st.Size() < t.off {
			// its lines are others now: it is read again as a new file,
			// its lines numbered from 1
			t.fl.note("%s: truncated: reading it again from its start", t.path)
			t.off = st.Size()
			t.final = true
			t.fl.forget(t.path)
			return true
		}
		t.size = st.Size()
		t.fl.touch()
		return true
	}
	st, err := os.Stat(t.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.fl.note("%s: removed: no longer followed", t.path)
	case err == nil && !os.SameFile(st, t.info):
		if t.continued(st) {
			t.fl.note("%s: replaced by a file that goes on from it: read on from where it was", t.path)
			t.fl.touch()
			return true
		}
		t.fl.note("%s: replaced by another file: the new one is read as a new file", t.path)
	default:
		return false
	}
	t.final = true
	t.fl.forget(t.path)
	return true
}

// continued tells whether the file now at t's path (of info st) begins
// with all that was read of t's file (an atomic rewrite: written whole to
// another name and renamed over it): it is then read on from there in its
// place, and what was read is not read again.
func (t *tail) continued(st os.FileInfo) bool {
	if !st.Mode().IsRegular() || st.Size() < t.off {
		return false
	}
	nf, err := os.Open(t.path)
	if err != nil {
		return false
	}
	if cur, err := nf.Stat(); err != nil || !os.SameFile(cur, st) || !samePrefix(t.f, nf, t.off) {
		nf.Close()
		return false
	}
	t.f.Close()
	t.f, t.info, t.size = nf, st, st.Size()
	t.fl.mu.Lock()
	t.fl.read = append(t.fl.read, readFile{t.path, st, headOf(nf)})
	t.fl.mu.Unlock()
	t.unwatch()
	t.wake, t.unwatch = t.fl.notify.watch(t.path)
	return true
}

// samePrefix tells whether a and b hold the same first n bytes.
func samePrefix(a, b *os.File, n int64) bool {
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for off := int64(0); off < n; {
		k := int(min(int64(len(ba)), n-off))
		if _, err := a.ReadAt(ba[:k], off); err != nil {
			return false
		}
		if _, err := b.ReadAt(bb[:k], off); err != nil {
			return false
		}
		if !bytes.Equal(ba[:k], bb[:k]) {
			return false
		}
		off += int64(k)
	}
	return true
}

// Written waits until the file at path holds a whole first line (a file
// created empty is written a moment later, and a line may come in parts),
// until ctx ends, or until it is gone: what its first line says (which
// session it holds) can then be read.
func (f *Follower) Written(ctx context.Context, path string) {
	wake, unwatch := f.notify.watch(path)
	defer unwatch()
	poll := f.poll()
	if wake != nil {
		poll = max(poll, WatchedPoll)
	}
	tm := time.NewTimer(poll)
	defer tm.Stop()
	for {
		if st, err := os.Stat(path); err != nil || st.Size() > 0 && HasLine(path) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tm.C:
			tm.Reset(poll)
		case <-wake:
		}
	}
}

// HasLine tells whether the file at path holds a whole first line: a line
// end in its first heldLine bytes, or more bytes than that (a line that
// long is not needed whole to tell what the file holds), or whether it is
// no regular file or cannot be read (its reader says why; a named pipe is
// not opened here, which would wait for its writer).
func HasLine(path string) bool {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return true
	}
	file, err := os.Open(path)
	if err != nil {
		return true
	}
	defer file.Close()
	buf := make([]byte, 64<<10)
	for read := 0; read < heldLine; {
		n, err := file.Read(buf)
		if bytes.IndexByte(buf[:n], '\n') >= 0 {
			return true
		}
		if read += n; err != nil {
			return err != io.EOF
		}
	}
	return true
}

// heldLine bounds the bytes of a line being written that WholeLines holds
// back and that HasLine looks for a line end in.
const heldLine = 1 << 20

// WholeLines reads r up to its last line end: the part of a line being
// written, its end not there yet, is left out (unless it is longer than
// heldLine: such a line is cut from what a head tells anyway). It reads
// the head of a followed file as it is now.
func WholeLines(r io.ReadCloser) io.ReadCloser { return &wholeLines{r: r} }

type wholeLines struct {
	r     io.ReadCloser
	held  []byte // read, not handed on yet
	ready int    // the bytes of held that may be handed on
	long  bool   // the line held is longer than heldLine: it passes as it comes
	buf   []byte
	err   error // the read error that ended r
}

func (w *wholeLines) Read(p []byte) (int, error) {
	for w.ready == 0 { // held has no line end
		if w.err != nil {
			return 0, w.err
		}
		if w.buf == nil {
			w.buf = make([]byte, 64<<10)
		}
		k, err := w.r.Read(w.buf)
		old := len(w.held)
		w.held, w.err = append(w.held, w.buf[:k]...), err
		if i := bytes.LastIndexByte(w.held[old:], '\n'); i >= 0 {
			w.ready, w.long = old+i+1, false
		} else if w.long = w.long || len(w.held) > heldLine; w.long {
			w.ready = len(w.held)
		}
	}
	k := copy(p, w.held[:w.ready])
	w.held, w.ready = w.held[k:], w.ready-k
	return k, nil
}

func (w *wholeLines) Close() error { return w.r.Close() }
