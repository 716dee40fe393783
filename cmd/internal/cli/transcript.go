package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
	"github.com/urfave/cli/v2"
)

// Transcript is agt-transcript: logs or events in, one agt.transcript/1
// line per session out (or files with -o).
func Transcript(io IO) *cli.App {
	app := newApp(io, "agt-transcript", "consolidate AI coding agent sessions into agt.transcript/1",
		`Reads provider logs, agt.event/1 events from agt-parse, or normalized events from
agt-normalize (it runs the stages that are missing itself) and writes one
agt.transcript/1 line per session: messages in order, tool calls paired with
their results, usage and cost per message and per session, subagents apart.

Without -o the transcripts go to stdout. With -o DIR each session is written to
DIR/<provider>/<session>.transcript.jsonl through a temporary file and a rename;
a second run skips inputs that did not change (size and modification time)
unless --force. --stream-log raw adds <session>.stream.jsonl (every event)
beside each transcript, --stream-log summary adds <session>.stream.log (one
readable line per message, tool call and result).

Examples:
   agt-transcript session.jsonl | jq '.counts'
   codex exec --json "fix the test" | agt-parse | agt-normalize | agt-transcript
   agt-transcript -o out/ ~/.claude/projects ~/.codex/sessions old-sessions.tar.gz
   AGT_STREAM_LOG=summary agt-transcript -o out/ ~/.codex/sessions

Exit status: 0 done (data errors are reported, not fatal), 1 an input could not
be read, the output could not be written, or a data error under --strict,
2 usage error, 130 interrupted.`)
	app.ArgsUsage = "[PATH...]"
	app.Flags = append(inputFlags(),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write DIR/<provider>/<session>.transcript.jsonl files instead of stdout", TakesFile: true},
		&cli.BoolFlag{Name: "force", Usage: "with -o: convert inputs even when their output is up to date"},
		&cli.StringFlag{Name: "stream-log", Value: transcript.LogOff, EnvVars: []string{"AGT_STREAM_LOG"}, Usage: "with -o: also write a stream log beside each transcript: false, raw (every event) or summary (readable lines)"},
		&cli.StringFlag{Name: "log-format", Usage: "deprecated spelling of --stream-log (json = raw)", Hidden: true},
	)
	app.Flags = append(app.Flags, normalizeFlags()...)
	app.Action = func(c *cli.Context) error {
		cfg, err := parseConfig(c)
		if err != nil {
			return err
		}
		mode, err := streamLogMode(c, io)
		if err != nil {
			return err
		}
		out := c.String("output")
		if mode != transcript.LogOff && out == "" {
			return Usagef("--stream-log %s needs -o DIR", mode)
		}
		if cfg.Transform, err = normalizer(c, io); err != nil {
			return err
		}
		inputs, failed := expand(c, io, cfg)
		start := time.Now()
		var flush transcript.Flush
		var ix *transcript.Index
		if out == "" {
			w := stage.NewWriter(io.Out)
			flush = transcript.Lines(w)
			defer w.Flush()
		} else {
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			salt := strings.Join([]string{agt.Version, mode, c.String("to"), c.String("prices"), fmt.Sprint(cfg.Opts.Raw)}, "\x00")
			if ix, err = transcript.LoadIndex(out, salt); err != nil {
				return err
			}
			if !c.Bool("force") {
				cfg.Skip = ix.Fresh
			} else {
				cfg.Skip = func(unit string, files []stage.Input) bool { ix.Fresh(unit, files); return false }
			}
			d := &transcript.Dir{Root: out, StreamLog: mode, Written: ix.Done}
			flush = d.Flush
		}
		cons := transcript.NewConsolidator(provider.UnitKey, mode != transcript.LogOff, flush)
		cfg.Sink = cons.Add
		var bar *progress
		if out != "" && !cfg.Quiet && isTerminal(io.Err) {
			bar = newProgress(io.Err, inputs)
			cfg.Progress = bar.update
		}
		st, err := provider.Parse(c.Context, cfg, inputs, io.Out, io.Err)
		if bar != nil {
			bar.clear()
		}
		if err == nil {
			err = cons.Close()
		}
		if ix != nil {
			if serr := ix.Save(); err == nil {
				err = serr
			}
		}
		if err != nil {
			return outcome(st, err, failed)
		}
		if out != "" && !cfg.Quiet {
			el := time.Since(start).Seconds()
			fmt.Fprintf(io.Err, "agt-transcript: %d sessions, %d inputs skipped as up to date, %d events, %d errors, %.1f MB in %.2fs (%.1f MB/s)\n",
				cons.Sessions(), st.Skipped, st.Events, st.Errors, float64(st.Bytes)/1e6, el, float64(st.Bytes)/1e6/el)
		}
		return outcome(st, nil, failed)
	}
	return app
}

// outcome turns a run's end into the app's error: a data error under
// --strict or unreadable inputs fail the run (exit 1) after their report.
func outcome(st provider.Stats, err error, failed bool) error {
	if errors.Is(err, provider.ErrData) {
		return Failed(err)
	}
	if err != nil {
		return err
	}
	if failed || st.Unreadable > 0 {
		return Failed(errors.New("some inputs could not be read"))
	}
	return nil
}

// streamLogMode reads --stream-log and its deprecated spelling.
func streamLogMode(c *cli.Context, io IO) (string, error) {
	mode := c.String("stream-log")
	if old := c.String("log-format"); old != "" {
		fmt.Fprintln(io.Err, "agt-transcript: --log-format is deprecated; use --stream-log raw|summary")
		switch old {
		case "json":
			mode = transcript.LogRaw
		case "summary":
			mode = transcript.LogSummary
		default:
			return "", Usagef("--log-format %q: want json or summary", old)
		}
	}
	switch mode {
	case transcript.LogOff, transcript.LogRaw, transcript.LogSummary:
		return mode, nil
	case "", "0", "no", "off", "none":
		return transcript.LogOff, nil
	}
	return "", Usagef("--stream-log %q: want false, raw or summary", mode)
}

// expand expands the arguments into inputs, reporting problems; failed
// tells whether any was an I/O failure (or a refusal under --strict).
func expand(c *cli.Context, io IO, cfg provider.Config) ([]stage.Input, bool) {
	inputs, errs := stage.Expand(c.Args().Slice(), io.In, provider.Claim)
	failed := false
	for _, e := range errs {
		var r *stage.Refused
		if !errors.As(e, &r) || cfg.Strict {
			failed = true
		}
		fmt.Fprintf(io.Err, "%s: %s\n", c.App.Name, agt.Printable(e.Error()))
	}
	return inputs, failed
}
