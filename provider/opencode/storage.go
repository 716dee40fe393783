package opencode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agt-project/agt"
)

// OpenCode keeps its sessions either as JSON files (releases up to 1.1.x):
//
//	storage/session/<projectID>/<sessionID>.json   Session.Info
//	storage/message/<sessionID>/<messageID>.json   Message info
//	storage/part/<messageID>/<partID>.json         Part
//
// or in the SQLite database opencode.db (1.2.0 on; see db.go). Both hold the
// objects `opencode export` prints, so each stored session is turned into an
// export document and read by the export parser.

// Stored is one session read from a storage folder or a database, as an
// export document.
type Stored struct {
	ID      string   // the session id, ses_…
	Path    string   // where it was read: the session's file, or the database
	Doc     []byte   // {"info":…,"messages":[{"info":…,"parts":[…]},…]}, compact, on one line
	Records []Record // where each record of Doc was read, in document order
}

// Record says where one record of a Stored document was read.
type Record struct {
	Ptr string  // the record's JSON pointer in Doc: /info, /messages/N/info, /messages/N/parts/M
	Src agt.Src // its file, or {database, "/<table>/<id>"}
	Err string  // why it could not be read; the record in Doc is then a JSON string of its text
}

// srcKey is the member of a document that carries its Records (see Line).
const srcKey = "agt.src"

// srcEntry is a Record as Line writes it.
type srcEntry struct {
	Path string `json:"path"`
	Ptr  string `json:"ptr,omitempty"`
	Err  string `json:"error,omitempty"`
}

// Line returns the input the parse pipeline reads for s: Doc with its
// Records in an extra "agt.src" member, on one line, so that each event's
// src names the file or database row it came from. The export parser reads
// it as an export document.
func (s *Stored) Line() []byte {
	m := make(map[string]srcEntry, len(s.Records))
	for _, r := range s.Records {
		m[r.Ptr] = srcEntry{Path: r.Src.Path, Ptr: r.Src.Ptr, Err: r.Err}
	}
	src := agt.Marshal(m)
	if len(s.Doc) < 2 || len(src) == 0 {
		return s.Doc
	}
	out := make([]byte, 0, len(s.Doc)+len(src)+len(srcKey)+4)
	out = append(out, s.Doc[:len(s.Doc)-1]...)
	if len(s.Doc) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"`+srcKey+`":`...)
	out = append(out, src...)
	return append(out, '}')
}

// docBuilder writes a Stored document record by record. A session larger
// than chunkBytes is handed on in parts, each a document of whole messages
// (the first with the session's info, the others with its messages alone,
// as a session without its file is written): the export parser reads each
// part as the same session, so a session of any size is read with the
// memory of one part, never past --max-line.
type docBuilder struct {
	s        Stored
	b        bytes.Buffer
	messages int
	parts    int
	inMsg    bool
	emit     func(Stored) error
}

// chunkBytes is the size past which a session's document is handed on
// before its next message.
var chunkBytes = 1 << 20

func newDoc(id, path string, emit func(Stored) error) *docBuilder {
	d := &docBuilder{s: Stored{ID: id, Path: path}, emit: emit}
	d.b.WriteByte('{')
	return d
}

// record writes one record; a record that is not JSON is kept as a JSON
// string of its text, with the reason in its Record.
func (d *docBuilder) record(ptr string, raw []byte, src agt.Src, readErr error) {
	r := Record{Ptr: ptr, Src: src}
	switch {
	case readErr != nil:
		r.Err = "unreadable: " + readErr.Error()
	case !agt.Valid(raw):
		var v struct{}
		if err := agt.Decode(raw, &v); err != nil {
			r.Err = err.Error()
		} else {
			r.Err = "not JSON"
		}
	}
	if r.Err != "" {
		raw = agt.Marshal(agt.ValidText(string(raw)))
	} else {
		raw = agt.Compact(raw)
	}
	d.b.Write(raw)
	d.s.Records = append(d.s.Records, r)
}

func (d *docBuilder) info(raw []byte, src agt.Src, err error) {
	d.b.WriteString(`"info":`)
	d.record("/info", raw, src, err)
}

// message starts a message; the document so far is handed on first when
// it has grown past chunkBytes.
func (d *docBuilder) message(raw []byte, src agt.Src, err error) error {
	d.endMessage()
	if d.messages > 0 && d.b.Len() >= chunkBytes {
		if err := d.close(); err != nil {
			return err
		}
		*d = docBuilder{s: Stored{ID: d.s.ID, Path: d.s.Path}, emit: d.emit}
		d.b.WriteByte('{')
	}
	if d.messages == 0 {
		if d.b.Len() > 1 {
			d.b.WriteByte(',')
		}
		d.b.WriteString(`"messages":[`)
	} else {
		d.b.WriteByte(',')
	}
	ptr := fmt.Sprintf("/messages/%d", d.messages)
	d.messages++
	d.b.WriteString(`{"info":`)
	d.record(ptr+"/info", raw, src, err)
	d.b.WriteString(`,"parts":[`)
	d.inMsg, d.parts = true, 0
	return nil
}

func (d *docBuilder) part(raw []byte, src agt.Src, err error) {
	if d.parts > 0 {
		d.b.WriteByte(',')
	}
	d.record(fmt.Sprintf("/messages/%d/parts/%d", d.messages-1, d.parts), raw, src, err)
	d.parts++
}

func (d *docBuilder) endMessage() {
	if d.inMsg {
		d.b.WriteString("]}")
		d.inMsg = false
	}
}

func (d *docBuilder) done() Stored {
	d.endMessage()
	if d.messages > 0 {
		d.b.WriteByte(']')
	} else {
		if d.b.Len() > 1 {
			d.b.WriteByte(',')
		}
		d.b.WriteString(`"messages":[]`)
	}
	d.b.WriteByte('}')
	d.s.Doc = d.b.Bytes()
	return d.s
}

// close hands on the document.
func (d *docBuilder) close() error { return d.emit(d.done()) }

// StorageRoot returns the storage folder of dir: dir itself when it holds
// session/ and message/, or dir/storage (OpenCode's data folder); "" when
// dir is neither. A folder named storage with message/ but no session/ (a
// copy of the messages alone) is one too: its sessions are the message
// folders.
func StorageRoot(dir string) string {
	for _, root := range []string{filepath.Join(dir, "storage"), dir} {
		if !isDir(filepath.Join(root, "message")) {
			continue
		}
		if isDir(filepath.Join(root, "session")) || filepath.Base(filepath.Clean(root)) == "storage" {
			return root
		}
	}
	return ""
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// WalkStorage reads every session of an OpenCode storage folder (dir is
// the folder holding storage/, or storage/ itself), one at a time:
// messages and parts in OpenCode's order, that of their ids. Problems that
// belong to no record (an unreadable folder, parts of no known message)
// are returned. An error from fn ends the walk and is returned last.
func WalkStorage(dir string, fn func(Stored) error) []error {
	root := StorageRoot(dir)
	if root == "" {
		return []error{fmt.Errorf("%s: not an OpenCode storage folder (no storage/session and storage/message)", dir)}
	}
	var errs []error
	list := func(d string) []string {
		ents, err := os.ReadDir(d)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
			return nil
		}
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		return names
	}
	jsonIDs := func(d string) []string {
		var ids []string
		for _, n := range list(d) {
			if id, ok := strings.CutSuffix(n, ".json"); ok {
				ids = append(ids, id)
			}
		}
		return ids
	}

	// Sessions: their files, by project and id, then message folders of
	// sessions without a file.
	type sess struct{ id, file string }
	var sessions []sess
	seen := map[string]bool{}
	for _, proj := range list(filepath.Join(root, "session")) {
		for _, id := range jsonIDs(filepath.Join(root, "session", proj)) {
			if !seen[id] {
				seen[id] = true
				sessions = append(sessions, sess{id, filepath.Join(root, "session", proj, id+".json")})
			}
		}
	}
	for _, id := range list(filepath.Join(root, "message")) {
		if !seen[id] && isDir(filepath.Join(root, "message", id)) {
			seen[id] = true
			sessions = append(sessions, sess{id: id})
		}
	}

	used := map[string]bool{}
	for _, s := range sessions {
		msgDir := filepath.Join(root, "message", s.id)
		path := s.file
		if path == "" {
			path = msgDir
		}
		d := newDoc(s.id, path, fn)
		if s.file != "" {
			b, err := os.ReadFile(s.file)
			d.info(b, agt.Src{Path: s.file}, err)
		}
		for _, mid := range jsonIDs(msgDir) {
			f := filepath.Join(msgDir, mid+".json")
			b, err := os.ReadFile(f)
			if err := d.message(b, agt.Src{Path: f}, err); err != nil {
				return append(errs, err)
			}
			used[mid] = true
			partDir := filepath.Join(root, "part", mid)
			for _, pid := range jsonIDs(partDir) {
				f := filepath.Join(partDir, pid+".json")
				b, err := os.ReadFile(f)
				d.part(b, agt.Src{Path: f}, err)
			}
		}
		if err := d.close(); err != nil {
			return append(errs, err)
		}
	}
	for _, mid := range list(filepath.Join(root, "part")) {
		if !used[mid] {
			errs = append(errs, fmt.Errorf("%s: parts of no message found in %s", filepath.Join(root, "part", mid), filepath.Join(root, "message")))
		}
	}
	return errs
}

// IsStored reports whether path is an OpenCode storage folder (or the data
// folder holding storage/) or an OpenCode database file (a SQLite database
// with OpenCode's tables). Only regular files are looked into: reading the
// head of a pipe (/dev/fd/N, a FIFO) would take it from its reader.
func IsStored(path string) bool {
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	if st.IsDir() {
		return StorageRoot(path) != ""
	}
	if !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	head := make([]byte, len(DBMagic))
	n, _ := io.ReadFull(f, head)
	f.Close()
	return IsDB(head[:n]) && isOpenCodeDB(path)
}

// OpenStored returns the sessions of the storage folder or database at path
// as the parse pipeline reads them: one export document per line
// (Stored.Line), in order. Problems that belong to no record end the stream
// as a read error after the last session.
func OpenStored(path string) (io.ReadCloser, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() && StorageRoot(path) == "" {
		return nil, fmt.Errorf("%s: not an OpenCode storage folder", path)
	}
	pr, pw := io.Pipe()
	write := func(s Stored) error {
		_, err := pw.Write(append(s.Line(), '\n'))
		return err
	}
	go func() {
		var err error
		if st.IsDir() {
			err = errors.Join(WalkStorage(path, write)...)
		} else {
			err = WalkDB(path, write)
		}
		pw.CloseWithError(err)
	}()
	return pr, nil
}
