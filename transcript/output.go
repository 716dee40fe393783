package transcript

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agt-project/agt"
	"github.com/bytedance/sonic/encoder"
)

// Stream log modes.
const (
	LogOff     = "false"
	LogRaw     = "raw"
	LogSummary = "summary"
)

const encodeOpts = encoder.NoValidateJSONMarshaler | encoder.SortMapKeys | encoder.EncodeNullForInfOrNan

// AppendJSON appends v as one JSON line.
func AppendJSON(buf []byte, v any) []byte {
	if err := encoder.EncodeInto(&buf, v, encodeOpts); err != nil {
		panic(fmt.Sprintf("encoding: %v", err))
	}
	return append(buf, '\n')
}

// AppendEvent appends an event as one JSON line, as the filters write it.
func AppendEvent(buf []byte, ev *agt.Event) []byte {
	if ev.Orig != nil {
		return append(append(buf, ev.Orig...), '\n')
	}
	return AppendJSON(buf, ev)
}

// FileName makes a session id safe as a file name: path separators, dots at
// the start, control characters and characters reserved on common file
// systems become "_"; an empty or over-long id is replaced by a stable one.
func FileName(native, session string) string {
	var b strings.Builder
	for i, r := range native {
		switch {
		case r < 0x20 || r == 0x7f || strings.ContainsRune(`/\:*?"<>|`, r):
			b.WriteByte('_')
		case r == '.' && i == 0:
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" || len(s) > 200 {
		return session
	}
	return s
}

// Dir writes each session to DIR/<provider>/<session>.transcript.jsonl, and
// its stream log beside it, each through a temporary file renamed into
// place, so that a killed run never leaves a partial file.
type Dir struct {
	Root      string
	StreamLog string // LogOff, LogRaw or LogSummary
	// Written is called with the files of each session written.
	Written func(unit string, files []string)
}

// Flush writes one session.
func (d *Dir) Flush(unit string, t *Transcript, events []agt.Event) error {
	dir := filepath.Join(d.Root, FileName(t.Provider, t.Provider))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(dir, FileName(t.NativeSession, t.Session))
	files := []string{base + ".transcript.jsonl"}
	if err := WriteFileAtomic(files[0], AppendJSON(nil, t)); err != nil {
		return err
	}
	var log []byte
	switch d.StreamLog {
	case LogRaw:
		files = append(files, base+".stream.jsonl")
		for i := range events {
			log = AppendEvent(log, &events[i])
		}
	case LogSummary:
		files = append(files, base+".stream.log")
		var buf bytes.Buffer
		s := NewSummary(&buf, false)
		for i := range events {
			s.Event(&events[i])
		}
		s.Flush()
		log = buf.Bytes()
	}
	if len(files) > 1 {
		if err := WriteFileAtomic(files[1], log); err != nil {
			return err
		}
	}
	if d.Written != nil {
		d.Written(unit, files)
	}
	return nil
}

// WriteFileAtomic writes data to a temporary file in path's folder and
// renames it to path, so that readers and a killed run see the whole file or
// the previous one, never a part. It does not sync: a power cut may lose
// the last files written (a re-run writes them again). On any error the
// temporary file is removed.
func WriteFileAtomic(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// Lines writes each transcript as a line to w.
func Lines(w io.Writer) Flush {
	var buf []byte
	return func(_ string, t *Transcript, _ []agt.Event) error {
		buf = AppendJSON(buf[:0], t)
		_, err := w.Write(buf)
		return err
	}
}
