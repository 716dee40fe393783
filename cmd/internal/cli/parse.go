package cli

import (
	"math"
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
	"github.com/urfave/cli/v2"
)

// Flags shared by the filters that read provider input.
func inputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "provider", Value: "auto", Usage: "provider `P` of the input: auto (detect from content) or one of " + strings.Join(provider.Names(), ", ")},
		&cli.BoolFlag{Name: "raw", Usage: "keep the untouched provider record in each event's raw field"},
		&cli.BoolFlag{Name: "strict", Usage: "make the first data error (a bad line, an unrecognised input) fatal: exit 1"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print no diagnostics on stderr"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "`N` worker goroutines, 1 to 256 (0 = one per core)"},
		&cli.StringFlag{Name: "max-line", Value: "256MiB", Usage: "longest `SIZE` of a line read (bytes, or with KiB, MiB, GiB); a longer line is an error event holding its first MiB"},
		&cli.StringFlag{Name: "max-doc", Value: "1GiB", Usage: "largest `SIZE` of a whole JSON document read (a pretty-printed file); a larger one is an error, exit 1"},
		discoverFlag,
	}
}

// start reads what agt-parse, agt-normalize and agt-streamlog share after
// their own flags: -f, and the inputs (see expand).
func start(c *cli.Context, io IO, cfg provider.Config) (*stage.Follower, []stage.Input, bool, error) {
	fl, err := following(c)
	if err != nil {
		return nil, nil, false, err
	}
	inputs, failed, err := expand(c, io, cfg)
	return fl, inputs, failed, err
}

// notLog is provider.Config.NotLog: the summary lines agt-streamlog writes
// (agt-streamlog F | agt-transcript) are text for people.
func notLog(lines [][]byte) string {
	if transcript.IsSummaryText(lines) {
		return "agt-streamlog summary lines (text for people), not an agent log: agt-streamlog --mode raw writes events a filter reads"
	}
	return ""
}

// maxJobs bounds -j.
const maxJobs = 256

func parseConfig(c *cli.Context) (provider.Config, error) {
	cfg := provider.Config{
		Config:   stage.Config{Strict: c.Bool("strict"), Quiet: c.Bool("quiet"), Name: c.App.Name, Workers: c.Int("jobs")},
		Provider: c.String("provider"),
		Opts:     agt.Options{Raw: c.Bool("raw")},
		NotLog:   notLog,
	}
	if cfg.Workers < 0 || cfg.Workers > maxJobs {
		return cfg, Usagef("-j %d: want 1 to %d, or 0 for one per core", cfg.Workers, maxJobs)
	}
	n, err := parseSize(c.String("max-line"), math.MaxInt32)
	if err != nil {
		return cfg, Usagef("--max-line: %v", err)
	}
	cfg.MaxLine = int(n)
	if cfg.MaxDoc, err = parseSize(c.String("max-doc"), 1<<36); err != nil {
		return cfg, Usagef("--max-doc: %v", err)
	}
	if cfg.Provider != "auto" && provider.Lookup(cfg.Provider) == nil {
		return cfg, Usagef("unknown provider %q (want auto or one of %s)", cfg.Provider, strings.Join(provider.Names(), ", "))
	}
	return cfg, nil
}

// Parse is agt-parse: provider logs in, agt.event/1 lines out.
func Parse(io IO) *cli.App {
	io.Err = stage.Locked(io.Err) // the run's goroutines write to it too
	app := newApp(io, "agt-parse", "read AI coding agent logs and write agt.event/1 JSONL",
		`Reads session logs and live --json output of AI coding agents (PATH may be a
file, a folder walked recursively, or - for stdin; none means stdin, unless it
is a terminal; --discover adds the log folders of every agent on this machine)
and writes one agt.event/1 JSON object per line on stdout. The provider and
format are detected from the content. Options may follow paths; -- ends them.

In a folder or an archive, files no provider recognises are skipped and counted
in one stderr line per argument; a file named on the command line is always read.

Every input line yields at least one event naming it in src. A line that is not
JSON becomes an error event and a "PATH:LINE: why" line on stderr; the run goes
on. Record types agt does not know become unknown events with raw set.

Examples:
   agt-parse ~/.claude/projects/-home-me-app/3f2a….jsonl
   codex exec --json "fix the test" | agt-parse
   agt-parse --provider codex --raw rollout.jsonl | jq 'select(.kind=="tool_call")'
   agt-parse ~/.codex/sessions | agt-normalize | agt-transcript
   agt-parse -f ~/.claude/projects/-home-me-app/ | jq 'select(.kind=="tool_call")'

`+followHelp+`

Exit status: 0 done (data errors are reported, not fatal; or following ended),
1 an input could not be read or a data error under --strict, 2 usage error,
130 interrupted.`)
	app.ArgsUsage = "[PATH...]"
	app.Flags = append(inputFlags(), followFlags()...)
	app.Action = func(c *cli.Context) error {
		cfg, err := parseConfig(c)
		if err != nil {
			return err
		}
		fl, inputs, failed, err := start(c, io, cfg)
		if err != nil {
			return err
		}
		limitMemory()
		st, err := read(c, cfg, fl, inputs, stage.NewJSONL(io.Out), io.Err)
		return outcome(st, err, failed)
	}
	return app
}
