package cli

import (
	"context"
	"errors"
	"fmt"
	goio "io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/export/agentv"
	"github.com/agt-project/agt/export/atif"
	"github.com/agt-project/agt/export/html"
	"github.com/agt-project/agt/export/otlp"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
	"github.com/agt-project/agt/transcript"
	"github.com/urfave/cli/v2"
)

// Transcript is agt-transcript: logs or events in, one agt.transcript/1
// line per session out (or files with -o).
func Transcript(io IO) *cli.App {
	io.Err = stage.Locked(io.Err) // the run's goroutines write to it too
	app := newApp(io, "agt-transcript", "consolidate AI coding agent sessions into agt.transcript/1",
		`Reads provider logs, agt.event/1 events from agt-parse, or normalized events from
agt-normalize (it runs the stages that are missing itself) and writes one
agt.transcript/1 line per session: messages in order, tool calls paired with
their results, usage and cost per message and per session, subagents apart.
A session is one transcript whatever inputs hold it (its subagent and sidechain
files, a backup, an archive, another machine's copy): a record found in several
copies counts once.

Without -o the transcripts go to stdout. With -o DIR each session is written to
DIR/<provider>/<session>.transcript.jsonl through a temporary file and a rename;
names are made safe, nothing is written outside DIR, and a session whose name
another session took gets <session>~<hash>.transcript.jsonl (with a warning).
DIR/.agt-index.json remembers what each input gave, by its absolute path and
its content: a second run skips inputs that did not change (size and
modification time) and whose files are intact, and inputs whose content is
already converted (the same archive or tree typed another way, found by
--discover, a copy), unless --force. A session met again from new inputs is
read again with its earlier inputs and rewritten in place, each record counted
once (its transcript is kept, with a warning, when those are gone). One run at
a time writes to DIR; DIR is never read as input. --stream-log raw adds <session>.stream.jsonl (every event) beside
each transcript, --stream-log summary adds <session>.stream.log (one readable
line per message, tool call and result). --format atif|otlp|agentv writes each
session as an ATIF v1.8 trajectory (atif-v1.7: labelled v1.7; a session without
messages is left out with a warning), an OTLP JSON trace (GenAI conventions) or
AgentV transcript rows instead, one per line on stdout; with -o the transcript
is written all the same and the export beside it (<session>.trajectory.json,
.otlp.jsonl or .agentv.jsonl). --format html writes a self-contained page: on
stdout one session's (a second session is an error: give -o), with -o
<session>.html beside each transcript and DIR/index.html listing every page.

An OTLP trace carries the prompts, replies and tool input and output unless
--no-content. A session whose log states no time (some live output) is dated
when agt-transcript writes it, or at $SOURCE_DATE_EPOCH (seconds) where set.

Examples:
   agt-transcript session.jsonl | jq '.counts'
   codex exec --json "fix the test" | agt-parse | agt-normalize | agt-transcript
   agt-transcript -o out/ ~/.claude/projects ~/.codex/sessions old-sessions.tar.gz
   AGT_STREAM_LOG=summary agt-transcript -o out/ ~/.codex/sessions
   agt-transcript --format otlp ~/.claude/projects > traces.jsonl
   agt-transcript -f ~/.claude/projects/-home-me-app/   # at the end: its sessions, as read whole

`+followHelp+` Followed, the sessions are written when following ends, as
reading the files whole then gives them (-o is not followed). On standard
input, -f tells that the events come from a followed run (agt-parse -f):
their sessions are interleaved, and each is written when the input ends.

Exit status: 0 done (data errors are reported, not fatal), 1 an input could not
be read, the output could not be written, or a data error under --strict,
2 usage error, 130 interrupted.`)
	app.ArgsUsage = "[PATH...]"
	app.Flags = append(inputFlags(),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write `DIR`/<provider>/<session>.transcript.jsonl files instead of stdout", TakesFile: true},
		&cli.StringFlag{Name: "format", Value: "agt", Usage: "write sessions as `FMT`: agt (agt.transcript/1), atif (ATIF v1.8 trajectories; atif-v1.7 labels them v1.7), otlp (OTLP JSON traces, GenAI conventions), agentv (AgentV transcript rows) or html (a page per session; with -o an index.html too); with -o beside each transcript"},
		&cli.BoolFlag{Name: "force", Usage: "with -o: convert inputs even when their output is up to date, and write into a folder of other files"},
		&cli.StringFlag{Name: "stream-log", Value: transcript.LogOff, Usage: "with -o: also write a stream log beside each transcript, `MODE`: false, raw (every event) or summary (readable lines); default $AGT_STREAM_LOG, which only -o runs read"},
		&cli.StringFlag{Name: "log-format", Usage: "deprecated spelling of --stream-log (json = raw)", Hidden: true},
		&cli.BoolFlag{Name: "no-content", Usage: "with --format otlp: leave what was said (messages, system instructions, tool arguments and results) out of the spans; names, times, usage and statuses stay"},
	)
	app.Flags = append(app.Flags, normalizeFlags()...)
	app.Flags = append(app.Flags, followFlags()...)
	for _, f := range app.Flags {
		if b, ok := f.(*cli.BoolFlag); ok && b.Name == "raw" {
			b.Usage = "give each message the untouched provider records it was made from, in its raw field (from the events' raw: agt-parse --raw in a pipe)"
		}
	}
	app.Action = func(c *cli.Context) error {
		o, err := transcriptOptions(c, io)
		if err != nil {
			return err
		}
		if o.out == "" {
			return runTranscript(o)
		}
		return runTranscriptFolder(o)
	}
	return app
}

// transcriptOpts is what an agt-transcript run does, from its flags.
type transcriptOpts struct {
	c      *cli.Context
	io     IO
	cfg    provider.Config
	out    string // -o: the output folder
	fl     *stage.Follower
	format transcript.Export
	mode   string // --stream-log
	n      *provider.Normalizer
	inputs []stage.Input
	failed bool // an input could not be listed
}

// transcriptOptions reads and checks the flags and lists the inputs.
func transcriptOptions(c *cli.Context, io IO) (*transcriptOpts, error) {
	o := &transcriptOpts{c: c, io: io, out: c.String("output")}
	var err error
	if o.cfg, err = parseConfig(c); err != nil {
		return nil, err
	}
	if o.fl, err = following(c); err != nil {
		return nil, err
	}
	if o.fl != nil && o.fl.FromEnd {
		return nil, Usagef("--from-end: agt-transcript writes whole sessions (agt-streamlog -f --from-end shows what comes)")
	}
	if o.fl != nil && o.out != "" {
		return nil, Usagef("-f writes the transcripts to stdout when following ends: leave out -o")
	}
	format, ok := formats[c.String("format")]
	if !ok {
		return nil, Usagef("--format %q: want agt, atif, atif-v1.7, otlp, agentv or html", c.String("format"))
	}
	if format, err = exportOptions(c, format); err != nil {
		return nil, err
	}
	format.Write = leaveOut(format.Write, warner(c, io))
	o.format = format
	if o.mode, err = streamLogMode(c, io, o.out != ""); err != nil {
		return nil, err
	}
	if o.n, err = normalizer(c, io); err != nil {
		return nil, err
	}
	o.cfg.Transform, o.cfg.Prepare = o.n.Event, o.n.Prepare
	if o.inputs, o.failed, err = expand(c, io, o.cfg); err != nil {
		return nil, err
	}
	return o, nil
}

// runTranscript writes the transcripts to stdout.
func runTranscript(o *transcriptOpts) error {
	c, io := o.c, o.io
	if c.String("format") == "html" {
		o.format.Write = html.OnePage(o.format.Write)
	}
	w := stage.NewWriter(io.Out)
	cons := transcript.NewConsolidator(provider.UnitKey, false, func(_ string, t *transcript.Transcript, _ []agt.Event) error { return o.format.Write(w, t) })
	cons.Window, cons.Out, cons.Warn = o.n.Window, w.Flush, warner(c, io)
	cons.Hold = o.fl != nil // followed, sessions interleave: none ends before following does
	// WriteJSON writes spilled messages; an export reads them all
	cons.Spill = o.format.Ext == ""
	if cons.Spill {
		limitMemory()
	}
	cons.Raw = c.Bool("raw") // the records reach the messages
	st, err := read(c, o.cfg, o.fl, o.inputs, cons, io.Err)
	if err == nil || interrupted(c, err) {
		// interrupted, the sessions read so far are written as
		// they stand: a live run's transcript up to the interrupt
		if cerr := cons.Close(); err == nil {
			err = cerr
		}
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return outcome(st, err, o.failed)
}

// runTranscriptFolder writes the transcripts into the folder -o (see
// transcript.Folder).
func runTranscriptFolder(o *transcriptOpts) error {
	c, io, cfg, out := o.c, o.io, o.cfg, o.out
	start := time.Now()
	if err := foreignFolder(out); err != nil && !c.Bool("force") {
		return err
	}
	if err := os.MkdirAll(out, 0o777); err != nil {
		return err
	}
	inputs := outsideOf(c, io, out, o.inputs)
	fc := transcript.FolderConfig{StreamLog: o.mode, Salt: runSalt(c, o.mode, o.n), Force: c.Bool("force"), UnitKey: provider.UnitKey, Writers: cfg.Workers,
		List: func(archive string) []stage.Input {
			listed, _ := stage.Expand([]string{archive}, nil, provider.Claim)
			return listed
		}}
	if o.format.Ext != "" {
		fc.Exports = []transcript.Export{o.format}
	}
	if c.String("format") == "html" {
		fc.Saved = func(ix *transcript.Index) error { return html.WriteIndexDir(out, html.Pages(ix)) }
	}
	f, err := transcript.OpenFolder(out, fc)
	if err != nil {
		return err
	}
	inputs = f.Inputs(inputs)
	cfg.Skip, cfg.Recall = f.Skip, f.Recall
	var bar *progress
	diag := io.Err // the bar, when drawn: it clears itself for each message
	if !cfg.Quiet && isTerminal(io.Err) {
		bar = newProgress(io.Err, inputs)
		cfg.Progress = bar.update
		diag = bar
	}
	if !cfg.Quiet {
		f.SetWarn(func(msg string) { fmt.Fprintf(diag, "%s: %s\n", c.App.Name, msg) })
	}
	cons := transcript.NewConsolidator(provider.UnitKey, o.mode != transcript.LogOff, f.Write)
	cons.Window, cons.Group, cons.Warn = o.n.Window, f.Group, warner(c, io)
	cons.Spill = len(fc.Exports) == 0
	if cons.Spill && o.mode == transcript.LogOff { // a stream log holds the events
		limitMemory()
	}
	cons.Raw = c.Bool("raw")
	st, err := read(c, cfg, nil, inputs, cons, diag)
	if bar != nil {
		bar.clear()
	}
	if err == nil {
		err = cons.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if interrupted(c, err) && !cfg.Quiet {
		fmt.Fprintf(io.Err, "agt-transcript: interrupted: %s written; the sessions being read were not (run again to convert them)\n", plural(int64(f.Transcripts()), "session"))
	}
	if err != nil {
		return outcome(st, err, o.failed)
	}
	if !cfg.Quiet {
		fmt.Fprintf(io.Err, "agt-transcript: %s\n", runLine(int64(f.Transcripts()), st, time.Since(start)))
	}
	return outcome(st, nil, o.failed)
}

// softMemoryLimit is the soft memory limit of a run whose memory is its
// work in flight and state that grows slowly with a session (agt-parse,
// agt-normalize, transcripts that spill their messages), unless
// GOMEMLIMIT sets one.
const softMemoryLimit = 256 << 20

// limitMemory sets softMemoryLimit: a long session's parser state and
// spilled messages are a live heap that grows slowly, which the filters'
// GOGC of 200 would let triple (agt-parse peaked at 561 MB for 209 MB live
// on a 2 GB Codex rollout, 270 MB with the limit, for about the same CPU);
// past the limit the collector works more instead (and a larger live heap
// still runs: the runtime bounds the collector's share of the CPU). A run
// that holds whole sessions (an export) does not set it.
//
// Under the limit such a run also collects later, at 4× its live heap
// (boundedGCPercent) rather than the filters' 3×, unless GOGC is set: its
// peak is bounded by the limit whatever its GOGC, and collections were a
// tenth of the fused run's CPU.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(boundedGCPercent)
		}
	}
}

// boundedGCPercent is the GOGC of a run under softMemoryLimit: 8 to 9 %
// less CPU than 200 for the fused run over the bench trees, for 20 MB
// more peak memory there (72 -> 94 MB Claude Code, 86 -> 104 MB Codex).
const boundedGCPercent = 300

// foreignFolder refuses (a usage error) an output folder that holds files
// of the user's and no index of an earlier run: -o into the wrong folder
// (a project, the logs themselves) would write beside them without a
// word. A folder that does not exist, is empty, or holds nothing but what
// agt writes (its index and its temporary copies, its lock, its provider
// folders) is taken; --force takes any.
func foreignFolder(out string) error {
	entries, err := os.ReadDir(out)
	if err != nil {
		return nil // none yet (or unreadable: Lock says why)
	}
	var theirs []string
	for _, e := range entries {
		switch n := e.Name(); {
		case n == transcript.IndexName:
			return nil
		case n == transcript.LockName || strings.HasPrefix(n, transcript.IndexName+".tmp-") || provider.Lookup(n) != nil || n == "unknown":
		default:
			theirs = append(theirs, n)
		}
	}
	if len(theirs) == 0 {
		return nil
	}
	more := ""
	if len(theirs) > 3 {
		theirs, more = theirs[:3], ", …"
	}
	return Usagef("-o %s: the folder holds other files (%s%s) and no %s of an earlier run: give a new or empty folder, or --force to write beside them",
		out, strings.Join(theirs, ", "), more, transcript.IndexName)
}

// runLine is the closing line of a -o run: sessions written, inputs
// skipped, and what was read at what rate; a run that read nothing says
// so instead of a rate of nothing.
func runLine(sessions int64, st provider.Stats, el time.Duration) string {
	line := fmt.Sprintf("%s, %s skipped as up to date", plural(sessions, "session"), plural(st.Skipped, "input"))
	switch {
	case st.Bytes == 0 && st.Events == 0 && st.Skipped > 0:
		return line + ": nothing new to convert (--force converts them again)"
	case st.Bytes == 0 && st.Events == 0:
		return line + ": nothing read"
	}
	sec := max(el.Seconds(), 1e-3)
	return fmt.Sprintf("%s, %s, %s, %s in %.2fs (%s/s)", line, plural(st.Events, "event"), plural(st.Errors, "error"),
		size(float64(st.Bytes)), el.Seconds(), size(float64(st.Bytes)/sec))
}

// plural is n and the noun, in the plural unless n is 1.
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// size is a number of bytes in MB, or in KB below a tenth of a MB.
func size(b float64) string {
	if b < 1e5 {
		return fmt.Sprintf("%.1f KB", b/1e3)
	}
	return fmt.Sprintf("%.1f MB", b/1e6)
}

// formats are the values of --format: how a session is written to stdout,
// and the ending of the file written beside its transcript with -o (none:
// the transcript alone).
var formats = map[string]transcript.Export{
	"agt":       {Write: transcript.WriteJSON},
	"atif":      {Ext: atif.Ext, Write: atif.Write},
	"atif-v1.7": {Ext: atif.Ext, Write: atif.WriteV17},
	"otlp":      {Ext: otlp.Ext, Write: otlp.Write},
	"agentv":    {Ext: agentv.Ext, Write: agentv.Write},
	"html":      {Ext: html.Ext, Write: html.Write},
}

// leaveOut is write, but a session the format has nothing to show for
// (export.ErrNothing) is left out with a warning instead of failing the run.
func leaveOut(write func(goio.Writer, *transcript.Transcript) error, warn func(string)) func(goio.Writer, *transcript.Transcript) error {
	return func(w goio.Writer, t *transcript.Transcript) error {
		err := write(w, t)
		if errors.Is(err, export.ErrNothing) {
			warn(err.Error())
			return nil
		}
		return err
	}
}

// runSalt is what, beside the inputs, decides the files of a run: the
// version, the stream log mode, and every option that changes events or
// transcripts (the price table by its content, as loaded).
func runSalt(c *cli.Context, mode string, n *provider.Normalizer) string {
	salt := []string{agt.Version, "stream-log=" + mode, "to=" + c.String("to"), "prices=" + n.Prices.Sum(),
		"provider=" + c.String("provider"), "raw=" + fmt.Sprint(c.Bool("raw")), "format=" + c.String("format")}
	if c.Bool("no-content") {
		salt = append(salt, "no-content")
	}
	return strings.Join(salt, "\x00")
}

// exportOptions applies the options of an export to its writer: for otlp,
// --no-content and the clock of a session that states no time
// (SOURCE_DATE_EPOCH, in seconds, where set: reproducible output; else the
// time the session is written).
func exportOptions(c *cli.Context, f transcript.Export) (transcript.Export, error) {
	if c.String("format") != "otlp" {
		if c.Bool("no-content") {
			return f, Usagef("--no-content: only with --format otlp")
		}
		return f, nil
	}
	o := otlp.Options{NoContent: c.Bool("no-content")}
	if v, ok := os.LookupEnv("SOURCE_DATE_EPOCH"); ok {
		sec, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return f, Usagef("SOURCE_DATE_EPOCH %q: want seconds since 1970", v)
		}
		o.Now = func() time.Time { return time.Unix(sec, 0) }
	}
	f.Write = o.Write
	return f, nil
}

// outsideOf drops the inputs that lie in the output folder out (found by a
// walk, or named), so that a run never reads its own output back; a named
// argument in it gets a warning.
func outsideOf(c *cli.Context, io IO, out string, inputs []stage.Input) []stage.Input {
	inOut := transcript.InFolder(out)
	for _, a := range operands(c) {
		if inOut(a) && !c.Bool("quiet") {
			fmt.Fprintf(io.Err, "%s: %s: in the output folder %s; not read\n", c.App.Name, a, out)
		}
	}
	kept := inputs[:0:0]
	for _, in := range inputs {
		if !inOut(in.Path) {
			kept = append(kept, in)
		}
	}
	return kept
}

// outcome turns a run's end into the app's error: a data error under
// --strict or unreadable inputs fail the run (exit 1) after their report.
// interrupted tells whether err is the end of a run by an interrupt.
func interrupted(c *cli.Context, err error) bool {
	return errors.Is(err, context.Canceled) && c.Context.Err() != nil
}

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
// AGT_STREAM_LOG counts only with -o: a stdout run ignores it, while an
// explicit --stream-log without -o is a usage error.
func streamLogMode(c *cli.Context, io IO, dir bool) (string, error) {
	mode := c.String("stream-log")
	env := false
	if !c.IsSet("stream-log") {
		if v, ok := os.LookupEnv("AGT_STREAM_LOG"); ok && dir {
			mode, env = v, true
		}
	}
	if old := c.String("log-format"); old != "" {
		// the new spelling wins when both are given
		fmt.Fprintln(io.Err, "agt-transcript: --log-format is deprecated; use --stream-log raw|summary")
		oldMode, ok := map[string]string{"json": transcript.LogRaw, "summary": transcript.LogSummary}[old]
		if !ok {
			return "", Usagef("--log-format %q: want json or summary", old)
		}
		if c.IsSet("stream-log") {
			if mode != oldMode {
				fmt.Fprintf(io.Err, "agt-transcript: --stream-log %s wins over --log-format %s\n", mode, old)
			}
		} else {
			mode, env = oldMode, false
		}
	}
	switch mode {
	case "", "0", "no", "off", "none":
		mode = transcript.LogOff
	case transcript.LogOff, transcript.LogRaw, transcript.LogSummary:
	default:
		if env {
			return "", Usagef("AGT_STREAM_LOG=%q: want false, raw or summary", mode)
		}
		return "", Usagef("--stream-log %q: want false, raw or summary", mode)
	}
	if mode != transcript.LogOff && !dir {
		return "", Usagef("--stream-log %s needs -o DIR", mode)
	}
	return mode, nil
}
