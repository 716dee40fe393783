package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
	"github.com/zeebo/xxh3"
)

// IndexName is the file in an output folder that remembers which inputs
// gave which files, so that a second run skips inputs that did not change.
const IndexName = ".agt-index.json"

// LockName is the file in an output folder a run holds a lock on, so that
// two runs never write to one folder at once.
const LockName = ".agt-lock"

// indexSchema names the layout of the index; an index of an earlier
// layout (indexSchemaV3, indexSchemaV2) is migrated, one of another layout
// is read as empty (everything is converted again).
const (
	indexSchema   = "agt.index/4"
	indexSchemaV3 = "agt.index/3" // the same, with SHA-256 sums
	indexSchemaV2 = "agt.index/2"
)

// Index maps input units to a fingerprint of their files (path, size,
// modification time, and the options of the run) and the files they gave,
// each with its size and sum (newSum). A unit with an empty fingerprint is not
// done (a read error, a failed write, or an input that cannot be
// fingerprinted, as stdin): it only keeps its claim on its file names.
//
// Units are keyed by where their first file is (Key: the absolute path,
// folders' links resolved), not by how it was typed; each input is
// recorded with the size and modification time its fingerprint was made
// of and, once read whole, the sum of its content, so that the same
// content met under another path (a copy, an archive of the tree, the tree
// of an archive) is known without being converted again.
type Index struct {
	Schema string                `json:"schema"`
	Units  map[string]IndexEntry `json:"units"`

	mu       sync.Mutex
	root     *os.Root
	run      string
	salt     string
	pending  map[string]string       // unit → fingerprint of the run under way
	inputs   map[string][]IndexInput // unit → its inputs, in the run under way
	read     map[string]content      // input path → content read whole in this run
	archive  map[string]string       // archive path → sum of the archive file, this run
	byPath   map[string]IndexInput   // input path → its record
	bySum    map[string][]string     // content sum → units whose inputs hold it
	byMember map[string]IndexInput   // archive sum NUL member name → the member's record
	lengths  map[int64]bool          // lengths of the contents recorded
	sessions map[string][]string     // agt session id → units whose files held it
	keys     sync.Map                // unit or path → Key
	decided  map[string]bool         // group → whether it was found fresh in this run
	group    map[string]string       // unit → the unit whose group it belongs to
	owner    map[string]string       // nameKey(file) → unit
	seen     map[string]bool         // units recorded by this run
	dirty    bool
	since    int64 // bytes of output recorded since the last save
	size     int64 // size of the index last saved
}

// IndexEntry is one unit's record: with the other units of its group (the
// inputs of one session that were not read as one unit, joined when their
// events were consolidated), which are skipped or converted with it.
//
// A unit whose content another unit's files already hold (the same files
// met under other paths) gives no file: Same names that unit, and the unit
// is up to date while its own inputs are unchanged and that unit's files
// are intact.
type IndexEntry struct {
	Fingerprint string        `json:"fingerprint"`
	Files       []IndexFile   `json:"files"`
	Inputs      []IndexInput  `json:"inputs,omitempty"`
	Members     []IndexMember `json:"members,omitempty"`
	Same        string        `json:"same,omitempty"`
}

// IndexMember is a unit of a group other than its first.
type IndexMember struct {
	Unit        string       `json:"unit"`
	Inputs      []IndexInput `json:"inputs"`
	Fingerprint string       `json:"fingerprint"`
}

// IndexInput is one input file of a unit: its path (Key), the size and
// modification time (RFC 3339, UTC, to the nanosecond: a JSON number would
// lose digits in tools that read numbers as floats, as jq) its fingerprint
// was made of (an archive
// member's are its archive's), and the sum (newSum) and length of its
// content when it was read whole; Archive is the sum of the archive file that
// holds a member.
type IndexInput struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	MTime   string `json:"mtime"`
	Sum     string `json:"xxh3,omitempty"`
	Length  int64  `json:"length,omitempty"`
	Archive string `json:"archive,omitempty"`
}

// content is what one read of an input to its end saw.
type content struct {
	sum    string
	length int64
}

// IndexFile is one file a unit gave, relative to the output folder.
type IndexFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	Sum  string `json:"xxh3"`
	// Session is the agt session id of the session the file holds (""
	// in indexes written before it was recorded).
	Session string `json:"session,omitempty"`
}

// errLocked is lockFile's answer when another process holds the lock.
var errLocked = errors.New("locked")

// Lock takes the lock of the output folder root, or fails at once when
// another run holds it. unlock releases it (the lock file stays).
func Lock(root string) (unlock func(), err error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := regular(r, root, LockName); err != nil {
		return nil, err
	}
	f, err := r.OpenFile(LockName, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(root, LockName), unwrapPath(err))
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("%s: another agt-transcript run is writing to this folder", root)
		}
		return nil, fmt.Errorf("%s: cannot lock the folder: %w", root, err)
	}
	return func() { f.Close() }, nil
}

// LoadIndex reads the index of root; salt (the version and options of the
// run) is part of every fingerprint, so that other options convert again.
// An index of the previous layout (agt.index/2, units keyed by their path
// as typed) is migrated: its units keep their files and names under the
// key of their path, and are converted again once (their fingerprints were
// made of the paths as typed). The caller holds the folder's lock, so every
// temporary file in the folder is a dead run's: they are removed.
func LoadIndex(root, salt string) (*Index, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	ix := &Index{Schema: indexSchema, root: r, run: RunTag(), salt: salt, Units: map[string]IndexEntry{}, pending: map[string]string{},
		inputs: map[string][]IndexInput{}, decided: map[string]bool{}, group: map[string]string{}, owner: map[string]string{},
		read: map[string]content{}, archive: map[string]string{}, byPath: map[string]IndexInput{}, bySum: map[string][]string{},
		byMember: map[string]IndexInput{}, lengths: map[int64]bool{}, sessions: map[string][]string{}}
	if err := regular(r, root, IndexName); err != nil {
		r.Close()
		return nil, err
	}
	b, err := r.ReadFile(IndexName)
	if err == nil {
		ix.Units = decodeIndex(b, ix.Key)
		ix.size = int64(len(b))
	} else if !errors.Is(err, fs.ErrNotExist) {
		r.Close()
		return nil, fmt.Errorf("%s: %w", filepath.Join(root, IndexName), unwrapPath(err))
	}
	units := make([]string, 0, len(ix.Units))
	for unit := range ix.Units {
		units = append(units, unit)
	}
	sort.Strings(units) // bySum lists units in one order, whatever the map's
	for _, unit := range units {
		e := ix.Units[unit]
		for _, f := range e.Files {
			ix.owner[nameKey(f.Path)] = unit
		}
		for _, m := range e.Members {
			ix.group[m.Unit] = unit
		}
		ix.learn(unit, e, true)
	}
	removeTemps(r)
	return ix, nil
}

// decodeIndex reads an index file: its units, or none when it is not an
// index agt can read (everything is converted again). key gives the key of
// a path as typed, for indexes of the previous layout.
func decodeIndex(b []byte, key func(string) string) map[string]IndexEntry {
	var head struct {
		Schema string `json:"schema"`
	}
	if agt.API.Unmarshal(b, &head) != nil {
		return map[string]IndexEntry{}
	}
	switch head.Schema {
	case indexSchema, indexSchemaV3:
		var ix struct {
			Units map[string]IndexEntry `json:"units"`
		}
		if agt.API.Unmarshal(b, &ix) != nil || ix.Units == nil {
			return map[string]IndexEntry{}
		}
		if head.Schema == indexSchemaV3 {
			// its SHA-256 sums (members "sha256", not read) are not
			// sums of this layout: without them its files are not known
			// intact and its inputs' content is unknown, so that its
			// units are converted again once, under the same names
			for _, e := range ix.Units {
				clearArchives(e.Inputs)
				for _, m := range e.Members {
					clearArchives(m.Inputs)
				}
			}
		}
		return ix.Units
	case indexSchemaV2:
		type member struct {
			Unit        string   `json:"unit"`
			Inputs      []string `json:"inputs"`
			Fingerprint string   `json:"fingerprint"`
		}
		var old struct {
			Units map[string]struct {
				Files   []IndexFile `json:"files"`
				Inputs  []string    `json:"inputs"`
				Members []member    `json:"members"`
			} `json:"units"`
		}
		units := map[string]IndexEntry{}
		if agt.API.Unmarshal(b, &old) != nil {
			return units
		}
		paths := func(ps []string) []IndexInput {
			var in []IndexInput
			for _, p := range ps {
				in = append(in, IndexInput{Path: key(p)})
			}
			return in
		}
		for unit, e := range old.Units { // no fingerprint: converted again once, under the same names
			n := IndexEntry{Files: e.Files, Inputs: paths(e.Inputs)}
			for _, m := range e.Members {
				n.Members = append(n.Members, IndexMember{Unit: key(m.Unit), Inputs: paths(m.Inputs)})
			}
			k := key(unit)
			if prev, ok := units[k]; ok { // two spellings of one unit: both keep their files
				n.Files = append(prev.Files, n.Files...)
				sort.Slice(n.Files, func(i, j int) bool { return n.Files[i].Path < n.Files[j].Path })
			}
			units[k] = n
		}
		return units
	}
	return map[string]IndexEntry{}
}

// clearArchives forgets the sums of the archives that hold inputs.
func clearArchives(in []IndexInput) {
	for i := range in {
		in[i].Archive = ""
	}
}

// learn adds the sessions a recorded unit's files hold and, with content,
// what its inputs hold to the lookup tables (ix.mu held, or the index not
// yet shared).
func (ix *Index) learn(unit string, e IndexEntry, content bool) {
	add := func(in IndexInput) {
		if in.Sum == "" {
			return
		}
		ix.byPath[in.Path] = in
		if us := ix.bySum[in.Sum]; len(us) == 0 || us[len(us)-1] != unit {
			ix.bySum[in.Sum] = append(us, unit)
		}
		ix.lengths[in.Length] = true
		if in.Archive != "" {
			if _, name, ok := strings.Cut(in.Path, "!/"); ok {
				ix.byMember[in.Archive+"\x00"+name] = in
			}
		}
	}
	for _, f := range e.Files {
		if us := ix.sessions[f.Session]; f.Session != "" && !slices.Contains(us, unit) {
			ix.sessions[f.Session] = append(us, unit)
		}
	}
	if !content {
		return
	}
	for _, in := range e.Inputs {
		add(in)
	}
	for _, m := range e.Members {
		for _, in := range m.Inputs {
			add(in)
		}
	}
}

// regular refuses a file of agt's (the index, the lock) that is there but
// not a regular file: a FIFO would hang the read, a folder or a device is
// no index.
func regular(r *os.Root, root, name string) error {
	st, err := r.Lstat(name)
	if err != nil || st.Mode().IsRegular() {
		return nil // absent: made; unreadable: its read says why
	}
	return fmt.Errorf("%s: not a regular file (agt keeps its %s there): move it away", filepath.Join(root, name), map[string]string{IndexName: "index", LockName: "lock"}[name])
}

// tempFile is the name of a temporary file agt writes (Dir.tempName and
// the index's): ".NAME.tmp-RUN-N", RUN the run's tag (RunTag: 8 hex
// digits), N a number. A file of the user's that merely holds ".tmp-" is
// not one.
var tempFile = regexp.MustCompile(`^\..+\.tmp-[0-9a-f]{8}-[0-9]+$`)

// removeTemps removes the temporary files of dead runs, in the folder and
// in its provider folders (never through a link).
func removeTemps(r *os.Root) {
	isTemp := func(e fs.DirEntry) bool { return e.Type().IsRegular() && tempFile.MatchString(e.Name()) }
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

// Key is the key of a unit or an input path in the index: its absolute
// path, the links among its folders resolved (an archive member's, of its
// archive, with the member's name after "!/"), so that a unit typed
// relative, absolute, from another folder or found by --discover is one
// unit. Standard input and paths that cannot be made absolute are kept.
func (ix *Index) Key(p string) string {
	if p == "" || p == stage.StdinPath {
		return p
	}
	if k, ok := ix.keys.Load(p); ok {
		return k.(string)
	}
	file, member, inArchive := strings.Cut(p, "!/")
	a, err := filepath.Abs(file)
	if err != nil {
		return p
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(a)); err == nil {
		a = filepath.Join(dir, filepath.Base(a))
	}
	if inArchive {
		a += "!/" + member
	}
	ix.keys.Store(p, a)
	return a
}

// state is the state of a unit's files: each input's record (path, size
// and modification time, not yet its content) and the fingerprint made of
// them and the run's salt; "" when an input cannot be fingerprinted
// (stdin, a file gone).
func (ix *Index) state(files []stage.Input) ([]IndexInput, string) {
	in := make([]IndexInput, len(files))
	ok := true
	for i, f := range files {
		k := ix.Key(f.Path)
		in[i].Path = k
		file, _, _ := strings.Cut(f.Path, "!/") // an archive member: the archive's state
		st, err := os.Stat(file)
		if err != nil || f.Path == stage.StdinPath {
			ok = false
			continue
		}
		in[i].Size, in[i].MTime = st.Size(), st.ModTime().UTC().Format(time.RFC3339Nano)
	}
	if !ok {
		return in, ""
	}
	return in, ix.fingerprint(in)
}

// fingerprint is the fingerprint of inputs as recorded, with the run's salt.
func (ix *Index) fingerprint(in []IndexInput) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", ix.salt)
	for _, f := range in {
		fmt.Fprintf(h, "%s\x00%d\x00%s\n", f.Path, f.Size, f.MTime)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Fingerprint identifies the current state of a unit's files.
func (ix *Index) Fingerprint(files []stage.Input) string {
	_, fp := ix.state(files)
	return fp
}

// Note keeps the fingerprint of a unit about to be converted whatever its
// state (--force), for Done.
func (ix *Index) Note(unit string, files []stage.Input) {
	in, fp := ix.state(files)
	unit = ix.Key(unit)
	ix.mu.Lock()
	ix.pending[unit], ix.inputs[unit], ix.decided[unit] = fp, in, false
	ix.mu.Unlock()
}

// Fresh reports whether unit's files are unchanged since its files were
// written, and those files are all still there, as they were written; for a
// unit of a group, whether the whole group is (all of its units unchanged,
// and the first not converted again in this run). A unit not recorded is
// fresh when the content of its files is already in a recorded unit's
// intact files (the same files under other paths: see same); it is then
// recorded as that unit's (Same), and so is again when its own inputs
// change. A recorded unit whose inputs changed is converted again. When
// not fresh, the unit's fingerprint is kept for Done.
func (ix *Index) Fresh(unit string, files []stage.Input) bool { return ix.fresh(unit, files, true) }

// Known reports what Fresh would, without noting or recording anything.
func (ix *Index) Known(unit string, files []stage.Input) bool { return ix.fresh(unit, files, false) }

func (ix *Index) fresh(unit string, files []stage.Input, commit bool) bool {
	in, fp := ix.state(files)
	unit = ix.Key(unit)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if commit {
		ix.pending[unit], ix.inputs[unit] = fp, in
	}
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
	if fp != "" && (!ok || e.Same != "" && own != fp) && key == unit { // not recorded, or recorded as another's
		known := append([]IndexInput(nil), in...) // given their content where known; ix.inputs keeps what this run reads
		if same := ix.same(unit, files, known); same != "" {
			if commit {
				ix.Units[unit] = IndexEntry{Fingerprint: fp, Files: []IndexFile{}, Inputs: known, Same: same}
				ix.learn(unit, ix.Units[unit], false)
				ix.decided[unit], ix.dirty = true, true
			}
			return true
		}
	}
	if fp != "" && ok && own != fp && key == unit && e.Same == "" && ix.lost(e, in) && ix.holds(unit) {
		return true // only inputs that are gone differ: its files hold more than its inputs now give
	}
	if fp == "" || !ok || own != fp {
		if key == unit && commit {
			ix.decided[unit] = false
		}
		return false
	}
	fresh, done := ix.decided[key]
	if !done { // kept by Known too: the group's outputs are hashed once a run
		fresh = ix.groupFresh(e)
		ix.decided[key] = fresh
	}
	return fresh
}

// lost tells whether a recorded unit's inputs differ from in only by
// inputs that are gone: every one of in is recorded as it is now, and
// every recorded input not in in no longer exists (ix.mu held).
func (ix *Index) lost(e IndexEntry, in []IndexInput) bool {
	rec := map[string]IndexInput{}
	for _, r := range e.Inputs {
		rec[r.Path] = r
	}
	for _, m := range e.Members {
		for _, r := range m.Inputs {
			rec[r.Path] = r
		}
	}
	for _, f := range in {
		r, ok := rec[f.Path]
		if !ok || r.Size != f.Size || r.MTime != f.MTime {
			return false
		}
		delete(rec, f.Path)
	}
	if len(rec) == 0 {
		return false
	}
	for p := range rec {
		file, _, _ := strings.Cut(p, "!/")
		if _, err := os.Stat(file); err == nil {
			return false
		}
	}
	return true
}

// Recall is the paths (keys) of the inputs the units holding session (an
// agt session id) were read from, but those skip tells to leave out (this
// run's own inputs), and those no longer there.
func (ix *Index) Recall(session string, skip func(key string) bool) []string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var out []string
	seen := map[string]bool{}
	for _, unit := range ix.sessions[session] {
		e, ok := ix.Units[unit]
		if !ok || !slices.ContainsFunc(e.Files, func(f IndexFile) bool { return f.Session == session }) {
			continue // it gave the session's file up since
		}
		all := append([]IndexInput(nil), e.Inputs...)
		for _, m := range e.Members {
			all = append(all, m.Inputs...)
		}
		for _, in := range all {
			if seen[in.Path] || skip(in.Path) {
				continue
			}
			seen[in.Path] = true
			file, _, _ := strings.Cut(in.Path, "!/")
			if st, err := os.Stat(file); err == nil && st.Mode().IsRegular() {
				out = append(out, in.Path)
			}
		}
	}
	return out
}

// groupFresh reports whether a recorded group is as it was: its units'
// inputs unchanged, its files intact; for a unit recorded as another's
// (Same), whether that unit is done and its files intact (ix.mu held).
func (ix *Index) groupFresh(e IndexEntry) bool {
	if e.Same != "" {
		return e.Fingerprint != "" && ix.holds(e.Same)
	}
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

// holds reports whether unit was converted whole with this run's options
// (its fingerprint, made again from its records, is the one recorded: the
// same salt) and its files are intact, whatever became of its inputs
// (ix.mu held).
func (ix *Index) holds(unit string) bool {
	e, ok := ix.Units[unit]
	if !ok || e.Same != "" || e.Fingerprint == "" || len(e.Files) == 0 || ix.fingerprint(e.Inputs) != e.Fingerprint {
		return false
	}
	for _, m := range e.Members {
		if m.Fingerprint == "" || ix.fingerprint(m.Inputs) != m.Fingerprint {
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

// same is the recorded unit whose inputs hold the content of every one of
// files (in: their records, given their content here when known) and whose
// files are intact, or "" (ix.mu held). The content of an input is known
// without reading it when its path is recorded with the same size and
// time, or when its archive's content is recorded; otherwise a file is
// read to hash it only when a recorded content has its length, and an
// archive file is hashed once per run.
func (ix *Index) same(unit string, files []stage.Input, in []IndexInput) string {
	if len(ix.bySum) == 0 {
		return ""
	}
	sums := make([]string, len(files))
	for i, f := range files {
		if sums[i] = ix.sum(f, &in[i]); sums[i] == "" {
			return ""
		}
	}
	for _, cand := range ix.bySum[sums[0]] {
		if cand == unit {
			continue
		}
		e := ix.Units[cand]
		have := map[string]bool{}
		for _, r := range e.Inputs {
			have[r.Sum] = true
		}
		for _, m := range e.Members {
			for _, r := range m.Inputs {
				have[r.Sum] = true
			}
		}
		all := true
		for _, s := range sums {
			all = all && have[s]
		}
		if all && ix.holds(cand) {
			return cand
		}
	}
	return ""
}

// sum is the sum of the content of f, or "" when unknown; rec (f's
// record) is given it (ix.mu held).
func (ix *Index) sum(f stage.Input, rec *IndexInput) string {
	if c, ok := ix.read[rec.Path]; ok && !strings.Contains(rec.Path, "!/") {
		rec.Sum, rec.Length = c.sum, c.length
		return c.sum
	}
	if prev, ok := ix.byPath[rec.Path]; ok && prev.Size == rec.Size && prev.MTime == rec.MTime {
		rec.Sum, rec.Length, rec.Archive = prev.Sum, prev.Length, prev.Archive
		return rec.Sum
	}
	file, name, member := strings.Cut(rec.Path, "!/")
	if member {
		a, ok := ix.archive[file]
		if !ok {
			a, _ = hashFile(file)
			ix.archive[file] = a
		}
		m, ok := ix.byMember[a+"\x00"+name]
		if a == "" || !ok {
			return ""
		}
		rec.Sum, rec.Length, rec.Archive = m.Sum, m.Length, a
		return rec.Sum
	}
	if !f.File || !ix.lengths[rec.Size] {
		return ""
	}
	s, err := hashFile(file)
	if err != nil {
		return ""
	}
	rec.Sum, rec.Length = s, rec.Size
	ix.read[rec.Path] = content{sum: s, length: rec.Size} // hashed once a run
	return s
}

// newSum is the hash of the contents the index records (inputs, archives,
// files): XXH3-128, 32 hex digits. It tells a content from another and a
// changed file from its record; it is not cryptographic (SHA-256 of every
// input and output was a seventh of an -o run's CPU).
func newSum() hash.Hash { return xxh3.New128() }

// hashFile is the sum (newSum) of a file's content.
func hashFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := newSum()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Watch wraps the inputs so that each one read to its end has the sum
// of its content noted, for the records of its unit.
func (ix *Index) Watch(inputs []stage.Input) []stage.Input {
	out := make([]stage.Input, len(inputs))
	for i, in := range inputs {
		open, path := in.Open, in.Path
		if open != nil && path != stage.StdinPath {
			in.Open = func() (io.ReadCloser, error) {
				rc, err := open()
				if err != nil {
					return nil, err
				}
				return &hashing{input: input{rc}, h: newSum(), done: func(c content) {
					k := ix.Key(path)
					ix.mu.Lock()
					ix.read[k] = c
					ix.mu.Unlock()
				}}, nil
			}
		}
		out[i] = in
	}
	return out
}

// hashing hashes what is read through it; at the end of the input it
// hands the sum to done.
type hashing struct {
	input
	h    hash.Hash
	n    int64
	done func(content)
}

// input is an input wrapped by the folder (hashing, watched): its Stat
// and Stream are the input's own, so that it is read as it is without -o
// (a plain file's size decides the size of its blocks).
type input struct{ io.ReadCloser }

func (r input) Stat() (fs.FileInfo, error) {
	if s, ok := r.ReadCloser.(interface{ Stat() (fs.FileInfo, error) }); ok {
		return s.Stat()
	}
	return nil, errors.ErrUnsupported
}

func (r input) Stream() bool { return stage.IsStream(r.ReadCloser) }

func (r *hashing) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if r.done != nil {
		r.h.Write(p[:n])
		r.n += int64(n)
		if err == io.EOF {
			r.done(content{sum: hex.EncodeToString(r.h.Sum(nil)), length: r.n})
			r.done = nil
		} else if err != nil {
			r.done = nil
		}
	}
	return n, err
}

// filled is the records of a unit's inputs in the run under way, each
// with its content when it was read whole or known (ix.mu held).
func (ix *Index) filled(unit string) []IndexInput {
	in := append([]IndexInput(nil), ix.inputs[unit]...)
	for i := range in {
		if c, ok := ix.read[in[i].Path]; ok {
			in[i].Sum, in[i].Length = c.sum, c.length
		}
		if file, _, ok := strings.Cut(in[i].Path, "!/"); ok && in[i].Sum != "" {
			a, ok := ix.archive[file]
			if !ok { // once per archive and run, whatever was met before
				a, _ = hashFile(file)
				ix.archive[file] = a
			}
			in[i].Archive = a
		}
	}
	return in
}

func pathInputs(in []IndexInput) []stage.Input {
	out := make([]stage.Input, len(in))
	for i, p := range in {
		out[i] = stage.Input{Path: p.Path}
	}
	return out
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
	h := newSum()
	if _, err := io.Copy(h, r); err != nil {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == f.Sum
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
	unit = ix.Key(unit)
	keys := make([]string, len(members))
	for i, m := range members {
		keys[i] = ix.Key(m)
	}
	members = keys
	ix.mu.Lock()
	defer ix.mu.Unlock()
	e := IndexEntry{Files: append([]IndexFile(nil), files...), Inputs: ix.filled(unit)}
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
		e.Members = append(e.Members, IndexMember{Unit: m, Inputs: ix.filled(m), Fingerprint: fp})
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
	ix.learn(unit, e, false) // its content is known from the next run: what this run skips does not hang on the writers' pace
	ix.dirty = true
}

// saveSoon saves the index when the output recorded since the last save
// outweighs the index itself saveEvery times, so that a killed run loses
// little (its files are written again by the next run) and the index is
// encoded about 1/saveEvery of the output's size over the run.
func (ix *Index) saveSoon(d *Dir) {
	ix.mu.Lock()
	due := ix.since >= saveEvery*ix.size
	ix.mu.Unlock()
	if due {
		if err := ix.Save(); err != nil && d.Warn != nil {
			d.Warn(err.Error())
		}
	}
}

// saveEvery: the index was saved each time the output recorded since
// outweighed it once, which encoded as many bytes of index as the run wrote
// of transcripts (0.12 s of a 224 MB tree's 0.9 s); at 16 times, a
// sixteenth.
const saveEvery = 16

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
