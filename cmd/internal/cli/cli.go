// Package cli builds the command-line apps of the agt filters. Each app is a
// function of its standard streams, so tests run the filters in-process; the
// mains in cmd/ only call Main.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/cmd/internal/signals"
	"github.com/agt-project/agt/stage"
	"github.com/urfave/cli/v2"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitFailure     = 1 // an I/O failure, or a data error under --strict
	ExitUsage       = 2
	ExitInterrupted = 130
)

// IO is the standard streams of one run.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
}

// An App builds a filter's app around its streams.
type App func(io IO) *cli.App

// usageError marks errors in how the command was called.
type usageError struct{ error }

// Usagef returns a usage error (exit 2).
func Usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// failure marks errors already reported on stderr that end the run with 1.
type failure struct{ error }

// Failed returns an error that exits with 1 without further text.
func Failed(err error) error { return failure{err} }

func init() {
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version"}
	cli.HelpFlag = &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "print this help"}
	cli.AppHelpTemplate = helpTemplate
	stringer := cli.FlagStringer
	cli.FlagStringer = func(f cli.Flag) string { return noDefault.ReplaceAllString(stringer(f), "") }
}

// helpTemplate is the filters' help: what they do, how to call them, their
// options (no version section, no subcommands).
const helpTemplate = `NAME:
   {{.Name}} - {{.Usage}}

USAGE:
   {{.Name}} [OPTION]... {{.ArgsUsage}}
{{if .Description}}
DESCRIPTION:
   {{template "descriptionTemplate" .}}
{{end}}
OPTIONS:{{range .VisibleFlags}}
   {{.}}{{end}}
`

// noDefault is the default urfave/cli shows for a flag that has none worth
// telling (a boolean's false, a count's 0, an empty string).
var noDefault = regexp.MustCompile(` \(default: (false|0|0s|"")\)$`)

// newApp sets what every agt app shares.
func newApp(io IO, name, usage, description string) *cli.App {
	return &cli.App{
		Name:                 name,
		Usage:                usage,
		Description:          description,
		Version:              agt.Version,
		Reader:               io.In,
		Writer:               io.Out,
		ErrWriter:            io.Err,
		HideHelpCommand:      true,
		EnableBashCompletion: false,
		ExitErrHandler:       func(*cli.Context, error) {},
		Before:               discoverBefore,
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usageError{err}
		},
	}
}

// Run runs app with args (args[0] is the program name) and returns the exit
// code. Errors are written to the app's stderr.
func Run(ctx context.Context, app *cli.App, args []string) int {
	if code, done := docs(app, args); done {
		return code
	}
	defer stage.RemoveSpools() // the copies of databases read from archives
	ordered, missing := reorder(app, args)
	if missing != "" {
		fmt.Fprintf(app.ErrWriter, "%s: flag needs an argument: %s\nRun '%s --help' for usage.\n", app.Name, agt.Printable(missing), app.Name)
		return ExitUsage
	}
	err := app.RunContext(ctx, ordered)
	switch {
	case err == nil, stage.IsClosed(err):
		return ExitOK
	case ctx.Err() != nil && errors.Is(err, context.Canceled), errors.Is(err, context.Canceled) && ctx.Err() != nil:
		return ExitInterrupted
	}
	var u usageError
	if errors.As(err, &u) && errors.Is(u.error, errHinted) {
		return ExitUsage
	}
	if errors.As(err, &u) {
		msg := explainUsage(app, args, u.error).Error()
		fmt.Fprintf(app.ErrWriter, "%s: %s\nRun '%s --help' for usage.\n", app.Name, agt.Printable(msg), app.Name)
		return ExitUsage
	}
	var f failure
	if !errors.As(err, &f) {
		fmt.Fprintf(app.ErrWriter, "%s: %s\n", app.Name, agt.Printable(err.Error()))
	}
	return ExitFailure
}

// gcPercent is the filters' GOGC unless the environment sets one.
const gcPercent = 200

// grace is how long an interrupted run may take to clean up before the
// process ends anyway (a read that cannot be cancelled: a stdin that is
// neither a terminal nor a pipe, a file on a hung network mount).
const grace = 2 * time.Second

// Main runs a filter as a process: SIGINT or SIGTERM end it with 130 (0
// when it follows its inputs: see -f), a closed stdout ends it quietly
// with 0.
func Main(build App) int {
	signal.Ignore(syscall.SIGPIPE)
	widenPipe(os.Stdout)
	widenPipe(os.Stdin)
	if os.Getenv("GOGC") == "" {
		// the filters make garbage at the rate they read (a block per
		// batch) over a small live heap: collecting at 3× the live heap
		// instead of 2× cuts GC work by a third for some more peak memory
		debug.SetGCPercent(gcPercent)
	}
	// the first SIGINT ends ctx: files are read no further, a pipe on stdin
	// is read to its end (its writer got the same interrupt and hands on
	// what it had); a second SIGINT, or SIGTERM, ends the pipe's read too
	// (stage.WithDrainStop)
	sigs := signals.C // caught from the start
	if sigs == nil {
		sigs = make(chan os.Signal, 2)
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	}
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hard := make(chan struct{})
	go func() {
		if s := <-sigs; s == os.Interrupt {
			cancel()
			<-sigs
		}
		cancel()
		close(hard)
	}()
	ctx = stage.WithDrainStop(ctx, hard)
	done := make(chan int, 1)
	go func() { done <- Run(ctx, build(IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}), os.Args) }()
	select {
	case code := <-done:
		return code
	case <-hard:
	}
	// a stream's read blocked on a terminal or a pipe is left behind (its
	// read-ahead, see stage.BlockReader.StopOn): the run ends at once; the
	// grace is for a run that cannot
	select {
	case code := <-done:
		return code
	case <-time.After(grace):
	}
	return ExitInterrupted
}

// onTerminal tells whether r is a stream read from a terminal.
func onTerminal(r io.Reader) bool {
	switch f := r.(type) {
	case *os.File:
		return isTTY(f)
	}
	return false
}
