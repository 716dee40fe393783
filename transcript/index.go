package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// IndexName is the file in an output folder that remembers which inputs
// gave which files, so that a second run skips inputs that did not change.
const IndexName = ".agt-index.json"

// LockName is the file in an output folder a run holds a lock on, so that
// two runs never write to one folder at once.
const LockName = ".agt-lock"

// indexSchema names the layout of the index; an index of another layout is
// read as empty (everything is converted again).
const indexSchema = "agt.index/2"

// Index maps input units to a fingerprint of their files (path, size,
// modification time, and the options of the run) and the files they gave,
// each with its size and SHA-256. A unit with an empty fingerprint is not
// done (a read error, a failed write, or an input that cannot be
// fingerprinted, as stdin): it only keeps its claim on its file names.
type Index struct {
	Schema string                `json:"schema"`
	Units  map[string]IndexEntry `json:"units"`

	mu      sync.Mutex
	root    *os.Root
	run     string
	salt    string
	pending map[string]string   // unit → fingerprint of the run under way
	inputs  map[string][]string // unit → its input paths, in the run under way
	decided map[string]bool     // group → whether it was found fresh in this run
	group   map[string]string   // unit → the unit whose group it belongs to
	owner   map[string]string   // nameKey(file) → unit
	seen    map[string]bool     // units recorded by this run
	dirty   bool
	since   int64 // bytes of output recorded since the last save
	size    int64 // size of the index last saved
}

// IndexEntry is one unit's record: with the other units of its group (the
// inputs of one session that were not read as one unit, joined when their
// events were consolidated), which are skipped or converted with it.
type IndexEntry struct {
	Fingerprint string        `json:"fingerprint"`
	Files       []IndexFile   `json:"files"`
	Inputs      []string      `json:"inputs,omitempty"`
	Members     []IndexMember `json:"members,omitempty"`
}

// IndexMember is a unit of a group other than its first.
type IndexMember struct {
	Unit        string   `json:"unit"`
	Inputs      []string `json:"inputs"`
	Fingerprint string   `json:"fingerprint"`
}

// IndexFile is one file a unit gave, relative to the output folder.
type IndexFile struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Session is the agt session id of the session the file holds (""
	// in indexes written before it was recorded).
	Session string `json:"session,omitempty"`
}

// Lock takes the lock of the output folder root, or fails at once when
// another run holds it. unlock releases it (the lock file stays).
func Lock(root string) (unlock func(), err error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := r.OpenFile(LockName, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(root, LockName), unwrapPath(err))
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: another agt-transcript run is writing to this folder", root)
		}
		return nil, fmt.Errorf("%s: cannot lock the folder: %w", root, err)
	}
	return func() { f.Close() }, nil
}

// LoadIndex reads the index of root; salt (the version and options of the
// run) is part of every fingerprint, so that other options convert again.
// The caller holds the folder's lock, so every temporary file in the folder
// is a dead run's: they are removed.
func LoadIndex(root, salt string) (*Index, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	ix := &Index{Schema: indexSchema, root: r, run: RunTag(), salt: salt, Units: map[string]IndexEntry{}, pending: map[string]string{},
		inputs: map[string][]string{}, decided: map[string]bool{}, group: map[string]string{}, owner: map[string]string{}}
	b, err := r.ReadFile(IndexName)
	if err == nil {
		if agt.API.Unmarshal(b, ix) != nil || ix.Schema != indexSchema || ix.Units == nil {
			ix.Schema, ix.Units = indexSchema, map[string]IndexEntry{} // unreadable: convert everything again
		}
		ix.size = int64(len(b))
	} else if !errors.Is(err, fs.ErrNotExist) {
		r.Close()
		return nil, fmt.Errorf("%s: %w", filepath.Join(root, IndexName), unwrapPath(err))
	}
	for unit, e := range ix.Units {
		for _, f := range e.Files {
			ix.owner[nameKey(f.Path)] = unit
		}
		for _, m := range e.Members {
			ix.group[m.Unit] = unit
		}
	}
	removeTemps(r)
	return ix, nil
}

// removeTemps removes the temporary files of dead runs, in the folder and
// in its provider folders (never through a link).
func removeTemps(r *os.Root) {
	isTemp := func(e fs.DirEntry) bool {
		return e.Type().IsRegular() && strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp-")
	}
	top, _ := fs.ReadDir(r.FS(), ".")
	for _, e := range top {
		if isTemp(e) {
			r.Remove(e.Name())
		}
		if !e.IsDir() { // a link to a folder is not one
			continue
		}
		sub, _ := fs.ReadDir(r.FS(), e.Name())
		for _, f := range sub {
			if isTemp(f) {
				r.Remove(e.Name() + "/" + f.Name())
			}
		}
	}
}

// Fingerprint identifies the current state of a unit's files.
func (ix *Index) Fingerprint(files []stage.Input) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", ix.salt)
	for _, f := range files {
		p := f.Path
		if i := strings.Index(p, "!/"); i >= 0 { // an archive member: the archive's state
			p = p[:i]
		}
		st, err := os.Stat(p)
		if err != nil || f.Path == stage.StdinPath {
			return "" // never skipped
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", f.Path, st.Size(), st.ModTime().UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Note keeps the fingerprint of a unit about to be converted whatever its
// state (--force), for Done.
func (ix *Index) Note(unit string, files []stage.Input) {
	fp := ix.Fingerprint(files)
	ix.mu.Lock()
	ix.pending[unit], ix.inputs[unit], ix.decided[unit] = fp, inputPaths(files), false
	ix.mu.Unlock()
}

// Fresh reports whether unit's files are unchanged since its files were
// written, and those files are all still there, as they were written; for a
// unit of a group, whether the whole group is (all of its units unchanged,
// and the first not converted again in this run). When not, the unit's
// fingerprint is kept for Done.
func (ix *Index) Fresh(unit string, files []stage.Input) bool {
	fp := ix.Fingerprint(files)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.pending[unit], ix.inputs[unit] = fp, inputPaths(files)
	key, own := unit, ""
	e, ok := ix.Units[unit]
	if ok {
		own = e.Fingerprint
	} else if g := ix.group[unit]; g != "" {
		key = g
		e, ok = ix.Units[g]
		for _, m := range e.Members {
			if m.Unit == unit {
				own = m.Fingerprint
			}
		}
	}
	if fp == "" || !ok || own != fp {
		if key == unit {
			ix.decided[unit] = false
		}
		return false
	}
	fresh, done := ix.decided[key]
	if !done {
		fresh = ix.groupFresh(e)
		ix.decided[key] = fresh
	}
	return fresh
}

// groupFresh reports whether a recorded group is as it was: its units'
// inputs unchanged, its files intact (ix.mu held).
func (ix *Index) groupFresh(e IndexEntry) bool {
	if e.Fingerprint == "" || len(e.Files) == 0 {
		return false
	}
	for _, m := range e.Members {
		if m.Fingerprint == "" || ix.Fingerprint(pathInputs(m.Inputs)) != m.Fingerprint {
			return false
		}
	}
	for _, f := range e.Files {
		if !ix.intact(f) {
			return false
		}
	}
	return true
}

func inputPaths(files []stage.Input) []string {
	p := make([]string, len(files))
	for i, f := range files {
		p[i] = f.Path
	}
	return p
}

func pathInputs(paths []string) []stage.Input {
	in := make([]stage.Input, len(paths))
	for i, p := range paths {
		in[i] = stage.Input{Path: p}
	}
	return in
}

// intact reports whether f is in the folder as it was written.
func (ix *Index) intact(f IndexFile) bool {
	st, err := ix.root.Lstat(f.Path)
	if err != nil || !st.Mode().IsRegular() || st.Size() != f.Size {
		return false
	}
	r, err := ix.root.Open(f.Path)
	if err != nil {
		return false
	}
	defer r.Close()
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == f.SHA256
}

// Owner is the unit that owns file (a path relative to the folder), or "".
// Names that differ only in case are one name: a folder may be copied to a
// file system that does not tell them apart.
func (ix *Index) Owner(file string) string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.owner[nameKey(file)]
}

// OwnerSession is the unit that owns file and the session the file holds
// ("" when not recorded).
func (ix *Index) OwnerSession(file string) (unit, session string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	unit = ix.owner[nameKey(file)]
	if unit == "" {
		return "", ""
	}
	for _, f := range ix.Units[unit].Files {
		if nameKey(f.Path) == nameKey(file) {
			return unit, f.Session
		}
	}
	return unit, ""
}

// nameKey is the key of a file name among names that must not meet.
func nameKey(name string) string { return strings.ToLower(name) }

// Done records the files a unit wrote, all of them in place, and the other
// units of its group. A unit not done (a read or write error) keeps only
// its claim on its names.
func (ix *Index) Done(unit string, files []IndexFile, done bool, members []string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	e := IndexEntry{Files: append([]IndexFile(nil), files...), Inputs: ix.inputs[unit]}
	if done {
		e.Fingerprint = ix.pending[unit]
	}
	delete(ix.group, unit)
	for _, m := range members {
		ix.group[m] = unit
		if prev, ok := ix.Units[m]; ok && m != unit { // m's record is its group's now
			for _, f := range prev.Files {
				if ix.owner[nameKey(f.Path)] == m {
					delete(ix.owner, nameKey(f.Path))
				}
			}
			delete(ix.Units, m)
		}
		fp, asked := ix.pending[m]
		if !asked {
			continue // read with a unit of the group that was (one unit of several files)
		}
		if fp == "" {
			e.Fingerprint = ""
		}
		e.Members = append(e.Members, IndexMember{Unit: m, Inputs: ix.inputs[m], Fingerprint: fp})
	}
	old := ix.Units[unit]
	if ix.seen[unit] { // the unit came back in this run (events piped in an odd order): both parts count
		e.Files = append(e.Files, old.Files...)
		e.Members = append(e.Members, old.Members...)
		if old.Fingerprint == "" {
			e.Fingerprint = ""
		}
	}
	if ix.seen == nil {
		ix.seen = map[string]bool{}
	}
	ix.seen[unit] = true
	sort.Slice(e.Files, func(i, j int) bool { return e.Files[i].Path < e.Files[j].Path })
	for _, f := range old.Files {
		if ix.owner[nameKey(f.Path)] == unit {
			delete(ix.owner, nameKey(f.Path))
		}
	}
	for _, f := range e.Files {
		if prev := ix.owner[nameKey(f.Path)]; prev != "" && prev != unit {
			ix.release(prev, f.Path) // taken over: the session's inputs are grouped otherwise
		}
		ix.owner[nameKey(f.Path)] = unit
		ix.since += f.Size
	}
	ix.Units[unit] = e
	ix.dirty = true
}

// saveSoon saves the index when the output recorded since the last save
// outweighs the index itself, so that a killed run loses little and the
// index is written a bounded number of times over.
func (ix *Index) saveSoon(d *Dir) {
	ix.mu.Lock()
	due := ix.since >= ix.size
	ix.mu.Unlock()
	if due {
		if err := ix.Save(); err != nil && d.Warn != nil {
			d.Warn(err.Error())
		}
	}
}

// Save writes the index atomically, when it changed.
func (ix *Index) Save() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if !ix.dirty {
		return nil
	}
	b, err := agt.API.Marshal(ix)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	tmp := fmt.Sprintf(".%s.tmp-%s-%d", IndexName, ix.run, len(b))
	if _, err := writeAtomic(ix.root, IndexName, tmp, bytesOf(b)); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(ix.root.Name(), IndexName), unwrapPath(err))
	}
	ix.dirty, ix.since, ix.size = false, 0, int64(len(b))
	return nil
}

// Close closes the folder.
func (ix *Index) Close() error { return ix.root.Close() }

// release drops file from the files of unit, which another unit took over
// (ix.mu held): a unit that lost a file is no longer fresh.
func (ix *Index) release(unit, file string) {
	e, ok := ix.Units[unit]
	if !ok {
		return
	}
	kept := e.Files[:0:0]
	for _, f := range e.Files {
		if nameKey(f.Path) != nameKey(file) {
			kept = append(kept, f)
		}
	}
	if len(kept) < len(e.Files) {
		e.Files, e.Fingerprint = kept, ""
		ix.Units[unit] = e
	}
}
