package cli

import (
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/cmd/internal/report"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
	"github.com/urfave/cli/v2"
)

// Report is agt-report: logs or events in, a usage report out (a table on
// a terminal, TSV in a pipe, or JSON lines).
func Report(io IO) *cli.App {
	io.Err = stage.Locked(io.Err) // the run's goroutines write to it too
	app := newApp(io, "agt-report", "report AI coding agents' token usage and cost per day, week, month, session, model…",
		`Reads provider logs, agt.event/1 events or agt.transcript/1 transcripts
(files, folders, archives, stdin; --discover adds the log folders of every
agent on this machine; with no PATH on a terminal it reads those, saying
which on stderr) and sums their usage: input, output, cache read, cache
write, reasoning and total tokens, cost (cost_usd: the price table's, else
the agent's own figure) and the agent's own cost where it logged one (native
cost), sessions and model calls: a row for each key of --by, then the
totals. A record held by several copies (a backup, an archive, a resumed
session's history) counts once, as in agt-transcript; a session's usage
includes its subagents'. Only usage is read: message texts, tool inputs and
results are not decoded where the agent's format allows it (Claude Code).

--by day|week|month|session|model|provider|project|block, or several joined
by commas (--by day,model). Days, weeks and months are those of --tz (default:
the local zone, $TZ; UTC to match the other filters' stamps); a week starts
on --week-start (default monday, ISO 8601). A block is a 5-hour billing
window: the first call after a block opens the next one at its hour (UTC,
floored), and a call more than 5 hours after the previous call opens a new
block too. --since and --until keep the usage between two dates (both
included) or RFC 3339 times.

On a terminal the report is a table that fits its width ($COLUMNS, else the
terminal's): when it does not, columns go in this order: native cost, calls,
sessions, reasoning, cache write, cache read, input, output; then the widest
key is cut. Headings and totals are bold (--color auto: on a terminal, unless
NO_COLOR is set). In a pipe or a file the report is TSV (a header line, the
rows, a "total" line; no separators); --json writes one JSON object per row
and then the totals ("totals": true).

Examples:
   agt-report                                   # this machine's agents, per day
   agt-report --by month,model ~/.claude/projects
   agt-report --by session --order cost --last 10 --discover
   agt-report --by day --tz UTC --since 2026-01-01 --json ~/.codex/sessions | jq .cost_usd
   claude -p "fix it" --output-format stream-json --verbose | agt-report --by model

Exit status: 0 done (data errors are reported, not fatal), 1 an input could not
be read or a data error under --strict, 2 usage error, 130 interrupted.`)
	app.ArgsUsage = "[PATH...]"
	app.Flags = append(inputFlags(),
		&cli.StringFlag{Name: "by", Value: report.Day, Usage: "group by `VIEW`: " + strings.Join(report.Views, ", ") + ", or several joined by commas"},
		&cli.StringFlag{Name: "since", Usage: "keep usage from `DATE` (2026-01-02, 20260102 or an RFC 3339 time) on"},
		&cli.StringFlag{Name: "until", Usage: "keep usage up to `DATE` (that day included, or an RFC 3339 time)"},
		&cli.StringFlag{Name: "tz", Usage: "the time `ZONE` of days, weeks, months and block labels: an IANA name (Europe/Paris), UTC or Local (default: the local zone, $TZ)"},
		&cli.StringFlag{Name: "week-start", Value: "monday", Usage: "the first `DAY` of a week: monday … sunday"},
		&cli.BoolFlag{Name: "json", Usage: "write one JSON object per row, then the totals"},
		&cli.StringFlag{Name: "format", Value: "auto", Usage: "`FMT`: auto (a table on a terminal, else TSV), table, tsv or json"},
		&cli.StringFlag{Name: "order", Value: "key", Usage: "order rows by `WHAT`: key (time, then name), cost or tokens (the largest last)"},
		&cli.IntFlag{Name: "last", Usage: "show only the last `N` rows of that order (the latest, or the largest); the totals are theirs"},
		&cli.StringFlag{Name: "color", Value: "auto", Usage: "`WHEN` the table's headings and totals are bold: auto (on a terminal, unless NO_COLOR is set), always or never"},
		&cli.StringFlag{Name: "model", Usage: "the `MODEL` of usage events that name none (codex exec --json), for their cost"},
		&cli.StringFlag{Name: "prices", Usage: "price table `FILE` (LiteLLM's JSON format, or agt's) instead of the embedded one", TakesFile: true},
	)
	app.Before = func(c *cli.Context) error { return reportBefore(c, io) }
	app.Action = func(c *cli.Context) error {
		opt, f, err := reportOptions(c, io)
		if err != nil {
			return err
		}
		if os.Getenv("GOMEMLIMIT") == "" && os.Getenv("GOGC") == "" {
			// the report keeps little of what it reads: its heap is
			// mostly the batches in flight, so the collector runs only
			// when the heap reaches a small soft limit, not each time
			// it doubles (a larger live heap, a long --by block, still
			// runs: the runtime bounds the collector's share of the
			// CPU); the settings are restored after the run, for a
			// caller in the same process
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(reportMemoryLimit))
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
		}
		cfg, err := parseConfig(c)
		if err != nil {
			return err
		}
		norm := sync.OnceValues(func() (*provider.Normalizer, error) { return normalizer(c, io) })
		if c.String("prices") == "" {
			// the embedded price table (no error to tell) is read while
			// the inputs are walked and their heads read, which leave a
			// processor idle
			go norm()
		} else if _, err := norm(); err != nil {
			return err
		}
		// the turn view reads the prompts too: a usage-only parse leaves
		// out message contents, and with them what tells a prompt
		cfg.Opts.Usage = !slices.Contains(opt.By, report.Turn)
		// the report reads usage only: tool calls are not made canonical
		cfg.Transform = func(ev *agt.Event) string {
			if ev.Kind != agt.KindUsage || ev.Meta != nil && ev.Meta.Type == provider.MetaTranscript {
				return "" // a transcript's usage keeps its costs
			}
			n, _ := norm() // its error was told above
			return n.Event(ev)
		}
		var inputs []stage.Input
		failed := false
		if ops, _ := c.App.Metadata["operands"].([]string); len(ops) > 0 || c.App.Metadata["discover"] != true {
			if inputs, failed, err = expand(c, io, cfg); err != nil {
				return err
			}
		}
		rep := report.New(opt)
		cons := transcript.NewConsolidator(provider.UnitKey, false, nil)
		cons.CountOnly, cons.Each = true, rep.Add
		cons.Group = func([]string) { rep.EndGroup() }
		st, rerr := read(c, cfg, nil, inputs, cons, io.Err)
		if rerr == nil {
			rerr = cons.Close()
		}
		if rerr != nil {
			return outcome(st, rerr, failed)
		}
		rows, _ := rep.Rows()
		if err := writeReport(c, io, f, rows); err != nil {
			return err
		}
		return outcome(st, nil, failed)
	}
	return app
}

// reportBefore reads, with no PATH on a terminal, the agents' folders as
// --discover finds them.
func reportBefore(c *cli.Context, io IO) error {
	if c.NArg() > 0 || c.Bool("discover") || !onTerminal(io.In) {
		return discoverBefore(c)
	}
	found := discover(trimmedEnv, homeDir())
	ops := []string{}
	var paths []string
	for _, f := range found {
		ops = append(ops, f.path)
		paths = append(paths, f.path)
	}
	if !c.Bool("quiet") {
		msg := "no PATH: no agent log folder found"
		if len(paths) > 0 {
			msg = "no PATH: reading " + strings.Join(paths, ", ")
		}
		fmt.Fprintf(io.Err, "%s: %s\n", c.App.Name, agt.Printable(msg))
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata["operands"] = ops
	c.App.Metadata["discover"] = true
	return nil
}

// writeReport orders the rows (--order, --last) and writes them and
// their totals in the format asked for.
func writeReport(c *cli.Context, io IO, f report.Format, rows []report.Row) error {
	if err := report.Order(rows, c.String("order")); err != nil {
		return Usagef("--order %v", err)
	}
	if k := c.Int("last"); k > 0 && k < len(rows) {
		rows = rows[len(rows)-k:]
	}
	total := report.Total(rows)
	switch format := c.String("format"); {
	case c.Bool("json") || format == "json":
		return f.JSON(io.Out, rows, total)
	case format == "table" || format == "auto" && isTerminal(io.Out):
		return f.Table(io.Out, rows, total)
	default:
		return f.TSV(io.Out, rows, total)
	}
}

// reportMemoryLimit is agt-report's soft memory limit, where its
// collector runs, unless GOMEMLIMIT or GOGC is set.
const reportMemoryLimit = 48 << 20

// reportOptions reads the flags of the report's views, times and output.
func reportOptions(c *cli.Context, io IO) (report.Options, report.Format, error) {
	var opt report.Options
	var f report.Format
	by, err := report.ParseBy(c.String("by"))
	if err != nil {
		return opt, f, Usagef("--by %v", err)
	}
	loc := time.Local
	if tz := strings.TrimSpace(c.String("tz")); tz != "" {
		if loc, err = time.LoadLocation(tz); err != nil {
			return opt, f, Usagef("--tz %q: not a time zone (want an IANA name such as Europe/Paris, UTC or Local)", tz)
		}
	}
	opt.By, opt.Loc, f.By, f.Loc = by, loc, by, loc
	day, ok := weekdays[strings.ToLower(c.String("week-start"))]
	if !ok {
		return opt, f, Usagef("--week-start %q: want monday … sunday", c.String("week-start"))
	}
	opt.WeekStart = day
	for _, b := range []struct {
		flag  string
		until bool
		to    *time.Time
	}{{"since", false, &opt.Since}, {"until", true, &opt.Until}} {
		if s := c.String(b.flag); s != "" {
			if *b.to, err = report.ParseBound(s, loc, b.until); err != nil {
				return opt, f, Usagef("--%s %v", b.flag, err)
			}
		}
	}
	if !opt.Since.IsZero() && !opt.Until.IsZero() && !opt.Since.Before(opt.Until) {
		return opt, f, Usagef("--since %s is after --until %s", c.String("since"), c.String("until"))
	}
	switch format := c.String("format"); format {
	case "auto", "table", "tsv", "json":
		if c.Bool("json") && format != "auto" && format != "json" {
			return opt, f, Usagef("--json and --format %s: choose one", format)
		}
	default:
		return opt, f, Usagef("--format %q: want auto, table, tsv or json", format)
	}
	if c.Int("last") < 0 {
		return opt, f, Usagef("--last %d: want a number of rows, 1 or more", c.Int("last"))
	}
	colored := colorModes[c.String("color")]
	if colored == nil {
		return opt, f, Usagef("--color %q: want auto, always or never", c.String("color"))
	}
	f.Color = colored(io.Out)
	f.Width = lineWidth(io.Out)
	if f.Width == 0 && c.String("format") == "table" { // a table in a pipe: as wide as $COLUMNS says
		if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
			f.Width = n
		}
	}
	return opt, f, nil
}

// weekdays are the values of --week-start.
var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
}
