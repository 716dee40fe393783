package transcript

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// FolderConfig is what a run into an output folder (agt-transcript -o)
// writes, and what it is told of the inputs.
type FolderConfig struct {
	StreamLog string   // LogOff, LogRaw or LogSummary
	Exports   []Export // written beside each transcript
	// Salt is what, beside the inputs, decides the files of a run (the
	// version and the options that change events or transcripts): see
	// LoadIndex.
	Salt string
	// Force converts every input, up to date or not, and reads every
	// session again with the inputs earlier runs read it from.
	Force bool
	// UnitKey names the unit a path belongs to (provider.UnitKey).
	UnitKey func(path string) string
	// Writers is the number of encoding workers of the run (0: one per
	// core): the folder writes as many files at once, within bounds.
	Writers int
	// List is the inputs an archive holds (stage.Expand with the
	// registry's claim), for inputs recalled from archives.
	List func(archive string) []stage.Input
	// Saved, when set, runs once the index is saved, the lock still held
	// (the HTML export's index.html, made from the index's records).
	Saved func(ix *Index) error
}

// Folder is an output folder open for one run: its lock, its index and its
// Dir, and the rules that decide which inputs are read (Skip, Recall).
// OpenFolder takes the lock; Inputs, Skip and Recall go to the source;
// Write and Group to the consolidator; Close writes what is left, saves the
// index and releases the lock.
type Folder struct {
	cfg    FolderConfig
	root   string
	unlock func()
	ix     *Index
	dir    *Dir
	groups groupOf
	wrap   func([]stage.Input) []stage.Input
	own    map[string]bool                   // index keys of the run's inputs (Recall)
	lists  map[string]map[string]stage.Input // archive → its members, listed once
	inOut  func(p string) bool               // in the folder
	failed func(unit string) bool            // a unit with a read error
}

// OpenFolder creates the folder root when needed, takes its lock (failing
// at once when another run holds it) and reads its index.
func OpenFolder(root string, cfg FolderConfig) (f *Folder, err error) {
	if err := os.MkdirAll(root, 0o777); err != nil {
		return nil, err
	}
	unlock, err := Lock(root)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			unlock()
		}
	}()
	ix, err := LoadIndex(root, cfg.Salt)
	if err != nil {
		return nil, err
	}
	d, err := openDir(root, cfg.StreamLog, ix, writers(cfg.Writers))
	if err != nil {
		ix.Close()
		return nil, err
	}
	d.Exports = cfg.Exports
	f = &Folder{cfg: cfg, root: root, unlock: unlock, ix: ix, dir: d, groups: groupOf{of: map[string]string{}, key: cfg.UnitKey},
		lists: map[string]map[string]stage.Input{}, inOut: InFolder(root)}
	f.wrap, f.failed = watchReads(f.groups.unit)
	d.Failed = f.failed
	return f, nil
}

// writers is the number of file writers of a run of n encoding workers
// (0: GOMAXPROCS): as many, no fewer than OpenDir's, no more than
// maxDirWriters.
func writers(n int) int {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return min(max(n, dirWriters), maxDirWriters)
}

// SetWarn sends the folder's warnings (a name taken by another session)
// to warn.
func (f *Folder) SetWarn(warn func(msg string)) { f.dir.Warn = warn }

// Inputs are the run's inputs as the folder reads them: their content
// summed as they are read (Index.Watch) and a failed read marking their
// unit, so that a unit not read whole is not recorded as done. Call it
// once, before Recall.
func (f *Folder) Inputs(inputs []stage.Input) []stage.Input {
	inputs = f.wrap(f.ix.Watch(inputs))
	f.own = map[string]bool{}
	for _, in := range inputs {
		f.own[f.ix.Key(in.Path)] = true
	}
	return inputs
}

// Skip tells whether the group of inputs named unit is left out as up to
// date (provider.Config.Skip); under Force none is, and each is noted.
func (f *Folder) Skip(unit string, files []stage.Input) bool {
	f.groups.note(unit, files)
	if f.cfg.Force {
		f.ix.Note(unit, files)
		return false
	}
	return f.ix.Fresh(unit, files)
}

// Recall is provider.Config.Recall: a session whose group is not up to
// date is read together with the inputs the index says earlier runs read
// it from (those still there, and not among this run's inputs), so that a
// session met again is merged into its transcript by the union rule of one
// run. Under Force every session is.
//
// Only absolute paths outside the folder are read: the index is a file of
// the folder, and whatever it says, the folder is never read back.
func (f *Folder) Recall(prov, native string, files []stage.Input) []stage.Input {
	if !f.cfg.Force && f.ix.Known(f.cfg.UnitKey(agt.PathText(files[0].Path)), files) {
		return nil
	}
	skip := func(k string) bool { return f.own[k] || !filepath.IsAbs(k) || f.inOut(k) }
	var out []stage.Input
	for _, p := range f.ix.Recall(agt.SessionID(prov, native), skip) {
		file, _, member := strings.Cut(p, "!/")
		if !member {
			out = append(out, stage.FileInput(p))
			continue
		}
		ms, ok := f.lists[file]
		if !ok {
			ms = map[string]stage.Input{}
			for _, in := range f.cfg.List(file) {
				ms[in.Path] = in
			}
			f.lists[file] = ms
		}
		if in, ok := ms[p]; ok {
			out = append(out, in)
		}
	}
	for _, in := range out {
		f.own[f.ix.Key(in.Path)] = true // read once
	}
	return f.wrap(f.ix.Watch(out))
}

// Write writes one session (the consolidator's Flush).
func (f *Folder) Write(unit string, t *Transcript, events []agt.Event) error {
	return f.dir.Flush(unit, t, events)
}

// Group is told the units of the group whose sessions come next (the
// consolidator's Group).
func (f *Folder) Group(units []string) { f.dir.Group(units) }

// Transcripts is the number of transcript files written.
func (f *Folder) Transcripts() int { return f.dir.Transcripts() }

// Close waits for the files being written and records the units written
// (the last unit is recorded only now that its files are in place;
// interrupted, the sessions still open are not written, and those written
// are recorded, so that a re-run skips them), saves the index and releases
// the lock. It returns the first error.
func (f *Folder) Close() error {
	err := f.dir.Close()
	if serr := f.ix.Save(); err == nil {
		err = serr
	}
	if err == nil && f.cfg.Saved != nil {
		err = f.cfg.Saved(f.ix)
	}
	f.ix.Close()
	f.unlock()
	return err
}

// groupOf remembers the group (the inputs of one session, named by the
// unit key of its first file) each input was read in.
type groupOf struct {
	mu  sync.Mutex
	of  map[string]string
	key func(path string) string
}

func (g *groupOf) note(unit string, files []stage.Input) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, f := range files {
		g.of[f.Path] = unit
	}
}

// unit is the group of path, or its own unit before its group is known.
func (g *groupOf) unit(path string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if u, ok := g.of[path]; ok {
		return u
	}
	return g.key(path)
}

// watchReads gives a wrapper of inputs such that a failed open or read
// marks the group of units the input is read in (unitOf, asked when it
// fails): failed reports it, so that a group whose input could not be read
// whole is not recorded as done.
func watchReads(unitOf func(path string) string) (wrap func([]stage.Input) []stage.Input, failed func(unit string) bool) {
	var mu sync.Mutex
	bad := map[string]bool{}
	mark := func(path string) {
		unit := unitOf(path)
		mu.Lock()
		bad[unit] = true
		mu.Unlock()
	}
	wrap = func(inputs []stage.Input) []stage.Input {
		out := make([]stage.Input, len(inputs))
		for i, in := range inputs {
			path, open := in.Path, in.Open
			in.Open = func() (io.ReadCloser, error) {
				rc, err := open()
				if err != nil {
					mark(path)
					return nil, err
				}
				return &watched{input: input{rc}, fail: func() { mark(path) }}, nil
			}
			out[i] = in
		}
		return out
	}
	return wrap, func(unit string) bool {
		mu.Lock()
		defer mu.Unlock()
		return bad[unit]
	}
}

// watched is a reader that reports a read error other than the end.
type watched struct {
	input
	fail func()
}

func (w *watched) Read(p []byte) (int, error) {
	n, err := w.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		w.fail()
	}
	return n, err
}

// InFolder tells whether a path lies in the folder out (by its path, or
// with links resolved; an archive member by its archive).
func InFolder(out string) func(p string) bool {
	abs, err := filepath.Abs(out)
	if err != nil {
		return func(string) bool { return false }
	}
	roots := []string{abs}
	if r, err := filepath.EvalSymlinks(abs); err == nil && r != abs {
		roots = append(roots, r)
	}
	within := func(p string) bool {
		for _, r := range roots {
			if p == r || strings.HasPrefix(p, r+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	resolved := map[string]string{} // folder → its path with links resolved
	return func(p string) bool {
		if p == stage.StdinPath {
			return false
		}
		if i := strings.Index(p, "!/"); i >= 0 { // an archive member: the archive
			p = p[:i]
		}
		a, err := filepath.Abs(p)
		if err != nil {
			return false
		}
		if within(a) {
			return true
		}
		dir := filepath.Dir(a)
		r, ok := resolved[dir]
		if !ok {
			r, _ = filepath.EvalSymlinks(dir)
			resolved[dir] = r
		}
		return r != "" && within(filepath.Join(r, filepath.Base(a)))
	}
}
