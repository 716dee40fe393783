package transcript

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
	"github.com/bytedance/sonic/encoder"
)

// Stream log modes.
const (
	LogOff     = "false"
	LogRaw     = "raw"
	LogSummary = "summary"
)

// Endings of the files of a session in an output folder.
const (
	ExtTranscript = ".transcript.jsonl"
	ExtStreamRaw  = ".stream.jsonl"
	ExtStreamLog  = ".stream.log"
)

// AppendJSON appends v as one JSON line.
func AppendJSON(buf []byte, v any) []byte {
	if err := encoder.EncodeInto(&buf, v, stage.EncodeOpts); err != nil {
		panic(fmt.Sprintf("encoding: %v", err))
	}
	return append(buf, '\n')
}

// maxName is the longest file name component built from an id, in bytes:
// with the longest ending, a collision suffix and a temporary file's
// prefix and suffix it stays well under the 255 bytes file systems allow.
const maxName = 120

// reserved are the device names Windows file systems refuse as a file name,
// whatever the ending.
var reserved = map[string]bool{"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true}

func init() {
	for i := '0'; i <= '9'; i++ {
		reserved["COM"+string(i)] = true
		reserved["LPT"+string(i)] = true
	}
	for _, s := range []string{"¹", "²", "³"} {
		reserved["COM"+s] = true
		reserved["LPT"+s] = true
	}
}

// SafeName makes s usable as one file name component on every common file
// system: path separators, control and format characters (NUL, bidi
// overrides), invalid UTF-8 and the characters Windows reserves become "_", as do a leading dot
// (no hidden file, no "." or "..", nothing that could meet the index, the
// lock or a temporary file) and trailing dots and spaces; a reserved device
// name (CON, NUL, COM1, …) gets a "_" in front. A name longer than maxName
// bytes is cut and given a short hash of the whole id, so that it stays
// distinct. The empty string gives "".
func SafeName(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError, unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r), strings.ContainsRune(`/\:*?"<>|`, r):
			b.WriteByte('_')
		case r == '.' && i == 0:
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	n := b.String()
	if t := strings.TrimRight(n, ". "); len(t) < len(n) {
		n = t + strings.Repeat("_", len(n)-len(t))
	}
	stem, _, _ := strings.Cut(n, ".")
	if reserved[strings.ToUpper(strings.TrimRight(stem, " "))] {
		n = "_" + n
	}
	if len(n) > maxName { // the cut keeps the stem, or ends it with the hash
		cut := maxName - 9
		for cut > 0 && !utf8.RuneStart(n[cut]) {
			cut--
		}
		n = n[:cut] + "~" + shortHash(s)
	}
	return n
}

// shortHash is 8 hex digits of the SHA-256 of the parts.
func shortHash(parts ...string) string {
	h := sha256.New()
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0})
		}
		io.WriteString(h, p)
	}
	return hex.EncodeToString(h.Sum(nil)[:4])
}

// FileName is the file name stem of a session: its native id made safe
// (SafeName), else its agt session id made safe, else "session".
func FileName(native, session string) string {
	if n := SafeName(native); n != "" {
		return n
	}
	if n := SafeName(session); n != "" {
		return n
	}
	return "session"
}

// ProviderDir is the folder of a provider's sessions in an output folder.
func ProviderDir(provider string) string {
	if n := SafeName(provider); n != "" {
		return n
	}
	return "unknown"
}

// Export is a file written beside each transcript: its ending (with the
// dot) and what writes it from the transcript.
type Export struct {
	Ext   string
	Write func(w io.Writer, t *Transcript) error
}

// Dir writes each session to DIR/<provider>/<session>.transcript.jsonl, and
// its stream log beside it, each through a temporary file renamed into
// place, so that a killed run never leaves a partial file. Every write goes
// through an os.Root, so no name and no link leads out of DIR. Two sessions
// whose names meet (names that differ only in case meet) never replace each
// other: the later one (in input order, or the one whose unit does not own
// the name in the index) gets "~<hash of its unit>" before the ending. A
// unit is recorded in the index when all of its files are in place and it
// had no read error.
//
// A session's files are encoded and written by writer goroutines (on a
// busy or remote disk, creating a file costs as much as encoding it), so
// that the run goes on meanwhile; units are recorded in the index in their
// order, once their files are in place. A write error is returned by a
// later Flush, or by Close, which waits for every file.
type Dir struct {
	StreamLog string // LogOff, LogRaw or LogSummary
	// Exports are written beside each transcript, after it: the same
	// session in other formats (agt-transcript --format).
	Exports []Export
	// Failed, when set, tells whether a unit had a read error: its files
	// are written, but it is not recorded as done.
	Failed func(unit string) bool
	// Warn, when set, receives warnings (a name taken by another session).
	Warn func(msg string)

	path    string
	root    *os.Root
	ix      *Index
	run     string
	seq     atomic.Int64
	dirs    map[string]error
	subs    map[string]*os.Root // the provider folders made, opened once
	written map[string]string   // nameKey(transcript path) → unit, this run
	cur     *unitFiles          // the unit under way
	ended   []*unitFiles        // units ended, recorded once their files are in place
	session string              // the session being written
	chain   []*fileJob          // the session's files, handed on together
	next    []string            // the units of the group about to be flushed
	count   int

	work    chan *fileJob
	writers sync.WaitGroup
	err     error // the first write error, until returned
}

// unitFiles are the files of one unit and the other units of its group.
type unitFiles struct {
	unit    string
	members []string
	jobs    []*fileJob
	broken  bool // a file of the unit could not be made
}

// fileJob is a file for the writers: its content, and once done (closed)
// its record or the error that kept it from its place.
type fileJob struct {
	name, tmp, session string
	// in: the provider folder's root, where the file is base and its
	// temporary copy tmpBase (nil: DIR's root, with name and tmp)
	in            *os.Root
	base, tmpBase string
	fill          func(io.Writer) error
	file          IndexFile
	err           error
	done          chan struct{}
	// after are the other files of its session, written in turn by the
	// same writer (the transcript first: on a full disk it is the one
	// that has a place, whatever the writers' pace)
	after []*fileJob
}

// dirWriters is the number of writers of OpenDir; as many files may wait
// for them before the run waits. A Folder has as many as the run has
// encoding workers, between dirWriters and maxDirWriters.
const (
	dirWriters    = 2
	maxDirWriters = 16
)

// OpenDir opens the output folder root (which must exist) for a run that
// records what it writes in ix (nil: no index).
func OpenDir(root, streamLog string, ix *Index) (*Dir, error) {
	return openDir(root, streamLog, ix, dirWriters)
}

// openDir is OpenDir with n writers.
func openDir(root, streamLog string, ix *Index, n int) (*Dir, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	d := &Dir{StreamLog: streamLog, path: root, root: r, ix: ix, run: RunTag(), dirs: map[string]error{}, written: map[string]string{},
		work: make(chan *fileJob, n)}
	d.writers.Add(n)
	for range n {
		go d.writer()
	}
	return d, nil
}

// RunTag is a random tag for the temporary files of one run.
func RunTag() string {
	b := make([]byte, 4)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Transcripts is the number of transcript files written.
func (d *Dir) Transcripts() int { return d.count }

// Flush writes one session.
func (d *Dir) Flush(unit string, t *Transcript, events []agt.Event) error {
	if d.cur == nil || unit != d.cur.unit {
		d.end()
		d.cur = &unitFiles{unit: unit}
		if len(d.next) > 0 && d.next[0] == unit {
			d.cur.members = d.next[1:]
		}
	}
	err := d.flush(unit, t, events)
	if len(d.chain) > 0 { // the session's files, written in order by one writer
		j := d.chain[0]
		j.after, d.chain = d.chain[1:], nil
		d.work <- j
	}
	if err != nil {
		d.cur.broken = true
		return err
	}
	return d.record(false)
}

func (d *Dir) flush(unit string, t *Transcript, events []agt.Event) error {
	prov := ProviderDir(t.Provider)
	if err := d.mkdir(prov); err != nil {
		return err
	}
	if d.kept(unit, prov, FileName(t.NativeSession, t.Session), t.Session) {
		d.cur.broken = true // not up to date: a later run tries again
		return nil
	}
	stem := d.pick(unit, prov, FileName(t.NativeSession, t.Session), t.Session)
	d.session = t.Session
	base := prov + "/" + stem
	if err := d.write(base+ExtTranscript, func(w io.Writer) error { return WriteJSON(w, t) }); err != nil {
		return err
	}
	d.written[nameKey(base+ExtTranscript)] = unit
	for _, e := range d.Exports {
		if err := d.write(base+e.Ext, func(w io.Writer) error { return e.Write(w, t) }); err != nil {
			return err
		}
	}
	switch d.StreamLog {
	case LogRaw:
		return d.write(base+ExtStreamRaw, func(w io.Writer) error {
			var line []byte
			for i := range events {
				line = stage.AppendEvent(line[:0], &events[i])
				if _, err := w.Write(line); err != nil {
					return err
				}
			}
			return nil
		})
	case LogSummary:
		return d.write(base+ExtStreamLog, func(w io.Writer) error {
			s := NewSummary(w, false) // a file: lines whole, no colors
			for i := range events {
				if err := s.Event(&events[i]); err != nil {
					return err
				}
			}
			if err := s.End(t); err != nil {
				return err
			}
			return s.Flush()
		})
	}
	return nil
}

// Close waits for the files being written, records the units not yet
// recorded and closes the folder. It returns the first write error not yet
// returned.
func (d *Dir) Close() error {
	d.end()
	err := d.record(true)
	close(d.work)
	d.writers.Wait()
	for _, sub := range d.subs {
		sub.Close()
	}
	if cerr := d.root.Close(); err == nil {
		err = cerr
	}
	return err
}

// Group is told the units of the group whose sessions come next (the
// consolidator's Group): they are recorded with the first one, so that a
// re-run skips or converts them together.
func (d *Dir) Group(units []string) { d.next = units }

// end ends the unit under way: it is recorded once its files are written.
func (d *Dir) end() {
	if d.cur != nil {
		d.ended = append(d.ended, d.cur)
		d.cur = nil
	}
}

// record records the ended units whose files are all written, in their
// order (all: every ended unit, waiting for its files), and returns the
// first write error not yet returned.
func (d *Dir) record(all bool) error {
	for len(d.ended) > 0 {
		u := d.ended[0]
		if !all && !u.written() {
			break
		}
		d.ended = d.ended[1:]
		d.commit(u)
	}
	err := d.err
	d.err = nil
	return err
}

// written tells whether the unit's files are all written (or failed).
func (u *unitFiles) written() bool {
	for _, j := range u.jobs {
		select {
		case <-j.done:
		default:
			return false
		}
	}
	return true
}

// commit records u in the index, with the other units of its group, once
// its files are written.
func (d *Dir) commit(u *unitFiles) {
	ok := !u.broken
	var files []IndexFile
	for _, j := range u.jobs {
		<-j.done
		if j.err != nil {
			ok = false
			if d.err == nil {
				d.err = j.err
			}
			continue
		}
		files = append(files, j.file)
		if strings.HasSuffix(j.name, ExtTranscript) {
			d.count++
		}
	}
	if d.ix == nil || len(files) == 0 {
		return
	}
	for _, m := range append([]string{u.unit}, u.members...) {
		if d.Failed != nil && d.Failed(m) {
			ok = false
		}
	}
	d.ix.Done(u.unit, files, ok, u.members)
	d.ix.saveSoon(d)
}

// mkdir makes a provider folder, refusing a link or anything else that is
// not a folder of DIR's own.
func (d *Dir) mkdir(name string) error {
	if err, ok := d.dirs[name]; ok {
		return err
	}
	if !filepath.IsLocal(name) || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("%q: refused: not a folder name", name)
	}
	err := d.root.Mkdir(name, 0o777)
	if errors.Is(err, fs.ErrExist) {
		err = nil
		if st, lerr := d.root.Lstat(name); lerr != nil {
			err = lerr
		} else if st.Mode()&fs.ModeSymlink != 0 {
			err = fmt.Errorf("%s: a symbolic link: agt-transcript writes only inside %s and does not follow links (remove the link)", filepath.Join(d.path, name), d.path)
		} else if !st.IsDir() {
			err = fmt.Errorf("%s: not a directory", filepath.Join(d.path, name))
		}
	}
	d.dirs[name] = err
	if err == nil {
		if sub, serr := d.root.OpenRoot(name); serr == nil {
			if d.subs == nil {
				d.subs = map[string]*os.Root{}
			}
			d.subs[name] = sub
		}
	}
	return err
}

// kept tells whether the session's file is left as it is: the index says
// a unit outside this group wrote it for the same session, whose inputs
// could not be read with this group's (they are gone, or the grouping
// pre-pass could not name their session). Writing the session from this
// group's inputs alone would replace the transcript with part of the
// session, and writing it beside under another name would count its
// records twice: the transcript stays, a warning says so, and the unit is
// not recorded as done, so that a later run, its earlier inputs back,
// merges them.
func (d *Dir) kept(unit, prov, stem, session string) bool {
	if d.ix == nil {
		return false
	}
	p := prov + "/" + stem + ExtTranscript
	if _, ok := d.written[nameKey(p)]; ok {
		return false
	}
	owner, s := d.ix.OwnerSession(p)
	if owner == "" || s != session || owner == d.ix.Key(unit) {
		return false
	}
	for _, m := range d.cur.members {
		if d.ix.Key(m) == owner {
			return false
		}
	}
	if d.Warn != nil {
		d.Warn(fmt.Sprintf("%s holds this session as read from %s, which cannot be read again with %s (gone, not named by its first lines, or events piped in): kept as it is, without the records only %s holds (convert it into another folder to see them)",
			p, printable(owner), printable(unit), printable(unit)))
	}
	return true
}

// pick chooses the file name stem of a session of unit in folder prov: the
// session's own name unless this run already wrote it or another unit owns
// it in the index for another session, else the name with a hash of the
// unit (and then of the session) added. A name another unit owns for the
// same session is taken over when that unit is one of this group's (the
// session's inputs grouped otherwise: a copy added, a larger copy first):
// its records are in this transcript. A unit outside the group keeps its
// file, so that nothing is overwritten with less.
func (d *Dir) pick(unit, prov, stem, session string) string {
	var key string // the unit and its group's other units as the index names them
	var members []string
	if d.ix != nil {
		key = d.ix.Key(unit)
		for _, m := range d.cur.members {
			members = append(members, d.ix.Key(m))
		}
	}
	taken := func(s string) (string, bool) {
		p := prov + "/" + s + ExtTranscript
		if u, ok := d.written[nameKey(p)]; ok {
			return u, true
		}
		if d.ix != nil {
			if u, s := d.ix.OwnerSession(p); u != "" && u != key && (s == "" || s != session || !slices.Contains(members, u)) {
				return u, true
			}
		}
		return "", false
	}
	first, ok := taken(stem)
	if !ok {
		return stem
	}
	cands := []string{stem + "~" + shortHash(unit), stem + "~" + shortHash(unit, session)}
	for i := 2; ; i++ {
		var c string
		if len(cands) > 0 {
			c, cands = cands[0], cands[1:]
		} else {
			c = stem + "~" + shortHash(unit, session, strconv.Itoa(i))
		}
		if _, ok := taken(c); !ok {
			if d.Warn != nil {
				d.Warn(fmt.Sprintf("%s holds a session of %s; the session of that name in %s is written as %s", path.Join(prov, stem+ExtTranscript), printable(first), printable(unit), path.Join(prov, c+ExtTranscript)))
			}
			return c
		}
	}
}

// printable is s, quoted when it holds characters a terminal would act on
// (a path read from events can hold anything).
func printable(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// write hands name (relative to DIR) and what fills it to the writers,
// which write it through a temporary file and a rename; the unit's record
// notes it. What fill reads (the session's transcript and events) must not
// change until the file is written.
func (d *Dir) write(name string, fill func(io.Writer) error) error {
	if !filepath.IsLocal(name) || strings.Count(name, "/") != 1 {
		return fmt.Errorf("%s: refused: not a file of a provider folder of %s", name, d.path)
	}
	j := &fileJob{name: name, tmp: d.tempName(name), session: d.session, fill: fill, done: make(chan struct{})}
	if dir, file := path.Split(name); d.subs[strings.TrimSuffix(dir, "/")] != nil {
		j.in, j.base, j.tmpBase = d.subs[strings.TrimSuffix(dir, "/")], file, path.Base(j.tmp)
	}
	d.cur.jobs = append(d.cur.jobs, j)
	d.chain = append(d.chain, j)
	return nil
}

// writer writes the files handed to it.
func (d *Dir) writer() {
	defer d.writers.Done()
	for first := range d.work {
		for _, j := range append([]*fileJob{first}, first.after...) {
			d.writeFile(j)
		}
		first.after = nil
	}
}

// writeFile writes the file of j into place and closes j.done.
func (d *Dir) writeFile(j *fileJob) {
	sum := newSum()
	root, name, tmp := d.root, j.name, j.tmp
	if j.in != nil { // a path of one name: no folder walked for each file
		root, name, tmp = j.in, j.base, j.tmpBase
	}
	n, err := writeAtomic(root, name, tmp, func(w io.Writer) error { return j.fill(io.MultiWriter(w, sum)) })
	if err != nil {
		j.err = fmt.Errorf("%s: %w", filepath.Join(d.path, j.name), unwrapPath(err))
	} else {
		j.file = IndexFile{Path: j.name, Size: n, Sum: hex.EncodeToString(sum.Sum(nil)), Session: j.session}
	}
	j.fill = nil
	close(j.done)
}

// tempName is the name of a temporary file for name: hidden, tagged with
// the run, unique within it.
func (d *Dir) tempName(name string) string {
	dir, file := path.Split(name)
	return fmt.Sprintf("%s.%s.tmp-%s-%d", dir, file, d.run, d.seq.Add(1))
}

// unwrapPath drops the path an *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// fileBuffers are the write buffers of writeAtomic, reused from one file
// to the next.
var fileBuffers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 256<<10) }}

// writeAtomic writes to tmp in root what fill writes, then renames it to
// name, so that readers and a killed run see the whole file or the previous
// one, never a part. The file is created with mode 0666 less the umask. It
// does not sync: a power cut may lose the last files written (a re-run
// writes them again). On any error the temporary file is removed. It
// returns the size written.
func writeAtomic(root *os.Root, name, tmp string, fill func(io.Writer) error) (n int64, err error) {
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			f.Close()
			root.Remove(tmp)
		}
	}()
	cw := &countWriter{w: f}
	bw := fileBuffers.Get().(*bufio.Writer)
	bw.Reset(cw)
	defer func() { bw.Reset(nil); fileBuffers.Put(bw) }()
	if err = fill(bw); err != nil {
		return 0, err
	}
	if err = bw.Flush(); err != nil {
		return 0, err
	}
	if err = f.Close(); err != nil {
		return 0, err
	}
	return cw.n, root.Rename(tmp, name)
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// bytesOf is a fill function that writes b.
func bytesOf(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}
}
