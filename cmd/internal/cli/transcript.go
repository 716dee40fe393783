package cli

import (
	"context"
	"errors"
	"fmt"
	goio "io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/export/agentv"
	"github.com/agt-project/agt/export/atif"
	"github.com/agt-project/agt/export/otlp"
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
.otlp.jsonl or .agentv.jsonl).

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
		&cli.StringFlag{Name: "format", Value: "agt", Usage: "write sessions as `FMT`: agt (agt.transcript/1), atif (ATIF v1.8 trajectories; atif-v1.7 labels them v1.7), otlp (OTLP JSON traces, GenAI conventions) or agentv (AgentV transcript rows); with -o beside each transcript"},
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
		cfg, err := parseConfig(c)
		if err != nil {
			return err
		}
		out := c.String("output")
		fl, err := following(c)
		if err != nil {
			return err
		}
		if fl != nil && fl.FromEnd {
			return Usagef("--from-end: agt-transcript writes whole sessions (agt-streamlog -f --from-end shows what comes)")
		}
		if fl != nil && out != "" {
			return Usagef("-f writes the transcripts to stdout when following ends: leave out -o")
		}
		format, ok := formats[c.String("format")]
		if !ok {
			return Usagef("--format %q: want agt, atif, atif-v1.7, otlp or agentv", c.String("format"))
		}
		if format, err = exportOptions(c, format); err != nil {
			return err
		}
		format.Write = leaveOut(format.Write, warner(c, io))
		mode, err := streamLogMode(c, io, out != "")
		if err != nil {
			return err
		}
		n, err := normalizer(c, io)
		if err != nil {
			return err
		}
		cfg.Transform, cfg.Prepare = n.Event, n.Prepare
		inputs, failed, err := expand(c, io, cfg)
		if err != nil {
			return err
		}
		start := time.Now()
		if out == "" {
			w := stage.NewWriter(io.Out)
			cons := transcript.NewConsolidator(provider.UnitKey, false, func(_ string, t *transcript.Transcript, _ []agt.Event) error { return format.Write(w, t) })
			cons.Window, cons.Out, cons.Warn = n.Window, w.Flush, warner(c, io)
			cons.Hold = fl != nil // followed, sessions interleave: none ends before following does
			// WriteJSON writes spilled messages; an export reads them all
			cons.Spill = format.Ext == ""
			if cons.Spill {
				limitMemory()
			}
			cons.Raw = c.Bool("raw") // the records reach the messages
			st, err := read(c, cfg, fl, inputs, cons, io.Err)
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
			return outcome(st, err, failed)
		}

		if err := foreignFolder(out); err != nil && !c.Bool("force") {
			return err
		}
		if err := os.MkdirAll(out, 0o777); err != nil {
			return err
		}
		inputs = outsideOf(c, io, out, inputs)
		unlock, err := transcript.Lock(out)
		if err != nil {
			return err
		}
		defer unlock()
		ix, err := transcript.LoadIndex(out, runSalt(c, mode, n))
		if err != nil {
			return err
		}
		defer ix.Close()
		groups := &groupOf{of: map[string]string{}}
		if !c.Bool("force") {
			cfg.Skip = func(unit string, files []stage.Input) bool { groups.note(unit, files); return ix.Fresh(unit, files) }
		} else {
			cfg.Skip = func(unit string, files []stage.Input) bool {
				groups.note(unit, files)
				ix.Note(unit, files)
				return false
			}
		}
		d, err := transcript.OpenDir(out, mode, ix)
		if err != nil {
			return err
		}
		if format.Ext != "" {
			d.Exports = []transcript.Export{format}
		}
		wrap, readFailed := watchReads(groups.unit)
		inputs, d.Failed = wrap(ix.Watch(inputs)), readFailed
		cfg.Recall = recall(ix, inputs, c.Bool("force"), wrap, inFolder(out))
		var bar *progress
		diag := io.Err // the bar, when drawn: it clears itself for each message
		if !cfg.Quiet && isTerminal(io.Err) {
			bar = newProgress(io.Err, inputs)
			cfg.Progress = bar.update
			diag = bar
		}
		if !cfg.Quiet {
			d.Warn = func(msg string) { fmt.Fprintf(diag, "%s: %s\n", c.App.Name, msg) }
		}
		cons := transcript.NewConsolidator(provider.UnitKey, mode != transcript.LogOff, d.Flush)
		cons.Window, cons.Group, cons.Warn = n.Window, d.Group, warner(c, io)
		cons.Spill = len(d.Exports) == 0
		if cons.Spill && mode == transcript.LogOff { // a stream log holds the events
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
		// the last unit is recorded only now that its files are in place;
		// interrupted, the sessions still open are not written (their
		// inputs were not read to the end: a re-run converts them), and
		// those written are recorded, so that a re-run skips them
		if cerr := d.Close(); err == nil {
			err = cerr
		}
		if serr := ix.Save(); err == nil {
			err = serr
		}
		if interrupted(c, err) && !cfg.Quiet {
			fmt.Fprintf(io.Err, "agt-transcript: interrupted: %s written; the sessions being read were not (run again to convert them)\n", plural(int64(d.Transcripts()), "session"))
		}
		if err != nil {
			return outcome(st, err, failed)
		}
		if !cfg.Quiet {
			fmt.Fprintf(io.Err, "agt-transcript: %s\n", runLine(int64(d.Transcripts()), st, time.Since(start)))
		}
		return outcome(st, nil, failed)
	}
	return app
}

// spillMemoryLimit is the soft memory limit of a run whose transcripts
// spill their messages, unless GOMEMLIMIT sets one.
const spillMemoryLimit = 256 << 20

// limitMemory sets spillMemoryLimit: a long session's spilled messages
// are a live heap that grows slowly (about a fifth of its transcript,
// compressed), which the filters' GOGC of 200 would let triple; past the
// limit the collector works more instead (and a larger live heap still
// runs: the runtime bounds the collector's share of the CPU).
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(spillMemoryLimit)
	}
}

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

// groupOf remembers the group (the inputs of one session, named by the
// unit key of its first file) each input was read in.
type groupOf struct {
	mu sync.Mutex
	of map[string]string
}

func (g *groupOf) note(unit string, files []stage.Input) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, f := range files {
		g.of[f.Path] = unit
	}
}

// unit is the group of path, or its own unit before its group is known.
func (g *groupOf) unit(path string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if u, ok := g.of[path]; ok {
		return u
	}
	return provider.UnitKey(path)
}

// watchReads gives a wrapper of inputs such that a failed open or read
// marks the group of units the input is read in (unitOf, asked when it
// fails): failed reports it, so that a group whose input could not be read
// whole is not recorded as done.
func watchReads(unitOf func(path string) string) (wrap func([]stage.Input) []stage.Input, failed func(unit string) bool) {
	var mu sync.Mutex
	bad := map[string]bool{}
	mark := func(path string) {
		unit := unitOf(path)
		mu.Lock()
		bad[unit] = true
		mu.Unlock()
	}
	wrap = func(inputs []stage.Input) []stage.Input {
		out := make([]stage.Input, len(inputs))
		for i, in := range inputs {
			path, open := in.Path, in.Open
			in.Open = func() (goio.ReadCloser, error) {
				rc, err := open()
				if err != nil {
					mark(path)
					return nil, err
				}
				return &watched{ReadCloser: rc, fail: func() { mark(path) }}, nil
			}
			out[i] = in
		}
		return out
	}
	return wrap, func(unit string) bool {
		mu.Lock()
		defer mu.Unlock()
		return bad[unit]
	}
}

// recall is the Recall of a -o run (provider.Config): a session whose
// group is not up to date is read together with the inputs the index says
// earlier runs read it from (those still there, and not among this run's
// inputs), so that a session met again is merged into its transcript by
// the union rule of one run. Under --force every session is.
//
// Only absolute paths outside the output folder are read (skip, for the
// others): the index is a file of that folder, and whatever it says, the
// folder is never read back.
func recall(ix *transcript.Index, inputs []stage.Input, force bool, wrap func([]stage.Input) []stage.Input, skip func(path string) bool) func(prov, native string, files []stage.Input) []stage.Input {
	own := map[string]bool{}
	for _, in := range inputs {
		own[ix.Key(in.Path)] = true
	}
	archives := map[string]map[string]stage.Input{} // archive → its members, listed once
	return func(prov, native string, files []stage.Input) []stage.Input {
		if !force && ix.Known(provider.UnitKey(agt.PathText(files[0].Path)), files) {
			return nil
		}
		var out []stage.Input
		for _, p := range ix.Recall(agt.SessionID(prov, native), func(k string) bool { return own[k] || !filepath.IsAbs(k) || skip(k) }) {
			file, _, member := strings.Cut(p, "!/")
			if !member {
				out = append(out, stage.FileInput(p))
				continue
			}
			ms, ok := archives[file]
			if !ok {
				ms = map[string]stage.Input{}
				listed, _ := stage.Expand([]string{file}, nil, provider.Claim)
				for _, in := range listed {
					ms[in.Path] = in
				}
				archives[file] = ms
			}
			if in, ok := ms[p]; ok {
				out = append(out, in)
			}
		}
		for _, in := range out {
			own[ix.Key(in.Path)] = true // read once
		}
		return wrap(ix.Watch(out))
	}
}

// watched is a reader that reports a read error other than the end.
type watched struct {
	goio.ReadCloser
	fail func()
}

func (w *watched) Read(p []byte) (int, error) {
	n, err := w.ReadCloser.Read(p)
	if err != nil && err != goio.EOF {
		w.fail()
	}
	return n, err
}

// outsideOf drops the inputs that lie in the output folder out (found by a
// walk, or named), so that a run never reads its own output back; a named
// argument in it gets a warning.
func outsideOf(c *cli.Context, io IO, out string, inputs []stage.Input) []stage.Input {
	inOut := inFolder(out)
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

// inFolder tells whether a path lies in the folder out (by its path, or
// with links resolved; an archive member by its archive).
func inFolder(out string) func(p string) bool {
	abs, err := filepath.Abs(out)
	if err != nil {
		return func(string) bool { return false }
	}
	roots := []string{abs}
	if r, err := filepath.EvalSymlinks(abs); err == nil && r != abs {
		roots = append(roots, r)
	}
	within := func(p string) bool {
		for _, r := range roots {
			if p == r || strings.HasPrefix(p, r+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	resolved := map[string]string{} // folder → its path with links resolved
	inOut := func(p string) bool {
		if p == stage.StdinPath {
			return false
		}
		if i := strings.Index(p, "!/"); i >= 0 { // an archive member: the archive
			p = p[:i]
		}
		a, err := filepath.Abs(p)
		if err != nil {
			return false
		}
		if within(a) {
			return true
		}
		dir := filepath.Dir(a)
		r, ok := resolved[dir]
		if !ok {
			r, _ = filepath.EvalSymlinks(dir)
			resolved[dir] = r
		}
		return r != "" && within(filepath.Join(r, filepath.Base(a)))
	}
	return inOut
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
