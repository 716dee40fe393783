package cli

import (
	goio "io"
	"os"

	"github.com/agt-project/agt"
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
   agt-streamlog -f ~/.claude/projects/-home-me-app/   # the running session and its subagents, live

`+followHelp+` In summary mode the lines of followed files are
headed, like tail's, by a "==> FILE <==" line whenever the file changes.

Exit status: 0 done (or following ended), 1 an input could not be read or a
data error under --strict, 2 usage error, 130 interrupted.`)
	app.ArgsUsage = "[PATH...]"
	app.Flags = append(inputFlags(),
		&cli.StringFlag{Name: "mode", Value: transcript.LogSummary, Usage: "raw (every event as JSONL) or summary (readable lines)"},
	)
	app.Flags = append(app.Flags, normalizeFlags()...)
	app.Flags = append(app.Flags, followFlags()...)
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
		cfg.Transform = n.Event
		fl, err := following(c)
		if err != nil {
			return err
		}
		inputs, failed := expand(c, io, cfg)
		var sum *transcript.Summary
		var w *stage.Writer
		if mode == transcript.LogSummary {
			w = stage.NewWriter(io.Out)
			var to goio.Writer = w
			var head *headed
			if fl != nil { // the lines of followed files interleave: say whose they are
				head = &headed{w: w}
				to = head
			}
			sum = transcript.NewSummary(to, isTerminal(io.Out) && os.Getenv("NO_COLOR") == "")
			last := ""
			cfg.Sink = func(evs []agt.Event) error {
				for i := range evs {
					if p := evs[i].Src.Path; head != nil && p != last {
						if err := sum.Flush(); err != nil { // the lines of the last file go first
							return err
						}
						head.next, last = "==> "+agt.Printable(p)+" <==\n", p
					}
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
		st, err := read(c, io, cfg, fl, inputs)
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

// headed writes a header line (tail's "==> FILE <==") before the next
// bytes written, when one is set: a file whose events print nothing gets
// none.
type headed struct {
	w     goio.Writer
	next  string
	wrote bool
}

func (h *headed) Write(p []byte) (int, error) {
	if h.next != "" && len(p) > 0 {
		sep := "\n"
		if !h.wrote {
			sep = ""
		}
		if _, err := goio.WriteString(h.w, sep+h.next); err != nil {
			return 0, err
		}
		h.next, h.wrote = "", true
	}
	return h.w.Write(p)
}
