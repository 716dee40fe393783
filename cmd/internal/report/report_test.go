package report

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt"
)

// usage is a usage event of session s at ts with input tokens in and 10
// output tokens, costing in/1000 dollars.
func usage(s, ts string, in int64) agt.Event {
	cost := float64(in) / 1000
	u := &agt.Usage{Scope: agt.ScopeCall, Input: in, Output: 10, CostUSD: &cost}
	u.Sum()
	return agt.Event{Kind: agt.KindUsage, Session: s, NativeSession: s, Provider: "claude", TS: ts, Model: "m", Usage: u}
}

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	l, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// rowsOf runs a report over evs and gives its rows as "key|key: input".
func rowsOf(t *testing.T, opt Options, evs ...agt.Event) []string {
	t.Helper()
	r := New(opt)
	for i := range evs {
		if err := r.Add(&evs[i]); err != nil {
			t.Fatal(err)
		}
	}
	rows, total := r.Rows()
	var out []string
	var sum int64
	for _, row := range rows {
		out = append(out, fmt.Sprintf("%s: %d", strings.Join(row.Keys, "|"), row.Figures.Input))
		sum += row.Figures.Input
	}
	if total.Figures.Input != sum {
		t.Errorf("total input %d, rows sum to %d", total.Figures.Input, sum)
	}
	return out
}

func same(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// TestZone: a day, a week and a month are those of the zone: two calls an
// hour apart either side of midnight UTC (Sunday 1 March 2026) fall on
// one day in Tokyo (UTC+9: 08:30 and 09:30 on 2 March) and in New York
// (UTC-5: 18:30 and 19:30 on 28 February), on two in UTC.
func TestZone(t *testing.T) {
	evs := []agt.Event{usage("a", "2026-02-28T23:30:00.000Z", 1), usage("a", "2026-03-01T00:30:00.000Z", 2)}
	day := func(loc string) Options { return Options{By: []string{Day}, Loc: zone(t, loc)} }
	same(t, "UTC", rowsOf(t, day("UTC"), evs...), "2026-02-28: 1", "2026-03-01: 2")
	same(t, "Tokyo", rowsOf(t, day("Asia/Tokyo"), evs...), "2026-03-01: 3")
	same(t, "New York", rowsOf(t, day("America/New_York"), evs...), "2026-02-28: 3")
	month := Options{By: []string{Month}, Loc: time.UTC}
	same(t, "month UTC", rowsOf(t, month, evs...), "2026-02: 1", "2026-03: 2")
	month.Loc = zone(t, "Asia/Tokyo")
	same(t, "month Tokyo", rowsOf(t, month, evs...), "2026-03: 3")
	// weeks: Saturday 28 February and Sunday 1 March (UTC)
	week := Options{By: []string{Week}, Loc: time.UTC, WeekStart: time.Monday}
	same(t, "weeks from Monday", rowsOf(t, week, evs...), "2026-02-23: 3")
	week.WeekStart = time.Sunday
	same(t, "weeks from Sunday", rowsOf(t, week, evs...), "2026-02-22: 1", "2026-03-01: 2")
	week.Loc = zone(t, "Asia/Tokyo") // Sunday and Sunday 1 March
	same(t, "weeks from Sunday, Tokyo", rowsOf(t, week, evs...), "2026-03-01: 3")
}

// TestSinceUntil: dates are whole days of the zone, both bounds included;
// RFC 3339 bounds are instants, the until one included.
func TestSinceUntil(t *testing.T) {
	evs := []agt.Event{
		usage("a", "2026-03-01T14:59:59.999Z", 1), // 23:59:59.999 on 1 March in Tokyo
		usage("a", "2026-03-01T15:00:00.000Z", 2), // midnight, 2 March in Tokyo
		usage("a", "2026-03-02T14:59:59.999Z", 4), // 23:59:59.999 on 2 March in Tokyo
		usage("a", "2026-03-02T15:00:00.000Z", 8), // 3 March in Tokyo
		usage("a", "", 16),                        // no time: left out by any bound
	}
	tokyo := zone(t, "Asia/Tokyo")
	bound := func(s string, loc *time.Location, until bool) time.Time {
		b, err := ParseBound(s, loc, until)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	opt := Options{By: []string{Day}, Loc: tokyo, Since: bound("2026-03-02", tokyo, false), Until: bound("20260302", tokyo, true)}
	same(t, "2 March in Tokyo", rowsOf(t, opt, evs...), "2026-03-02: 6")
	opt = Options{By: []string{Day}, Loc: time.UTC, Since: bound("2026-03-01", time.UTC, false), Until: bound("2026-03-01", time.UTC, true)}
	same(t, "1 March in UTC", rowsOf(t, opt, evs...), "2026-03-01: 3")
	opt = Options{By: []string{Day}, Loc: time.UTC, Since: bound("2026-03-01T15:00:00Z", nil, false), Until: bound("2026-03-02T23:59:59.999+09:00", nil, true)}
	same(t, "instants", rowsOf(t, opt, evs...), "2026-03-01: 2", "2026-03-02: 4")
	opt = Options{By: []string{Day}, Loc: time.UTC}
	same(t, "no bound", rowsOf(t, opt, evs...), "2026-03-01: 3", "2026-03-02: 12", "-: 16")
	if _, err := ParseBound("yesterday", time.UTC, false); err == nil {
		t.Error("yesterday: no error")
	}
}

// TestBlocks: a block opens at the hour of its first call (UTC) and holds
// the calls of the next five hours, its end included; the first call past
// them opens the next block at its own hour, and so does a call after a
// gap of more than five hours. The same calls give ccusage 20.0.24's
// blocks (10:00 with three calls, 15:00, 20:00, 01:00; ccusage adds a gap
// row between 20:10 and 01:10, which agt does not).
func TestBlocks(t *testing.T) {
	evs := []agt.Event{
		usage("a", "2026-03-01T10:17:00.000Z", 1),  // opens 10:00
		usage("b", "2026-03-01T14:50:00.000Z", 2),  // 10:00, another session
		usage("a", "2026-03-01T15:00:00.000Z", 4),  // 10:00: five hours after the start, not more
		usage("a", "2026-03-01T15:05:00.000Z", 8),  // past 15:00: opens 15:00
		usage("a", "2026-03-01T20:10:00.000Z", 16), // 5h05 after 15:05: opens 20:00
		usage("a", "2026-03-02T01:10:00.000Z", 32), // past 01:00: opens 01:00
		usage("a", "2026-03-02T07:40:00.000Z", 64), // after a gap of 6h30: opens 07:00
	}
	// the events of two sessions come session by session, not in time order
	evs = append([]agt.Event{evs[1], evs[0]}, evs[2:]...)
	opt := Options{By: []string{Block}, Loc: time.UTC}
	same(t, "blocks", rowsOf(t, opt, evs...),
		"2026-03-01T10:00:00Z: 7", "2026-03-01T15:00:00Z: 8", "2026-03-01T20:00:00Z: 16", "2026-03-02T01:00:00Z: 32", "2026-03-02T07:00:00Z: 64")
	// a zone half an hour off UTC: the block still starts at a UTC hour
	opt.Loc = zone(t, "Asia/Kolkata")
	r := New(opt)
	for i := range evs {
		r.Add(&evs[i])
	}
	rows, _ := r.Rows()
	f := Format{By: opt.By, Loc: opt.Loc}
	if got := f.keyText(0, &rows[0]); got != "2026-03-01 15:30" {
		t.Errorf("first block in Kolkata: %q, want 2026-03-01 15:30", got)
	}
	if rows[0].BlockEnd != "2026-03-01T15:00:00Z" {
		t.Errorf("first block ends %q", rows[0].BlockEnd)
	}
	// by block and session: the first block holds two sessions
	opt = Options{By: []string{Block, Session}, Loc: time.UTC}
	same(t, "blocks and sessions", rowsOf(t, opt, evs...)[:2], "2026-03-01T10:00:00Z|a: 5", "2026-03-01T10:00:00Z|b: 2")
}

// TestCounts: a row counts its sessions once and its calls; a run total
// (usage of scope run) adds tokens but no call; costs are summed, and a
// row with none has no cost.
func TestCounts(t *testing.T) {
	run := usage("b", "2026-03-01T11:00:00.000Z", 100)
	run.Usage.Scope, run.Usage.CostUSD = agt.ScopeRun, nil
	evs := []agt.Event{usage("a", "2026-03-01T10:00:00.000Z", 1), usage("a", "2026-03-01T10:01:00.000Z", 2), run}
	r := New(Options{By: []string{Provider}})
	for i := range evs {
		r.Add(&evs[i])
	}
	rows, total := r.Rows()
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	f := rows[0].Figures
	if rows[0].Sessions != 2 || f.Calls != 2 || f.Input != 103 || f.Total != 133 || !f.HasCost || f.Cost != 0.003 || f.HasNative {
		t.Errorf("row %+v, sessions %d", f, rows[0].Sessions)
	}
	if total.Sessions != 2 || total.Figures != f {
		t.Errorf("total %+v", total)
	}
}

// TestProject: a session's project is the first folder any of its events
// names, even after its usage; a session that names none is "-", after
// the others.
func TestProject(t *testing.T) {
	meta := agt.Event{Kind: agt.KindUser, Session: "a", NativeSession: "a", Provider: "claude", Meta: &agt.Meta{Cwd: "/w"}}
	later := agt.Event{Kind: agt.KindMeta, Session: "a", NativeSession: "a", Provider: "claude", Meta: &agt.Meta{Type: "x", Cwd: "/other"}}
	evs := []agt.Event{usage("a", "2026-03-01T10:00:00.000Z", 1), meta, later, usage("b", "2026-03-01T11:00:00.000Z", 2), usage("a", "2026-03-02T10:00:00.000Z", 4)}
	same(t, "projects", rowsOf(t, Options{By: []string{Project}}, evs...), "/w: 5", "-: 2")
	same(t, "projects by day", rowsOf(t, Options{By: []string{Day, Project}, Loc: time.UTC}, evs...), "2026-03-01|/w: 1", "2026-03-01|-: 2", "2026-03-02|/w: 4")
}

// TestDeterministic: the same events give the same bytes, whatever the
// order of the report's maps: costs whose float sum depends on its order
// (many sessions in one row) are summed in one order.
func TestDeterministic(t *testing.T) {
	var evs []agt.Event
	for i := 0; i < 200; i++ {
		ev := usage(fmt.Sprintf("s%03d", i), "2026-03-01T10:00:00.000Z", int64(i+1))
		c := 0.1 + float64(i)*1e-7 + 1/float64(i+3)
		ev.Usage.CostUSD = &c
		evs = append(evs, ev)
	}
	var first string
	for run := 0; run < 20; run++ {
		r := New(Options{By: []string{Day}, Loc: time.UTC})
		for i := range evs {
			r.Add(&evs[i])
		}
		rows, total := r.Rows()
		var b strings.Builder
		Format{By: []string{Day}}.JSON(&b, rows, total)
		for _, r := range append(rows, total) { // to the last bit, not only as written
			fmt.Fprintf(&b, "%v %v\n", r.Figures.Cost, r.Figures.NativeCost)
		}
		if run == 0 {
			first = b.String()
		} else if b.String() != first {
			t.Fatalf("run %d:\n%s\nfirst:\n%s", run, b.String(), first)
		}
	}
}
