package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// IndexName is the file in an output folder that remembers which inputs
// gave which files, so that a second run skips inputs that did not change.
const IndexName = ".agt-index.json"

// Index maps input units to a fingerprint of their files (path, size,
// modification time, and the options of the run) and the files written.
type Index struct {
	mu      sync.Mutex
	root    string
	salt    string
	Units   map[string]IndexEntry `json:"units"`
	pending map[string]string     // unit → fingerprint of the run under way
	dirty   bool
}

// IndexEntry is one unit's record.
type IndexEntry struct {
	Fingerprint string   `json:"fingerprint"`
	Files       []string `json:"files"`
}

// LoadIndex reads the index of root; salt (the version and options of the
// run) is part of every fingerprint, so that other options convert again.
// Stale temporary files of a killed run are removed.
func LoadIndex(root, salt string) (*Index, error) {
	ix := &Index{root: root, salt: salt, Units: map[string]IndexEntry{}, pending: map[string]string{}}
	b, err := os.ReadFile(filepath.Join(root, IndexName))
	if err == nil {
		if agt.API.Unmarshal(b, ix) != nil {
			ix.Units = map[string]IndexEntry{} // unreadable: convert everything again
		}
	} else if !os.IsNotExist(err) {
		return nil, err
	}
	removeStaleTemps(root)
	return ix, nil
}

func removeStaleTemps(root string) {
	matches, _ := filepath.Glob(filepath.Join(root, "*", ".*.tmp-*"))
	for _, m := range matches {
		os.Remove(m)
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

// Fresh reports whether unit's files are unchanged since its files were
// written, and those files are all still there. When not, the unit's
// fingerprint is kept for Done.
func (ix *Index) Fresh(unit string, files []stage.Input) bool {
	fp := ix.Fingerprint(files)
	ix.mu.Lock()
	e, ok := ix.Units[unit]
	ix.pending[unit] = fp
	ix.mu.Unlock()
	if fp == "" || !ok || e.Fingerprint != fp {
		return false
	}
	for _, f := range e.Files {
		if _, err := os.Stat(filepath.Join(ix.root, f)); err != nil {
			return false
		}
	}
	return true
}

// Done records files written for a unit (called once per session).
func (ix *Index) Done(unit string, files []string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	fingerprint := ix.pending[unit]
	if fingerprint == "" {
		return
	}
	e := ix.Units[unit]
	if e.Fingerprint != fingerprint {
		e = IndexEntry{Fingerprint: fingerprint}
	}
	for _, f := range files {
		if rel, err := filepath.Rel(ix.root, f); err == nil {
			e.Files = append(e.Files, filepath.ToSlash(rel))
		}
	}
	sort.Strings(e.Files)
	ix.Units[unit] = e
	ix.dirty = true
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
	ix.dirty = false
	return WriteFileAtomic(filepath.Join(ix.root, IndexName), b)
}
