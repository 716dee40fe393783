package stage

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// An agent's database inside an archive (a StoreExts file, as people
// archive a project) cannot be read as a stream: SQLite
// reads a file. Its members — the database and the write-ahead log,
// shared-memory and journal files beside it — are copied, while the
// archive is listed, into a temporary folder of the run, each at its path
// in the archive (so that a database finds its log), up to the archive's
// expansion limit; the run's Claim then makes the copy an input named
// ARCHIVE!/MEMBER, as for the database itself. A copied file no provider
// claims is an input of its bytes, which the parse names as skipped with
// the other walked files of no agent. RemoveSpools removes the copies at
// the end of the run.

// sidecars end the names of the files SQLite keeps beside a database
// (its name ending in a StoreExts ending): the write-ahead log,
// shared-memory and journal files.
var sidecars = []string{"", "-wal", "-shm", "-journal"}

// stores copies the database members of one archive.
type stores struct {
	archive string
	claim   Claim
	dir     string
	dbs     []spooledDB
}

// spooledDB is a copied database: its member name and its place in the
// archive's inputs.
type spooledDB struct {
	member string
	at     int
}

func newStores(archive string, claim Claim) *stores {
	return &stores{archive: archive, claim: claim}
}

// wants tells whether member is a database file to copy.
func (s *stores) wants(member string) bool {
	if s.claim == nil {
		return false
	}
	for _, e := range StoreExts {
		for _, suf := range sidecars {
			if strings.HasSuffix(member, e+suf) {
				return true
			}
		}
	}
	return false
}

// add copies member from r (at most limit bytes) and, for a database,
// keeps a place for its input in ins.
func (s *stores) add(ins []Input, member string, r io.Reader, limit int64) ([]Input, error) {
	if s.dir == "" {
		dir, err := spoolDir()
		if err != nil {
			return ins, err
		}
		s.dir = dir
	}
	clean := strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(member, "\\", "/")), "/") // memberOK refused climbing names
	p := filepath.Join(s.dir, filepath.FromSlash(clean))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return ins, err
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return ins, err
	}
	_, err = io.Copy(f, bounded(r, limit))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
		return ins, err
	}
	if Store(member) {
		s.dbs = append(s.dbs, spooledDB{clean, len(ins)})
		ins = append(ins, Input{})
	}
	return ins, nil
}

// claimAll makes each copied database its input, in its place.
func (s *stores) claimAll(ins []Input, errs []error) ([]Input, []error) {
	for _, db := range s.dbs {
		p := filepath.Join(s.dir, filepath.FromSlash(db.member))
		name := s.archive + "!/" + db.member
		in, ok := s.claim(p, false)
		if !ok { // not an agent's database: its bytes, which the parse names as skipped
			in = Input{Open: func() (io.ReadCloser, error) { return os.Open(p) }}
		}
		in.Path, in.File, in.Store = name, false, ok
		ins[db.at] = in
	}
	return ins, errs
}

// spools are the temporary folders of this run's copies.
var spools struct {
	mu   sync.Mutex
	dirs []string
}

func spoolDir() (string, error) {
	dir, err := os.MkdirTemp("", "agt-store-*")
	if err != nil {
		return "", fmt.Errorf("a database in an archive is copied to a temporary folder: %w", err)
	}
	spools.mu.Lock()
	spools.dirs = append(spools.dirs, dir)
	spools.mu.Unlock()
	return dir, nil
}

// RemoveSpools removes the copies of the databases read from archives (at
// the end of a run, once no input is read).
func RemoveSpools() error {
	spools.mu.Lock()
	dirs := spools.dirs
	spools.dirs = nil
	spools.mu.Unlock()
	var errs []error
	for _, d := range dirs {
		errs = append(errs, os.RemoveAll(d))
	}
	return errors.Join(errs...)
}
