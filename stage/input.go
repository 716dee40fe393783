package stage

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Input is one stream of input: a file, stdin, or later an archive member.
// Path is what events name in src.path.
type Input struct {
	Path string
	Open func() (io.ReadCloser, error)
	// Walk is the argument (a folder or an archive) the input was found
	// in; "" for an input named on the command line. A walked input no
	// provider recognises is left out with a count, not reported alone.
	Walk string
	// Size is the size of an archive member as its archive records it (0
	// when unknown or compressed); files named or walked are not stat'ed.
	Size int64
	// File tells that the input is a file on disk read as it is (not
	// stdin, an archive member, a decompressed file or a store a provider
	// claimed): one that can be followed as it grows.
	File bool
	// Store tells an agent's database a provider claimed inside an
	// archive (see stores): read as claimed, though its name is a Store's.
	Store bool
}

// StdinPath is the src.path of standard input.
const StdinPath = "-"

// WalkExts are the file endings read when a folder is walked (the
// providers' document endings added, see AddEndings); files named on the
// command line are read whatever their ending.
var WalkExts = []string{".jsonl", ".ndjson", ".json"}

// DocExts are the walked endings that documents share with logs (an Aider
// chat history is Markdown, and so are the README and notes files of a log
// tree): a walked file of such an ending that no provider recognises is
// left out silently, not counted among the skipped files. Which provider
// reads a file is told by its content only. The providers declare them
// (see AddEndings).
var DocExts []string

// StoreExts are the endings of the databases agents keep their sessions in
// (".db"), which the providers declare (see AddEndings): a walk asks the
// claim about such a file, an archive's copies are spooled to be claimed
// (see stores), and none is followed.
var StoreExts []string

// AddEndings adds a provider's document and database endings to DocExts
// (and WalkExts) and StoreExts, each once. The provider registry calls it
// while the program starts.
func AddEndings(docs, stores []string) {
	for _, e := range docs {
		if !slices.Contains(DocExts, e) {
			DocExts = append(DocExts, e)
			WalkExts = append(WalkExts, e)
		}
	}
	for _, e := range stores {
		if !slices.Contains(StoreExts, e) {
			StoreExts = append(StoreExts, e)
		}
	}
}

// Store tells whether p names an agent's database (StoreExts).
func Store(p string) bool {
	for _, e := range StoreExts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// Document tells whether a walked file at p may be a document (DocExts).
func Document(p string) bool {
	for _, e := range DocExts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// Expand turns command-line arguments into inputs: "-" (or no argument) is
// stdin, a folder is walked recursively in lexical order (links to folders are
// not followed, so a link loop cannot trap the walk), an archive (tar or
// zip) gives its members, a compressed file (gzip, zstd, xz, bzip2) its
// decompressed stream, anything else is a file. Files named and stdin are
// recognised by their first bytes, whatever their name; walked files by
// their ending (.tar.gz, .zip, .jsonl.zst, …: see suffixKinds).
// Problems (a missing path, an unreadable folder, a refused archive member)
// are returned beside the inputs that could be found, so that the run goes
// on; a *Refused error is a warning, the others are I/O failures.
//
// claim, when not nil, is asked first about every argument and every folder
// met in a walk (and walked files of a StoreExts ending): a provider whose
// sessions live in a folder or a database turns it into one input. A
// walked database no provider claims is an input like a walked log (the
// parse pipeline counts it among the files no provider recognises).
//
// Nothing is read here but folders and archive indexes: a file that is not
// a regular file (a pipe, /dev/fd/N) is opened once, by the reader of its
// input. A tar or zip archive named must be a regular file (it is read
// twice: once for its index, then for its members); one on stdin is copied
// to a temporary file first (see stdinInputs).
//
// The same path given twice is read twice, as cat does.
func Expand(args []string, stdin io.Reader, claim Claim) ([]Input, []error) {
	if claim == nil {
		claim = func(string, bool) (Input, bool) { return Input{}, false }
	}
	if len(args) == 0 {
		args = []string{StdinPath}
	}
	var ins, std []Input
	var errs, stdErrs []error
	for _, a := range args {
		if a == StdinPath {
			if std == nil {
				std, stdErrs = stdinInputs(stdin, claim)
				errs = append(errs, stdErrs...)
			}
			ins = append(ins, std...)
			continue
		}
		in, e := expandArg(a, claim)
		ins, errs = append(ins, in...), append(errs, e...)
	}
	return ins, errs
}

// expandArg is the inputs of the argument a, a path: one the claim takes,
// a file or an archive's members, or the files of a folder walked.
func expandArg(a string, claim Claim) ([]Input, []error) {
	st, err := os.Stat(a)
	if err != nil {
		return nil, []error{err}
	}
	if in, ok := claim(a, st.IsDir()); ok {
		return []Input{in}, nil
	}
	if !st.IsDir() {
		k := sniffFile(a, st)
		in, e := kindInputs(a, k, claim)
		if k.archive() {
			for i := range in {
				in[i].Walk = a // an archive is walked like a folder
			}
		}
		return in, e
	}
	w := &walk{arg: a, root: walkRoot(a), claim: claim}
	if err := filepath.WalkDir(w.root, w.visit); err != nil {
		w.errs = append(w.errs, fmt.Errorf("%s: %w", a, err))
	}
	return w.ins, w.errs
}

// walk is the walk of a folder argument: the inputs and problems met.
type walk struct {
	arg, root string
	claim     Claim
	ins       []Input
	errs      []error
}

// visit is the walk's fs.WalkDirFunc.
func (w *walk) visit(p string, d fs.DirEntry, err error) error {
	if err != nil {
		w.errs = append(w.errs, err)
		if d != nil && d.IsDir() {
			return fs.SkipDir
		}
		return nil
	}
	if d.IsDir() && p != w.root || !d.IsDir() && Store(p) {
		if in, ok := w.claim(p, d.IsDir()); ok {
			w.ins = append(w.ins, in)
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
	}
	if d.IsDir() || !(walkable(p) || archiveOf(p) != notArchive || Store(p)) {
		return nil
	}
	if !regularFile(p, d) {
		return nil
	}
	in, e := fileInputs(p, w.claim)
	for i := range in {
		in[i].Walk = w.arg
	}
	w.ins, w.errs = append(w.ins, in...), append(w.errs, e...)
	return nil
}

// walkRoot is the root to walk for folder a: a link to a folder (a dotfiles
// setup links ~/.claude/projects elsewhere) is walked as the folder, with
// a trailing separator, which filepath.WalkDir follows; links below it are
// not followed.
func walkRoot(a string) string {
	if st, err := os.Lstat(a); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return a + string(filepath.Separator)
	}
	return a
}

// fileInputs is the input of a walked file, or the members of an
// archive, known by the file's name.
func fileInputs(p string, claim Claim) ([]Input, []error) {
	return kindInputs(p, archiveOf(p), claim)
}

// kindInputs is the input of a file of kind k, or its members (claim
// is asked about the agent databases an archive holds).
func kindInputs(p string, k kind, claim Claim) ([]Input, []error) {
	if k != notArchive {
		return archiveInputs(p, k, claim)
	}
	return []Input{FileInput(p)}, nil
}

// Claim turns a path that holds sessions in a layout of its own into one
// input, or declines.
type Claim func(path string, isDir bool) (Input, bool)

// FileInput is the input of the file at path.
func FileInput(path string) Input {
	return Input{Path: path, Open: func() (io.ReadCloser, error) { return os.Open(path) }, File: true}
}

// regularFile tells whether the walked entry d at p is a regular file, or
// a link to one (links to folders are not followed).
func regularFile(p string, d fs.DirEntry) bool {
	if d.Type()&fs.ModeSymlink != 0 {
		st, err := os.Stat(p)
		return err == nil && st.Mode().IsRegular()
	}
	return d.Type().IsRegular()
}

func walkable(p string) bool {
	for _, e := range WalkExts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// stdinReader is standard input, which a run does not close. It is a stream
// unless it is a regular file (`agt-parse < file`).
// src is standard input itself, Reader what is read of it (its first bytes
// were read to know it).
type stdinReader struct {
	io.Reader
	src io.Reader
}

func (stdinReader) Close() error { return nil }

// Drains tells whether the stream is read to its end after a first
// interrupt (see WithDrainStop): a pipe or a socket, which another process
// writes, not a terminal, where the interrupt is the person's own.
func (s stdinReader) Drains() bool {
	if f, ok := s.src.(*os.File); ok {
		st, err := f.Stat()
		return err == nil && !st.Mode().IsRegular() && st.Mode()&os.ModeCharDevice == 0
	}
	return true
}

func (s stdinReader) Stream() bool {
	if f, ok := s.src.(*os.File); ok {
		return IsStream(f)
	}
	return true
}
