package html

import (
	"bufio"
	"bytes"
	"encoding/json"
	"html/template"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/transcript"
)

// IndexName is the index page of an output folder.
const IndexName = "index.html"

// Row is a session's line in the index page. Each page carries its own
// row (a comment at its top), so that the index of a folder is rebuilt
// from its pages alone.
type Row struct {
	Page      string  `json:"page,omitempty"` // relative to the folder
	Session   string  `json:"session"`
	Agent     string  `json:"agent"`
	Project   string  `json:"project,omitempty"`
	Started   string  `json:"started,omitempty"`
	Title     string  `json:"title"`
	Messages  int     `json:"messages"`
	ToolCalls int     `json:"tool_calls"`
	Tokens    int64   `json:"tokens"`
	Cost      float64 `json:"cost,omitempty"`
	HasCost   bool    `json:"has_cost,omitempty"`
	Outcome   string  `json:"outcome"`
}

// maxTitle is the most of a title or first prompt a row holds (runes).
const maxTitle = 160

// RowOf is the index row of a session whose page is page.
func RowOf(t *transcript.Transcript, page string) Row {
	r := Row{Page: page, Session: clean(t.Session), Agent: clean(export.Agent(t.Provider)), Project: clean(t.Cwd), Started: clean(t.StartedAt),
		Messages: t.Counts.Messages, ToolCalls: t.Counts.ToolCalls, Tokens: t.Usage.Total, Outcome: clean(t.Outcome.Status)}
	if t.CostUSD != nil {
		r.Cost, r.HasCost = *t.CostUSD, true
	}
	title := t.Title
	// else the first prompt; else the first slash command
	for _, kind := range []string{"", transcript.KindCommand} {
		for i := range t.Messages {
			if title != "" {
				break
			}
			if m := &t.Messages[i]; m.Role == transcript.RoleUser && m.Kind == kind && !m.Text.IsNull() {
				title = export.Text(m.Text)
			}
		}
	}
	title = strings.Join(strings.Fields(clean(title)), " ")
	if rs := []rune(title); len(rs) > maxTitle {
		title = string(rs[:maxTitle-1]) + "…"
	}
	if title == "" {
		title = r.Session
	}
	r.Title = title
	return r
}

// rowMark starts the comment that holds a page's row.
var rowMark = []byte("<!-- agt-row ")

// ReadRow reads the row a page carries, from the first lines of the page.
func ReadRow(r io.Reader) (Row, bool) {
	br := bufio.NewReaderSize(r, 4096)
	for range 4 {
		l, err := br.ReadSlice('\n')
		if i := bytes.Index(l, rowMark); i >= 0 {
			j := bytes.LastIndex(l, []byte(" -->"))
			var row Row
			if j > i && json.Unmarshal(l[i+len(rowMark):j], &row) == nil {
				return row, true
			}
			return Row{}, false
		}
		if err != nil && err != bufio.ErrBufferFull {
			return Row{}, false
		}
	}
	return Row{}, false
}

var index = template.Must(template.New("index").Funcs(funcs).Parse(indexTmpl))

type indexView struct {
	CSP    string
	Style  template.CSS
	Script template.JS
	Rows   []Row
	Total  Row
}

// WriteIndex writes the index page of rows (sorted newest first).
func WriteIndex(w io.Writer, rows []Row) error {
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b Row) int {
		if c := strings.Compare(b.Started, a.Started); c != 0 {
			return c
		}
		return strings.Compare(a.Page, b.Page)
	})
	v := indexView{CSP: csp(indexJS), Style: template.CSS(style), Script: template.JS(indexJS), Rows: rows}
	for _, r := range rows {
		v.Total.Messages += r.Messages
		v.Total.ToolCalls += r.ToolCalls
		v.Total.Tokens += r.Tokens
		v.Total.Cost += r.Cost
		v.Total.HasCost = v.Total.HasCost || r.HasCost
	}
	return index.Execute(w, v)
}

// Pages are the session pages an output folder's index records, by their
// path relative to the folder.
func Pages(ix *transcript.Index) []string {
	var out []string
	for _, e := range ix.Units {
		for _, f := range e.Files {
			if strings.HasSuffix(f.Path, Ext) {
				out = append(out, f.Path)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// WriteIndexDir writes root/index.html from the pages pages (relative to
// root), each read for the row it carries; a page that is gone or carries
// none is left out. It writes through a temporary file and a rename.
func WriteIndexDir(root string, pages []string) error {
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	rows := make([]Row, 0, len(pages))
	for _, p := range pages {
		f, err := r.Open(p)
		if err != nil {
			continue
		}
		row, ok := ReadRow(f)
		f.Close()
		if ok {
			row.Page = path.Clean(p)
			rows = append(rows, row)
		}
	}
	tmp := "." + IndexName + ".tmp-" + transcript.RunTag()
	f, err := r.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	err = WriteIndex(w, rows)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmp, IndexName)
	}
	if err != nil {
		r.Remove(tmp)
	}
	return err
}
