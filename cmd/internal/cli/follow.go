package cli

import (
	"context"
	"errors"
	"fmt"
	stdio "io"
	"os"
	"slices"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
	"github.com/urfave/cli/v2"
)

// followFlags are the flags of follow mode, shared by the filters that
// read provider input as it is written.
func followFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep reading files as they grow and read new files in the folders given, until interrupted (exit 0)"},
		&cli.DurationFlag{Name: "follow-timeout", Usage: "with -f: end once no followed file has grown and no new file has appeared for `DURATION` (30s, 5m)"},
		&cli.BoolFlag{Name: "from-end", Usage: "with -f: follow from the end of the files there now (as tail -n 0 -f): what they hold is read for each session's totals, not shown"},
	}
}

// followHelp is the part of the filters' help about -f.
const followHelp = `With -f (--follow) the files are read as they grow, like tail -f, from their
start, and files that appear in the folders given are read as they come (a
session and its subagents, live). Only whole lines are read while a file is
being written; a file that shrinks is read again as a new file (its lines
numbered from 1); a file replaced by a rename is read on from where it was
when it goes on from what was read (an atomic rewrite), else as a new file;
a followed file met under a new name (log rotation) is not read again; a
file removed is left. A JSON document (Gemini CLI up to 0.38, Cline, Continue:
written again whole at each message) is read again when it changes, and
only the events of records it did not hold are written. Databases and
agent stores (OpenCode, Crush) and archives are read once, as they are
when following starts, and one line on stderr names them; stdin is read
as a stream. The followed files
are read side by side; the files of one session (a Claude Code session and
its subagent files) are read as one input, so that their events make one
session, as when the files are read whole. Following ends with an interrupt
(SIGINT, SIGTERM) or after --follow-timeout without growth: the files are
then read to their end and the run ends with 0. With --from-end, what the
files hold when following starts is read but not shown (as tail -n 0 -f):
only what is written from then on is, and each session's header in
agt-streamlog gives its totals so far.`

// following reads -f and --follow-timeout: the follower, or nil without -f.
func following(c *cli.Context) (*stage.Follower, error) {
	if !c.Bool("follow") {
		for _, name := range []string{"follow-timeout", "from-end"} {
			if c.IsSet(name) {
				return nil, Usagef("--%s needs -f", name)
			}
		}
		return nil, nil
	}
	idle := c.Duration("follow-timeout")
	if idle < 0 || idle == 0 && c.IsSet("follow-timeout") { // a 0 given would follow for ever, as leaving the flag out does
		return nil, Usagef("--follow-timeout %v: want a duration above 0 (leave it out to follow until an interrupt)", idle)
	}
	args := operands(c)
	if len(args) > 1 && slices.Contains(args, stage.StdinPath) {
		return nil, Usagef("-f: standard input (-) cannot be followed with other paths (a read from it cannot be stopped): give it a filter of its own")
	}
	return &stage.Follower{Idle: idle, FromEnd: c.Bool("from-end")}, nil
}

// serialEnv, set, makes a run say on stderr how long its one ordered step
// took (stage.Stats.Apply): make bench divides it by the run's CPU time,
// the serial share. It is for measuring, not a user's option.
const serialEnv = "AGT_DEBUG_SERIAL"

// read runs the pipeline from the inputs, followed with a follower (else
// read once), to out; diagnostics go to diag.
func read(c *cli.Context, cfg provider.Config, fl *stage.Follower, inputs []stage.Input, out stage.Output, diag stdio.Writer) (provider.Stats, error) {
	ctx := c.Context
	args := operands(c)
	// a pipe is read as it comes anyway: -f changes only that an
	// interrupt is its normal end
	piped := fl != nil && (len(args) == 0 || args[0] == stage.StdinPath)
	var src *provider.Source
	var err error
	if fl != nil && !piped {
		src, err = provider.FollowSource(ctx, cfg, fl, args, inputs, diag)
	} else {
		src, err = provider.NewSource(ctx, cfg, inputs)
	}
	if err != nil {
		return provider.Stats{}, err
	}
	if _, whole := out.(*transcript.Consolidator); fl != nil && fl.FromEnd && !whole {
		out = stage.Since(out, fl.Past) // --from-end: the past is read, not written
	}
	st, err := provider.Run(ctx, cfg, src, out, diag)
	if os.Getenv(serialEnv) != "" {
		fmt.Fprintf(diag, "%s: ordered apply step: %.6f s\n", c.App.Name, st.Apply.Seconds())
	}
	if piped && errors.Is(err, context.Canceled) && ctx.Err() != nil {
		err = nil
	}
	return st, err
}
