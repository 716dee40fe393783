package cli

import (
	"os"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
	"github.com/urfave/cli/v2"
)

// Streamlog is agt-streamlog: the stream log writer of agt-transcript as a
// filter on stdout.
func Streamlog(io IO) *cli.App {
	app := newApp(io, "agt-streamlog", "write a stream log of agent events: raw JSONL or readable lines",
		`Reads provider logs or agt.event/1 events and writes the stream log that
agt-transcript --stream-log writes beside each transcript: --mode raw writes
every (normalized) event as JSONL, --mode summary one readable line per
message, tool call and result. Summary lines are colored on a terminal, never
when NO_COLOR is set.

Examples:
   claude -p "fix it" --output-format stream-json --verbose | agt-streamlog
   agt-streamlog --mode raw rollout.jsonl > rollout.stream.jsonl

Exit status: 0 done, 1 an input could not be read or a data error under
--strict, 2 usage error, 130 interrupted.`)
	app.ArgsUsage = "[PATH...]"
	app.Flags = append(inputFlags(),
		&cli.StringFlag{Name: "mode", Value: transcript.LogSummary, Usage: "raw (every event as JSONL) or summary (readable lines)"},
	)
	app.Flags = append(app.Flags, normalizeFlags()...)
	app.Action = func(c *cli.Context) error {
		cfg, err := parseConfig(c)
		if err != nil {
			return err
		}
		mode := c.String("mode")
		if mode != transcript.LogRaw && mode != transcript.LogSummary {
			return Usagef("--mode %q: want raw or summary", mode)
		}
		n, err := normalizer(c, io)
		if err != nil {
			return err
		}
		cfg.Transform, cfg.Prepare = n.Event, n.Prepare
		inputs, failed := expand(c, io, cfg)
		var sum *transcript.Summary
		var w *stage.Writer
		if mode == transcript.LogSummary {
			w = stage.NewWriter(io.Out)
			sum = transcript.NewSummary(w, isTerminal(io.Out) && os.Getenv("NO_COLOR") == "")
			cfg.Sink = func(evs []agt.Event) error {
				for i := range evs {
					if err := sum.Event(&evs[i]); err != nil {
						return err
					}
				}
				return nil
			}
			cfg.Flush = func() error { // a live run's lines go out as they come
				if err := sum.Flush(); err != nil {
					return err
				}
				return w.Flush()
			}
		}
		st, err := provider.Parse(c.Context, cfg, inputs, io.Out, io.Err)
		if err == nil && sum != nil {
			err = sum.Flush()
		}
		if err == nil && w != nil { // a failed last write (a full disk) is a failure
			err = w.Flush()
		}
		return outcome(st, err, failed)
	}
	return app
}
