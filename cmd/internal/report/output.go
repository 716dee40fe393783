package report

import (
	"bufio"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agt-project/agt"
)

// column is one column of the table and of the TSV.
type column struct {
	head, name string // the table's heading, the TSV's and JSON's name
	key        int    // the index of a view's key, or -1 for a figure
	value      func(r *Row) string
	drop       int // the order in which a narrow table drops it (1 first); 0: never
}

// heads are the table headings of the views.
var heads = map[string]string{Day: "Day", Week: "Week", Month: "Month", Session: "Session", Model: "Model",
	Provider: "Provider", Project: "Project", Block: "Block", Turn: "Turn"}

// figures are the columns of the figures, in their order. A narrow table
// drops native cost first, then calls, sessions, reasoning, cache write,
// cache read, input and output; the keys, the total and the cost stay.
var figures = []column{
	{head: "Input", name: "input", drop: 7, value: count(func(f *Figures) int64 { return f.Input })},
	{head: "Output", name: "output", drop: 8, value: count(func(f *Figures) int64 { return f.Output })},
	{head: "Cache read", name: "cache_read", drop: 6, value: count(func(f *Figures) int64 { return f.CacheRead })},
	{head: "Cache write", name: "cache_write", drop: 5, value: count(func(f *Figures) int64 { return f.CacheWrite })},
	{head: "Reasoning", name: "reasoning", drop: 4, value: count(func(f *Figures) int64 { return f.Reasoning })},
	{head: "Total", name: "total", value: count(func(f *Figures) int64 { return f.Total })},
	{head: "Cost", name: "cost_usd", value: func(r *Row) string { return dollars(r.Figures.Cost, r.Figures.HasCost) }},
	{head: "Native cost", name: "native_cost_usd", drop: 1, value: func(r *Row) string { return dollars(r.Figures.NativeCost, r.Figures.HasNative) }},
	{head: "Sessions", name: "sessions", drop: 3, value: func(r *Row) string { return thousands(int64(r.Sessions)) }},
	{head: "Calls", name: "calls", drop: 2, value: count(func(f *Figures) int64 { return f.Calls })},
}

func count(get func(f *Figures) int64) func(r *Row) string {
	return func(r *Row) string { return thousands(get(&r.Figures)) }
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// dollars is a cost to the cent, "-" when unknown.
func dollars(x float64, known bool) string {
	if !known {
		return "-"
	}
	s := strconv.FormatFloat(math.Round(x*100)/100, 'f', 2, 64)
	if strings.HasPrefix(s, "-") {
		return "-$" + thousandsDecimal(s[1:])
	}
	return "$" + thousandsDecimal(s)
}

func thousandsDecimal(s string) string {
	whole, frac, _ := strings.Cut(s, ".")
	n, _ := strconv.ParseInt(whole, 10, 64)
	return thousands(n) + "." + frac
}

// exact is a cost as scripts read it: to the millionth of a dollar.
func exact(x float64) string {
	return strconv.FormatFloat(math.Round(x*1e6)/1e6, 'f', -1, 64)
}

// Format says how a report is written.
type Format struct {
	By    []string
	Loc   *time.Location
	Width int  // the table's width; 0: as wide as it needs
	Color bool // headings and totals in bold
}

// keyText is the text of the i-th key of a row, as the table and the TSV
// show it.
func (f Format) keyText(i int, r *Row) string {
	k := r.Keys[i]
	if f.By[i] == Block && k != NoTime {
		if t, err := time.Parse(time.RFC3339, k); err == nil {
			return t.In(f.loc()).Format("2006-01-02 15:04")
		}
	}
	return agt.Printable(k)
}

func (f Format) loc() *time.Location {
	if f.Loc == nil {
		return time.UTC
	}
	return f.Loc
}

// columns are the report's columns: the views' keys, then the figures
// (native cost only when a row has one).
func (f Format) columns(rows []Row, total *Row) []column {
	var cols []column
	for i, v := range f.By {
		i := i
		cols = append(cols, column{head: heads[v], name: v, key: i})
	}
	for _, c := range figures {
		if c.name == "native_cost_usd" && !total.Figures.HasNative {
			continue
		}
		c.key = -1
		cols = append(cols, c)
	}
	return cols
}

// Table writes rows and their total as a table: numbers right-aligned,
// columns dropped (see figures) and the widest key cut with "…" until it
// fits Width.
func (f Format) Table(w io.Writer, rows []Row, total Row) error {
	cols := f.columns(rows, &total)
	cells := make([][]string, len(rows)+2)
	fill := func(r *Row, totals bool) []string {
		out := make([]string, len(cols))
		for j, c := range cols {
			switch {
			case c.key >= 0 && totals:
				if j == 0 {
					out[j] = "Total"
				}
			case c.key >= 0:
				out[j] = f.keyText(c.key, r)
			default:
				out[j] = c.value(r)
			}
		}
		return out
	}
	cells[0] = make([]string, len(cols))
	for j, c := range cols {
		cells[0][j] = c.head
	}
	for i := range rows {
		cells[i+1] = fill(&rows[i], false)
	}
	cells[len(rows)+1] = fill(&total, true)
	widths := make([]int, len(cols))
	for _, line := range cells {
		for j, s := range line {
			widths[j] = max(widths[j], utf8.RuneCountInString(s))
		}
	}
	shown := make([]bool, len(cols))
	for j := range shown {
		shown[j] = true
	}
	const gap = 2
	width := func() int {
		n := 0
		for j, ok := range shown {
			if ok {
				n += widths[j] + gap
			}
		}
		return n - gap
	}
	if f.Width > 0 {
		for drop := 1; width() > f.Width && drop <= 8; drop++ {
			for j, c := range cols {
				if c.drop == drop {
					shown[j] = false
				}
			}
		}
		// then the widest key is cut, down to 8 columns
		for width() > f.Width {
			widest := -1
			for j, c := range cols {
				if c.key >= 0 && widths[j] > 8 && (widest < 0 || widths[j] > widths[widest]) {
					widest = j
				}
			}
			if widest < 0 {
				break
			}
			widths[widest] = max(8, widths[widest]-(width()-f.Width))
		}
	}
	bw := bufio.NewWriter(w)
	for i, line := range cells {
		bold := f.Color && (i == 0 || i == len(cells)-1)
		if i == len(cells)-1 { // a rule above the totals
			first := true
			for j, ok := range shown {
				if !ok {
					continue
				}
				if !first {
					bw.WriteString(strings.Repeat(" ", gap))
				}
				first = false
				bw.WriteString(strings.Repeat("─", widths[j]))
			}
			bw.WriteByte('\n')
		}
		if bold {
			bw.WriteString("\x1b[1m")
		}
		first := true
		var pad int
		for j, s := range line {
			if !shown[j] {
				continue
			}
			if !first {
				pad += gap
			}
			first = false
			s = agt.Fit(s, widths[j])
			n := utf8.RuneCountInString(s)
			if cols[j].key >= 0 { // keys left-aligned, figures right-aligned
				bw.WriteString(strings.Repeat(" ", pad))
				bw.WriteString(s)
				pad = widths[j] - n
			} else {
				bw.WriteString(strings.Repeat(" ", pad+widths[j]-n))
				bw.WriteString(s)
				pad = 0
			}
		}
		if bold {
			bw.WriteString("\x1b[0m")
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// TSV writes a header line, the rows and a totals line ("total" in the
// first column) as tab-separated values: every column, numbers without
// separators, costs in dollars to the millionth.
func (f Format) TSV(w io.Writer, rows []Row, total Row) error {
	cols := f.columns(rows, &total)
	bw := bufio.NewWriter(w)
	for j, c := range cols {
		if j > 0 {
			bw.WriteByte('\t')
		}
		bw.WriteString(c.name)
	}
	bw.WriteByte('\n')
	line := func(r *Row, totals bool) {
		for j, c := range cols {
			if j > 0 {
				bw.WriteByte('\t')
			}
			switch {
			case c.key >= 0 && totals:
				if j == 0 {
					bw.WriteString("total")
				}
			case c.key >= 0:
				bw.WriteString(tsvText(f.keyText(c.key, r)))
			default:
				bw.WriteString(plainFigure(c.name, r))
			}
		}
		bw.WriteByte('\n')
	}
	for i := range rows {
		line(&rows[i], false)
	}
	line(&total, true)
	return bw.Flush()
}

// tsvText keeps a value on its cell: tabs become spaces.
func tsvText(s string) string { return strings.ReplaceAll(s, "\t", " ") }

// plainFigure is a figure as the TSV writes it.
func plainFigure(name string, r *Row) string {
	f := &r.Figures
	switch name {
	case "input":
		return strconv.FormatInt(f.Input, 10)
	case "output":
		return strconv.FormatInt(f.Output, 10)
	case "cache_read":
		return strconv.FormatInt(f.CacheRead, 10)
	case "cache_write":
		return strconv.FormatInt(f.CacheWrite, 10)
	case "reasoning":
		return strconv.FormatInt(f.Reasoning, 10)
	case "total":
		return strconv.FormatInt(f.Total, 10)
	case "cost_usd":
		if !f.HasCost {
			return ""
		}
		return exact(f.Cost)
	case "native_cost_usd":
		if !f.HasNative {
			return ""
		}
		return exact(f.NativeCost)
	case "sessions":
		return strconv.Itoa(r.Sessions)
	case "calls":
		return strconv.FormatInt(f.Calls, 10)
	}
	return ""
}

// JSON writes one object per row, then the totals (an object with
// "totals": true), one per line.
func (f Format) JSON(w io.Writer, rows []Row, total Row) error {
	bw := bufio.NewWriter(w)
	for i := range rows {
		f.object(bw, &rows[i], false)
	}
	f.object(bw, &total, true)
	return bw.Flush()
}

func (f Format) object(bw *bufio.Writer, r *Row, totals bool) {
	var b []byte
	field := func(name string, value []byte) {
		if len(b) > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, name)
		b = append(b, ':')
		b = append(b, value...)
	}
	str := func(s string) []byte {
		if s == "" {
			return []byte(`""`)
		}
		return agt.String(s)
	}
	num := func(n int64) []byte { return strconv.AppendInt(nil, n, 10) }
	if totals {
		field("totals", []byte("true"))
	} else {
		for i, v := range f.By {
			k := r.Keys[i]
			switch {
			case v == Block && k != NoTime:
				t, _ := time.Parse(time.RFC3339, k)
				field("block", str(t.In(f.loc()).Format(time.RFC3339)))
				field("block_end", str(t.Add(BlockLength).In(f.loc()).Format(time.RFC3339)))
				continue
			case k == NoTime:
				field(v, []byte("null"))
				continue
			}
			field(v, str(k))
			if v == Session {
				field("provider", str(r.Provider))
				if r.Project != "" {
					field("project", str(r.Project))
				} else {
					field("project", []byte("null"))
				}
			}
		}
	}
	g := &r.Figures
	field("input", num(g.Input))
	field("output", num(g.Output))
	field("cache_read", num(g.CacheRead))
	field("cache_write", num(g.CacheWrite))
	field("reasoning", num(g.Reasoning))
	field("total", num(g.Total))
	if g.HasCost {
		field("cost_usd", []byte(exact(g.Cost)))
	} else {
		field("cost_usd", []byte("null"))
	}
	if g.HasNative {
		field("native_cost_usd", []byte(exact(g.NativeCost)))
	}
	field("sessions", num(int64(r.Sessions)))
	field("calls", num(g.Calls))
	models := []byte{'['}
	for i, m := range r.Models {
		if i > 0 {
			models = append(models, ',')
		}
		models = append(models, str(m)...)
	}
	field("models", append(models, ']'))
	if r.First != "" {
		field("first", str(r.First))
		field("last", str(r.Last))
	}
	bw.WriteByte('{')
	bw.Write(b)
	bw.WriteString("}\n")
}
