// Package report sums the usage events of agt.event/1 into the rows of a
// usage report: per day, week, month, session, model, provider, project or
// 5-hour billing block, or a combination of those (agt-report).
//
// It sees the events that count (a record held by several copies counts
// once: the transcript consolidator decides it, see transcript.Consolidator
// CountOnly) and keeps nothing of them but their figures: memory holds one
// cell per session and bucket, and, for the block view only, the time and
// figures of each model call.
package report

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // --tz names a zone whatever the system holds

	"github.com/agt-project/agt"
)

// The views a report is grouped by (--by).
const (
	Day      = "day"
	Week     = "week"
	Month    = "month"
	Session  = "session"
	Model    = "model"
	Provider = "provider"
	Project  = "project"
	Block    = "block"
)

// Views are the names --by takes, in the order help lists them.
var Views = []string{Day, Week, Month, Session, Turn, Model, Provider, Project, Block}

// BlockLength is the length of a billing block: a block opens at the first
// call after the last one closed, floored to the hour (UTC), and holds the
// calls of the next five hours; a call more than five hours after the
// previous call opens a new block even within those hours.
const BlockLength = 5 * time.Hour

// NoTime is the bucket of usage whose event has no time.
const NoTime = "-"

// Options are what a report groups by and which usage it keeps.
type Options struct {
	By           []string       // views, in column order
	Loc          *time.Location // the zone of days, weeks, months and block labels
	Since, Until time.Time      // the usage kept: Since <= ts < Until (zero: no bound)
	WeekStart    time.Weekday   // the first day of a week
}

// scopeMore marks, within the report, a usage event that adds to a call
// already counted.
const scopeMore = "call+"

// Figures are the sums of a row.
type Figures struct {
	Input, CacheRead, CacheWrite, Output, Reasoning, Total int64
	Cost, NativeCost                                       float64
	HasCost, HasNative                                     bool
	Calls                                                  int64 // model calls (usage of scope call)
}

func (f *Figures) add(u *agt.Usage) {
	f.Input += u.Input
	f.CacheRead += u.CacheRead
	f.CacheWrite += u.CacheWrite
	f.Output += u.Output
	f.Reasoning += u.Reasoning
	f.Total += u.Total
	if u.CostUSD != nil {
		f.Cost += *u.CostUSD
		f.HasCost = true
	}
	if u.NativeCostUSD != nil {
		f.NativeCost += *u.NativeCostUSD
		f.HasNative = true
	}
	if u.Scope == agt.ScopeCall {
		f.Calls++
	}
}

func (f *Figures) merge(g *Figures) {
	f.Input += g.Input
	f.CacheRead += g.CacheRead
	f.CacheWrite += g.CacheWrite
	f.Output += g.Output
	f.Reasoning += g.Reasoning
	f.Total += g.Total
	f.Cost += g.Cost
	f.NativeCost += g.NativeCost
	f.HasCost = f.HasCost || g.HasCost
	f.HasNative = f.HasNative || g.HasNative
	f.Calls += g.Calls
}

// Row is one line of the report: its values of the views (Keys, in the
// order of Options.By), its figures, and the sessions, models and times of
// its usage.
type Row struct {
	Keys        []string
	Figures     Figures
	Sessions    int
	Models      []string
	First, Last string // the times of its first and last usage (RFC 3339 UTC)
	// Provider and Project are set on rows of the session view.
	Provider, Project string
	// BlockEnd is set on rows of the block view: when the block closes.
	BlockEnd string

	sessions map[string]bool // the sessions of its usage
}

// Total is the totals row of rows: their figures summed, their sessions
// and models counted once.
func Total(rows []Row) Row {
	t := Row{sessions: map[string]bool{}}
	models := map[string]bool{}
	for i := range rows {
		r := &rows[i]
		t.Figures.merge(&r.Figures)
		for s := range r.sessions {
			t.sessions[s] = true
		}
		for _, m := range r.Models {
			models[m] = true
		}
		if r.First != "" && (t.First == "" || r.First < t.First) {
			t.First = r.First
		}
		if r.Last > t.Last {
			t.Last = r.Last
		}
	}
	t.Sessions, t.Models = len(t.sessions), sortedKeys(models)
	return t
}

// session is what a report knows of a session.
type session struct {
	id, provider, native, cwd string
	alias                     string // the session it continues as (a session named late)
	turns                     turns  // its user turns (the turn view)
}

// cell is the usage of one session in one bucket.
type cell struct {
	sess        string
	bucket      string // the time views' values, joined by NUL
	model       string
	fig         Figures
	first, last string
	models      map[string]bool
}

type cellKey struct{ sess, bucket, model string }

// call is one usage event, kept for the block view.
type call struct {
	ts    time.Time
	stamp string
	sess  string
	model string
	u     agt.Usage
}

// Report sums usage events into rows.
type Report struct {
	opt      Options
	time     []string // the time views of By, in order
	byModel  bool
	blocks   bool
	byTurn   bool
	sessions map[string]*session
	cells    map[cellKey]*cell
	calls    []call
	late     []call // a subagent's usage, for the turn view: placed by its time
	// counted is the group (of input units, see transcript.Consolidator)
	// in which each usage event was counted, by its session and id: the
	// consolidator counts a record once within a group, the report once
	// across groups (a session's events read again from another input
	// that is not read with its logs: agt-parse's output beside them).
	counted map[uint64]int32
	// calls met: a call's later usage events (the differences a log's
	// later lines of the same message add) count its tokens, not a call
	callIDs map[uint64]struct{}
	group   int32
	seed    maphash.Seed
	// Skipped counts the usage events left out by Since and Until (those
	// with no time among them).
	Skipped int64
}

// New returns an empty report.
func New(opt Options) *Report {
	if opt.Loc == nil {
		opt.Loc = time.UTC
	}
	r := &Report{opt: opt, sessions: map[string]*session{}, cells: map[cellKey]*cell{}, counted: map[uint64]int32{}, callIDs: map[uint64]struct{}{}, seed: maphash.MakeSeed()}
	for _, v := range opt.By {
		switch v {
		case Day, Week, Month:
			r.time = append(r.time, v)
		case Model:
			r.byModel = true
		case Block:
			r.blocks = true
		case Turn:
			r.byTurn = true
		}
	}
	return r
}

// ParseBy reads a --by value: views joined by commas, each once.
func ParseBy(s string) ([]string, error) {
	var by []string
	for _, v := range strings.Split(s, ",") {
		v = strings.TrimSpace(v)
		if !slices.Contains(Views, v) {
			return nil, fmt.Errorf("%q: want %s, or several joined by commas", v, strings.Join(Views, ", "))
		}
		if slices.Contains(by, v) {
			return nil, fmt.Errorf("%q given twice", v)
		}
		by = append(by, v)
	}
	if slices.Contains(by, Turn) && slices.Contains(by, Block) {
		return nil, fmt.Errorf("%q and %q: choose one", Turn, Block)
	}
	return by, nil
}

// Add takes one event that counts: usage events are summed, meta events
// tell a session's folder; the rest is passed over.
func (r *Report) Add(ev *agt.Event) error {
	if ev.Meta != nil && ev.Meta.Cwd != "" { // the session's folder, whatever event names it first
		if s := r.session(ev); s.cwd == "" {
			s.cwd = strings.Clone(ev.Meta.Cwd)
		}
	}
	if ev.Kind == agt.KindMeta && ev.Meta != nil {
		if p := agt.Continued(ev); p != "" {
			if s := r.sessions[p]; s != nil && s.alias == "" {
				s.alias = strings.Clone(ev.Session)
			}
			r.session(ev)
		}
		return nil
	}
	r.followTurn(ev)
	if ev.Kind != agt.KindUsage || ev.Usage == nil {
		return nil
	}
	if ev.ID != "" {
		h := maphash.String(r.seed, ev.Session+"\x00"+ev.ID)
		if g, ok := r.counted[h]; ok && g < r.group {
			return nil // counted in an earlier group
		} else if !ok {
			r.counted[h] = r.group
		}
	}
	var ts time.Time
	stamp := ev.TS
	if stamp != "" {
		t, err := time.Parse(time.RFC3339Nano, stamp)
		if err != nil {
			stamp = ""
		} else {
			ts = t
		}
	}
	if !r.opt.Since.IsZero() || !r.opt.Until.IsZero() {
		if stamp == "" || (!r.opt.Since.IsZero() && ts.Before(r.opt.Since)) || (!r.opt.Until.IsZero() && !ts.Before(r.opt.Until)) {
			r.Skipped++
			return nil
		}
	}
	s := r.session(ev)
	usage := ev.Usage
	if usage.Scope == agt.ScopeCall && usage.MessageID != "" {
		h := maphash.String(r.seed, "call\x00"+ev.Session+"\x00"+usage.MessageID)
		if _, ok := r.callIDs[h]; ok {
			more := *usage
			more.Scope = scopeMore
			usage = &more
		} else {
			r.callIDs[h] = struct{}{}
		}
	}
	if r.blocks {
		u := *usage
		u.MessageID, u.Speed = "", ""
		r.calls = append(r.calls, call{ts: ts, stamp: strings.Clone(stamp), sess: s.id, model: strings.Clone(ev.Model), u: u})
		return nil
	}
	bucket := r.bucket(ts, stamp)
	if r.byTurn {
		if ev.Stream != agt.StreamMain && ev.Stream != "" && stamp != "" {
			u := *usage
			u.MessageID, u.Speed = "", ""
			r.late = append(r.late, call{ts: ts, stamp: strings.Clone(stamp), sess: s.id, model: strings.Clone(ev.Model), u: u})
			return nil
		}
		bucket += turnSep + s.turnKey(s.turns.at(stamp))
	}
	r.addCell(s.id, bucket, ev.Model, stamp, usage)
	return nil
}

// EndGroup tells that a group of input units ended (transcript.Consolidator
// Group): a usage event met again from now on was counted.
func (r *Report) EndGroup() { r.group++ }

// session is ev's session, known from now on.
func (r *Report) session(ev *agt.Event) *session {
	s := r.sessions[ev.Session]
	if s == nil {
		s = &session{id: strings.Clone(ev.Session), provider: strings.Clone(ev.Provider), native: strings.Clone(ev.NativeSession)}
		r.sessions[s.id] = s
	}
	return s
}

// addCell adds usage u to the cell of session sess (the report's own copy
// of its id) in bucket, for model.
func (r *Report) addCell(sess, bucket, model, stamp string, u *agt.Usage) {
	k := cellKey{sess, bucket, ""}
	if r.byModel {
		k.model = model
	}
	c := r.cells[k]
	if c == nil {
		k = cellKey{sess, strings.Clone(bucket), strings.Clone(k.model)}
		c = &cell{sess: k.sess, bucket: k.bucket, model: k.model, models: map[string]bool{}}
		r.cells[k] = c
	}
	c.fig.add(u)
	if model != "" && !c.models[model] {
		c.models[strings.Clone(model)] = true
	}
	if stamp != "" {
		if c.first == "" || stamp < c.first {
			c.first = strings.Clone(stamp)
		}
		if stamp > c.last {
			c.last = strings.Clone(stamp)
		}
	}
}

// bucket is the values of the time views of a usage at ts.
func (r *Report) bucket(ts time.Time, stamp string) string {
	if len(r.time) == 0 {
		return ""
	}
	vals := make([]string, len(r.time))
	for i, v := range r.time {
		vals[i] = r.timeKey(v, ts, stamp)
	}
	return strings.Join(vals, "\x00")
}

// timeKey is the value of time view v for a usage at ts.
func (r *Report) timeKey(v string, ts time.Time, stamp string) string {
	if stamp == "" {
		return NoTime
	}
	t := ts.In(r.opt.Loc)
	switch v {
	case Day:
		return t.Format("2006-01-02")
	case Month:
		return t.Format("2006-01")
	case Week:
		back := (int(t.Weekday()) - int(r.opt.WeekStart) + 7) % 7
		y, m, d := t.Date()
		return time.Date(y, m, d-back, 12, 0, 0, 0, r.opt.Loc).Format("2006-01-02")
	}
	return ""
}

// BlockStart is the hour a block opened by a call at t starts: t floored
// to the hour, in UTC (as ccusage does; in a zone whose offset is not whole
// hours the block starts off the local hour).
func BlockStart(t time.Time) time.Time { return t.UTC().Truncate(time.Hour) }

// blocks assigns the calls to billing blocks: each call's block start.
func (r *Report) assignBlocks() []time.Time {
	idx := make([]int, len(r.calls))
	for i := range idx {
		idx[i] = i
	}
	// calls without a time come last, in no block
	slices.SortStableFunc(idx, func(a, b int) int {
		ca, cb := &r.calls[a], &r.calls[b]
		if (ca.stamp == "") != (cb.stamp == "") {
			if ca.stamp == "" {
				return 1
			}
			return -1
		}
		return ca.ts.Compare(cb.ts)
	})
	starts := make([]time.Time, len(r.calls))
	var start, last time.Time
	open := false
	for _, i := range idx {
		c := &r.calls[i]
		if c.stamp == "" {
			continue
		}
		if !open || c.ts.Sub(start) > BlockLength || c.ts.Sub(last) > BlockLength {
			start, open = BlockStart(c.ts), true
		}
		starts[i], last = start, c.ts
	}
	return starts
}

// Rows are the report's rows, in the order of their keys (time views in
// time order, the others by their text; rows without a time last), and
// their totals.
func (r *Report) Rows() (rows []Row, total Row) {
	if r.blocks {
		starts := r.assignBlocks()
		for i := range r.calls {
			c := &r.calls[i]
			b := NoTime
			if c.stamp != "" {
				b = starts[i].UTC().Format(time.RFC3339)
			}
			bucket := r.bucket(c.ts, c.stamp)
			if bucket != "" {
				bucket += "\x00"
			}
			r.addCell(c.sess, bucket+b, c.model, c.stamp, &c.u)
		}
		r.calls = nil
	}
	r.placeLate()
	type acc struct {
		row      Row
		sessions map[string]bool
		models   map[string]bool
	}
	byKey := map[string]*acc{}
	var order []string
	all := &acc{sessions: map[string]bool{}, models: map[string]bool{}}
	// cells in the order of their keys, so that costs are summed in one
	// order whatever the map's (the same bytes out every run)
	cells := make([]*cell, 0, len(r.cells))
	for _, c := range r.cells {
		cells = append(cells, c)
	}
	slices.SortFunc(cells, func(a, b *cell) int {
		if c := strings.Compare(a.sess, b.sess); c != 0 {
			return c
		}
		if c := strings.Compare(a.bucket, b.bucket); c != 0 {
			return c
		}
		return strings.Compare(a.model, b.model)
	})
	for _, c := range cells {
		sid := r.resolve(c.sess)
		s := r.sessions[sid]
		if s == nil {
			s = r.sessions[c.sess]
		}
		cb, turn, _ := strings.Cut(c.bucket, turnSep)
		bucket := strings.Split(cb, "\x00")
		keys := make([]string, len(r.opt.By))
		ti := 0
		var blockEnd string
		for i, v := range r.opt.By {
			switch v {
			case Day, Week, Month:
				keys[i] = bucket[ti]
				ti++
			case Block:
				b := bucket[len(bucket)-1]
				keys[i] = b
				if b != NoTime {
					t, _ := time.Parse(time.RFC3339, b)
					blockEnd = t.Add(BlockLength).Format(time.RFC3339)
				}
			case Model:
				keys[i] = orDash(c.model)
			case Session:
				keys[i] = s.provider + "\x00" + s.native
			case Provider:
				keys[i] = s.provider
			case Project:
				keys[i] = orDash(s.cwd)
			case Turn: // the session it continues as, for one named late
				keys[i] = s.provider + "\x00" + s.native + "\x00" + turn
			}
		}
		k := strings.Join(keys, "\x01")
		a := byKey[k]
		if a == nil {
			a = &acc{row: Row{Keys: keys, BlockEnd: blockEnd}, sessions: map[string]bool{}, models: map[string]bool{}}
			if slices.Contains(r.opt.By, Session) {
				a.row.Provider, a.row.Project = s.provider, s.cwd
			}
			byKey[k] = a
			order = append(order, k)
		}
		for _, x := range []*acc{a, all} {
			x.row.Figures.merge(&c.fig)
			x.sessions[sid] = true
			for m := range c.models {
				x.models[m] = true
			}
			if c.first != "" && (x.row.First == "" || c.first < x.row.First) {
				x.row.First = c.first
			}
			if c.last > x.row.Last {
				x.row.Last = c.last
			}
		}
	}
	for _, k := range order {
		a := byKey[k]
		a.row.Sessions, a.row.sessions = len(a.sessions), a.sessions
		a.row.Models = sortedKeys(a.models)
		for i, v := range r.opt.By {
			if v == Session { // provider NUL native: the native id shown
				_, a.row.Keys[i], _ = strings.Cut(a.row.Keys[i], "\x00")
			}
		}
		rows = append(rows, a.row)
	}
	// the session id's provider orders sessions of two providers alike
	slices.SortFunc(rows, func(a, b Row) int { return r.compare(a, b) })
	showTurns(r.opt.By, rows)
	all.row.Sessions, all.row.sessions = len(all.sessions), all.sessions
	all.row.Models = sortedKeys(all.models)
	return rows, all.row
}

// compare orders rows by their keys: those without a time last, sessions
// by their first usage.
func (r *Report) compare(a, b Row) int {
	for i, v := range r.opt.By {
		ka, kb := a.Keys[i], b.Keys[i]
		if v == Session { // by their first usage; those without a time last
			if (a.First == "") != (b.First == "") {
				if a.First == "" {
					return 1
				}
				return -1
			}
			ka, kb = a.First+"\x00"+a.Provider+"\x00"+ka, b.First+"\x00"+b.Provider+"\x00"+kb
		}
		if (ka == NoTime) != (kb == NoTime) {
			if ka == NoTime {
				return 1
			}
			return -1
		}
		if c := strings.Compare(ka, kb); c != 0 {
			return c
		}
	}
	return 0
}

// resolve follows a session named late to the session it continues as.
func (r *Report) resolve(sess string) string {
	for i := 0; i < 8; i++ {
		s := r.sessions[sess]
		if s == nil || s.alias == "" {
			return sess
		}
		sess = s.alias
	}
	return sess
}

func orDash(s string) string {
	if s == "" {
		return NoTime
	}
	return s
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// ParseBound reads a --since or --until value in zone loc: a date
// (2026-01-02 or 20260102: its midnight; for an until bound the next
// midnight, so that the day is kept) or an RFC 3339 time (an until bound
// keeps usage at that very time).
func ParseBound(s string, loc *time.Location, until bool) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006-01-02", "20060102"} {
		if d, err := time.ParseInLocation(layout, s, loc); err == nil {
			if until {
				d = d.AddDate(0, 0, 1)
			}
			return d, nil
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q: want a date (2026-01-02) or an RFC 3339 time (2026-01-02T15:04:05Z)", s)
	}
	if until {
		t = t.Add(time.Nanosecond)
	}
	return t, nil
}

// Order sorts rows for --order: "key" leaves them in the order of their
// keys; "cost" and "tokens" sort them by that figure, the largest last
// (next to the totals, and kept by --last), ties in key order.
func Order(rows []Row, by string) error {
	var fig func(r *Row) float64
	switch by {
	case "key", "":
		return nil
	case "cost":
		fig = func(r *Row) float64 { return r.Figures.Cost }
	case "tokens":
		fig = func(r *Row) float64 { return float64(r.Figures.Total) }
	default:
		return fmt.Errorf("%q: want key, cost or tokens", by)
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		fa, fb := fig(&a), fig(&b)
		switch {
		case fa < fb:
			return -1
		case fa > fb:
			return 1
		}
		return 0
	})
	return nil
}
