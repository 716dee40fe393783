package cli

import (
	stdio "io"
	"os"
	"sync/atomic"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
	"github.com/urfave/cli/v2"
)

// Streamlog is agt-streamlog: the stream log writer of agt-transcript as a
// filter on stdout.
func Streamlog(io IO) *cli.App {
	io.Err = stage.Locked(io.Err) // the run's goroutines write to it too
	app := newApp(io, "agt-streamlog", "write a stream log of agent events: raw JSONL or readable lines",
		`Reads provider logs or agt.event/1 events and writes the stream log that
agt-transcript --stream-log writes beside each transcript: --mode raw writes
every (normalized) event as JSONL; --mode summary (the default) is for
watching a run: a header line when a session starts (provider, session id,
model and folder when known), one line per message, tool call and result, a
line with the session's running cost and tokens at each model call's usage
(then the context the call filled, the burn rate per minute over the last 5
minutes, and the tokens by kind; "~" marks figures still provisional), and a
closing line with its totals (cost, tokens, duration, tool calls, errors:
the figures agt-transcript gives it) when it ends. In a live run (-f, or a
pipe on stdin) a tool call still without its result gets a "running" line
every --heartbeat (Bash running 45s). When the output
holds more than one session, lines from the second session on begin with
the session's number (#2). On a terminal, lines are cut to its width
($COLUMNS, else the terminal's) and colored (--color auto: not when NO_COLOR
is set; always and never choose for the output whatever it is); in
a pipe or a file each line is whole, one line per event, control characters
escaped.

   2026-01-28T22:26:40.001Z session    claude 0a1b2c3d · cwd /home/dev/app
   2026-01-28T22:26:46.793Z tool       (claude-opus-4-5) Bash  git status
   2026-01-28T22:26:46.842Z result     Bash  ok  On branch main
   2026-01-28T22:26:47.120Z usage      Σ $0.0421 · 53.5k tok · ctx 27% · 12.3k in · 1.2k out · 40k cache read
   2026-01-28T22:28:02.310Z end        $0.0421 · 53,510 tok · 12,301 in · 1,187 out · 40,022 cache read · claude 0a1b2c3d · 1m22s · 1 tool call

Examples:
   claude -p "fix it" --output-format stream-json --verbose | agt-streamlog
   agt-streamlog --mode raw rollout.jsonl > rollout.stream.jsonl
   agt-streamlog -f ~/.claude/projects/-home-me-app/   # the running session and its subagents, live

`+followHelp+` In summary mode the lines of followed files are headed,
like tail's, by a "==> FILE <==" line whenever the file changes. Sessions
of followed files have no end while they are
followed: their lines carry the running totals, and each gets its closing
line (the totals agt-transcript gives it) when following ends.

Exit status: 0 done (or following ended), 1 an input could not be read or a
data error under --strict, 2 usage error, 130 interrupted.`)
	app.ArgsUsage = "[PATH...]"
	app.Flags = append(inputFlags(),
		&cli.StringFlag{Name: "mode", Value: transcript.LogSummary, Usage: "`MODE`: raw (every event as JSONL) or summary (readable lines)"},
		&cli.StringFlag{Name: "color", Value: "auto", Usage: "`WHEN` summary lines are colored: auto (on a terminal, unless NO_COLOR is set), always or never"},
		&cli.DurationFlag{Name: "heartbeat", Value: 30 * time.Second, Usage: "in a live run (-f, or a pipe on stdin), say every `DURATION` that a tool call still runs without its result (\"Bash running 45s\"); 0: never"},
	)
	app.Flags = append(app.Flags, normalizeFlags()...)
	app.Flags = append(app.Flags, followFlags()...)
	app.Action = func(c *cli.Context) error {
		o, err := streamlogOptions(c, io)
		if err != nil {
			return err
		}
		return runStreamlog(o)
	}
	return app
}

// streamlogOpts is what an agt-streamlog run does, from its flags.
type streamlogOpts struct {
	c       *cli.Context
	io      IO
	cfg     provider.Config
	mode    string // raw or summary
	colored func(out stdio.Writer) bool
	n       *provider.Normalizer
	fl      *stage.Follower
	inputs  []stage.Input
	failed  bool // an input could not be listed
}

// streamlogOptions reads and checks the flags and lists the inputs.
func streamlogOptions(c *cli.Context, io IO) (*streamlogOpts, error) {
	o := &streamlogOpts{c: c, io: io, mode: c.String("mode"), colored: colorModes[c.String("color")]}
	var err error
	if o.cfg, err = parseConfig(c); err != nil {
		return nil, err
	}
	if o.colored == nil {
		return nil, Usagef("--color %q: want auto, always or never", c.String("color"))
	}
	if o.mode != transcript.LogRaw && o.mode != transcript.LogSummary {
		return nil, Usagef("--mode %q: want raw or summary", o.mode)
	}
	if o.n, err = normalizer(c, io); err != nil {
		return nil, err
	}
	o.cfg.Transform, o.cfg.Prepare = o.n.Event, o.n.Prepare
	if o.fl, o.inputs, o.failed, err = start(c, io, o.cfg); err != nil {
		return nil, err
	}
	if c.Duration("heartbeat") < 0 {
		return nil, Usagef("--heartbeat %s: want a duration of 0 or more", c.Duration("heartbeat"))
	}
	return o, nil
}

// runStreamlog writes the stream log to stdout: every event (raw), or the
// summary lines of the sessions as agt-transcript makes them.
func runStreamlog(o *streamlogOpts) error {
	var out stage.Output = stage.NewJSONL(o.io.Out) // --mode raw
	var sum *transcript.Summary
	var cons *transcript.Consolidator
	stopBeat := func() {}
	if o.mode == transcript.LogSummary {
		var unwatch func()
		sum, cons, stopBeat, unwatch = o.summary()
		defer unwatch()
		out = cons
	}
	st, err := read(o.c, o.cfg, o.fl, o.inputs, out, o.io.Err)
	stopBeat()
	if ok := err == nil || interrupted(o.c, err); ok && cons != nil { // interrupted, what was read ends its sessions
		if cerr := cons.Close(); err == nil {
			err = cerr
		}
	}
	if sum != nil { // a failed last write (a full disk) is a failure
		if ferr := sum.Flush(); err == nil {
			err = ferr
		}
	}
	return outcome(st, err, o.failed)
}

// summary makes the summary writer and the consolidator that feeds it,
// the heartbeat's stop, and unwatch, which stops following the
// terminal's width.
func (o *streamlogOpts) summary() (sum *transcript.Summary, cons *transcript.Consolidator, stopBeat, unwatch func()) {
	c, io, fl := o.c, o.io, o.fl
	var to stdio.Writer = stage.NewWriter(io.Out)
	var head *headed
	if fl != nil { // the lines of followed files interleave: say whose they are
		head = &headed{w: to.(*stage.Writer)}
		to = head
	}
	sum = transcript.NewSummary(to, o.colored(io.Out))
	sum.Width = lineWidth(io.Out)
	if fl != nil && fl.FromEnd {
		sum.Past = fl.Past // counted, not shown
	}
	stopBeat = func() {}
	if live(fl, operands(c), io.In) {
		// a live run: events without a time are given the clock's (burn
		// rate), and running tools a heartbeat
		sum.Clock, sum.Heartbeat = time.Now, c.Duration("heartbeat")
		stopBeat = heartbeat(sum)
	}
	// the sessions as agt-transcript makes them: a record several copies
	// hold shows once, and a session's closing line has its transcript's
	// totals; followed (-f), the sessions of the files read side by side
	// are held open until following ends, each line naming its session,
	// and then closed
	cons = transcript.NewConsolidator(provider.UnitKey, false, sumEnd(sum, head))
	cons.Window, cons.Each, cons.Warn = o.n.Window, sum.Event, warner(c, io)
	if head != nil {
		cons.Each = head.each(sum)
	}
	// a terminal resized: the lines from then on take its width
	var cols atomic.Int64
	cols.Store(int64(sum.Width))
	unwatch = watchWidth(io.Out, func(n int) { cols.Store(int64(n)) })
	each := cons.Each
	cons.Each = func(ev *agt.Event) error {
		sum.SetWidth(int(cols.Load())) // on the goroutine that writes the lines
		return each(ev)
	}
	cons.Hold = fl != nil
	cons.Spill = true // the closing line reads no message
	limitMemory()
	cons.Out = sum.Flush // a live run's lines go out as they come
	return sum, cons, stopBeat, unwatch
}

// sumEnd writes a session's closing line; followed (head set), under no
// file's header.
func sumEnd(sum *transcript.Summary, head *headed) transcript.Flush {
	return func(_ string, t *transcript.Transcript, _ []agt.Event) error {
		if head != nil { // a closing line is the session's, under no file's header
			if err := sum.Flush(); err != nil {
				return err
			}
			head.next, head.last = "", ""
		}
		return sum.End(t)
	}
}

// live tells whether agt-streamlog watches a run as it goes: it follows
// files, or reads stdin from a pipe or a terminal (not a file).
func live(fl *stage.Follower, args []string, in stdio.Reader) bool {
	if fl != nil {
		return true
	}
	if len(args) > 0 && args[0] != stage.StdinPath {
		return false
	}
	f, ok := in.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && !fi.Mode().IsRegular()
}

// heartbeat calls sum.Beat every second (or every heartbeat, when shorter)
// until the returned stop is called.
func heartbeat(sum *transcript.Summary) (stop func()) {
	if sum.Heartbeat <= 0 {
		return func() {}
	}
	t := time.NewTicker(min(sum.Heartbeat, time.Second))
	done, over := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		for {
			select {
			case now := <-t.C:
				if sum.Beat(now) != nil {
					return // the output is gone: the run ends on its own
				}
			case <-done:
				return
			}
		}
	}()
	return func() {
		t.Stop()
		close(done)
		<-over
	}
}

// colorModes tell, for each --color, whether lines written to out are
// colored.
var colorModes = map[string]func(out stdio.Writer) bool{
	"auto":   func(out stdio.Writer) bool { return isTerminal(out) && os.Getenv("NO_COLOR") == "" },
	"always": func(stdio.Writer) bool { return true },
	"never":  func(stdio.Writer) bool { return false },
}

// headed writes a header line (tail's "==> FILE <==") before the next
// bytes written, when one is set: a file whose events print nothing gets
// none. Headers after the first follow a blank line, as tail's do.
type headed struct {
	w     *stage.Writer
	next  string
	wrote bool
	last  string // the file of the last event shown
}

// each is the consolidator's Each of a followed run: sum's lines, under a
// header whenever the file changes.
func (h *headed) each(sum *transcript.Summary) func(ev *agt.Event) error {
	return func(ev *agt.Event) error {
		if p := ev.Src.Path; p != h.last {
			if err := sum.Flush(); err != nil { // the lines of the file before go first
				return err
			}
			h.next, h.last = "==> "+agt.Printable(p)+" <==\n", p
		}
		return sum.Event(ev)
	}
}

func (h *headed) Write(p []byte) (int, error) {
	if h.next != "" && len(p) > 0 {
		head := h.next
		if h.wrote {
			head = "\n" + head
		}
		h.next = ""
		if _, err := h.w.Write([]byte(head)); err != nil {
			return 0, err
		}
	}
	h.wrote = h.wrote || len(p) > 0
	return h.w.Write(p)
}

// Flush flushes the writer under it (Summary.Flush asks).
func (h *headed) Flush() error { return h.w.Flush() }
