package cline

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/docscan"
	"github.com/agt-project/agt/stage"
)

// taskFiles are the files of a task folder that are read, in the order
// they are read, with the member of a task line that carries their
// records. The arrays are read element by element.
var taskFiles = []struct{ name, member string }{
	{"ui_messages.json", "ui"},
	{"api_conversation_history.json", "api"},
	{"history_item.json", "item"},
	{"task_metadata.json", "metadata"},
}

// readOrder is the order the files are read in: Roo Code's history item
// first (it names the working folder and the parent task), the metadata
// (it names the models of the requests), then the panel's records and the
// API history.
var readOrder = []int{2, 3, 0, 1}

// extensions are the global storage folders of the extensions that write
// task folders (tasks/<id>/ under them), by the extension's id, with the
// format of their tasks. Cursor, VSCodium and Windsurf keep the same ids.
var extensions = map[string]string{
	"saoudrizwan.claude-dev":     FormatTask,
	"rooveterinaryinc.roo-cline": FormatRooTask,
	"kilocode.kilo-code":         FormatKiloTask,
}

// taskLine is one record of a task folder as the parser reads it: the
// task (the folder's name), the extension that wrote it (the id of the
// global storage folder holding tasks/, "" when the folder is elsewhere),
// the file (its name in the folder) and the JSON pointer of the record, and the record under the
// member of its file. Bad holds a file (or the tail of an array) that is
// not JSON, as text.
type taskLine struct {
	Task      string  `json:"cline_task"`
	Extension string  `json:"extension,omitempty"`
	File      string  `json:"file"`
	Ptr       string  `json:"ptr,omitempty"`
	UI        agt.Raw `json:"ui,omitempty"`
	API       agt.Raw `json:"api,omitempty"`
	Metadata  agt.Raw `json:"metadata,omitempty"`
	Item      agt.Raw `json:"item,omitempty"`
	Bad       string  `json:"bad,omitempty"`
	// More is the text of the command_output records that follow this
	// one (a command's output comes in pieces, one record each), which
	// are marked Cont: the output is one result of the command.
	More string `json:"more,omitempty"`
	Cont bool   `json:"cont,omitempty"`
	// Beside tells that the folder has a ui_messages.json this input does
	// not read (its API history was named alone): the panel's records are
	// the conversation, the API messages meta events.
	Beside bool `json:"ui_beside,omitempty"`
}

// isTask tells whether dir is a task folder: it holds ui_messages.json or
// api_conversation_history.json, and the first of them holds a JSON array.
func isTask(dir string) bool {
	for _, f := range taskFiles[:2] {
		fh, err := os.Open(filepath.Join(dir, f.name))
		if err != nil {
			continue
		}
		var b [64]byte
		n, _ := io.ReadFull(fh, b[:])
		fh.Close()
		t := bytes.TrimLeft(b[:n], " \t\r\n\ufeff")
		return len(t) > 0 && t[0] == '['
	}
	return false
}

// extension is the id of the extension whose global storage holds the
// task folder dir (…/<id>/tasks/<task>), "" when its place is not one.
func extension(dir string) string {
	parent := filepath.Dir(dir)
	if filepath.Base(parent) != "tasks" {
		return ""
	}
	id := filepath.Base(filepath.Dir(parent))
	if extensions[id] == "" {
		return ""
	}
	return id
}

// Claim makes a task folder of the VS Code extension (or of Roo Code or
// Kilo Code) one input. A file of it named alone is read with the files
// that say what its records are: ui_messages.json with the history item
// and the metadata; api_conversation_history.json alone, as the meta
// events it gives in the folder, when ui_messages.json is beside it, else
// as the whole folder. Naming both files reads each record once.
func (Provider) Claim(path string, isDir bool) (stage.Input, bool) {
	files, beside := readOrder, false
	if !isDir {
		dir := filepath.Dir(path)
		switch filepath.Base(path) {
		case "ui_messages.json":
			files = []int{2, 3, 0}
		case "api_conversation_history.json":
			if _, err := os.Stat(filepath.Join(dir, "ui_messages.json")); err == nil {
				files, beside = []int{1}, true
			}
		default:
			return stage.Input{}, false
		}
		path = dir
	}
	if !isTask(path) {
		return stage.Input{}, false
	}
	return stage.Input{Path: path, Open: func() (io.ReadCloser, error) { return openTask(path, files, beside) }}, true
}

// openTask streams the records of a task folder as task lines: the
// history_item.json of Roo Code and Kilo Code and task_metadata.json
// whole, the elements of ui_messages.json, then those of
// api_conversation_history.json.
func openTask(dir string, files []int, beside bool) (io.ReadCloser, error) {
	task, ext := filepath.Base(dir), extension(dir)
	pr, pw := io.Pipe()
	go func() {
		for _, i := range files {
			f := taskFiles[i]
			path := filepath.Join(dir, f.name)
			b, err := os.ReadFile(path)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			for _, l := range taskLines(b, f.member) {
				l.Task, l.Extension, l.File, l.Beside = task, ext, f.name, beside
				if _, err := pw.Write(append(agt.Marshal(l), '\n')); err != nil {
					return
				}
			}
		}
		pw.Close()
	}()
	return pr, nil
}

// taskLines cuts one file of a task into lines: an array's elements (with
// their pointers), an object whole, and what is not JSON (a file or an
// array's tail cut short) as a bad line.
func taskLines(b []byte, member string) []taskLine {
	b = bytes.TrimLeft(b, " \t\r\n\ufeff")
	put := func(l *taskLine, v agt.Raw) {
		switch member {
		case "ui":
			l.UI = v
		case "api":
			l.API = v
		case "metadata":
			l.Metadata = v
		default:
			l.Item = v
		}
	}
	if len(b) > 0 && b[0] == '[' {
		var out []taskLine
		s := docscan.New(b)
		end := 1 // where the last complete element ends
		err := s.Elements(func(n int) error {
			v, err := s.Value()
			if err == nil {
				end = s.Pos()
				l := taskLine{Ptr: docscan.Index("", n)}
				put(&l, agt.Compact(v))
				out = append(out, l)
			}
			return err
		})
		if member == "ui" {
			joinOutput(out)
		}
		if err != nil {
			rest := strings.TrimLeft(string(b[end:]), " \t\r\n,")
			if rest == "" {
				rest = "(the end of the file)"
			}
			out = append(out, taskLine{Ptr: docscan.Index("", len(out)), Bad: agt.ValidText(rest)})
		}
		return out
	}
	v := bytes.TrimSpace(b)
	if !agt.Valid(v) {
		return []taskLine{{Bad: agt.ValidText(string(v))}}
	}
	l := taskLine{}
	put(&l, agt.Compact(v))
	return []taskLine{l}
}

// joinOutput gives the first of each run of command_output records the
// text of the others (More) and marks them (Cont).
func joinOutput(lines []taskLine) {
	first := -1
	for i := range lines {
		var m struct {
			Say  string `json:"say"`
			Ask  string `json:"ask"`
			Text string `json:"text"`
		}
		if agt.API.Unmarshal(lines[i].UI, &m) != nil || m.Say+m.Ask != "command_output" {
			first = -1
			continue
		}
		if first < 0 {
			first = i
			continue
		}
		lines[first].More += m.Text
		lines[i].Cont = true
	}
}
