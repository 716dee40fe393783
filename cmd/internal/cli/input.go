package cli

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
	"github.com/urfave/cli/v2"
)

// expand expands the arguments into inputs, reporting problems; failed
// tells whether any was an I/O failure (or a refusal under --strict).
// Under -q only what fails the run under --strict is printed, as for the
// diagnostics of the parse.
//
// With no path and no --discover, stdin is read, unless it is a terminal:
// then a one-line hint ends the run with 2.
func expand(c *cli.Context, io IO, cfg provider.Config) ([]stage.Input, bool, error) {
	args := operands(c)
	if len(args) == 0 {
		if c.Bool("discover") {
			return nil, false, nil // nothing found
		}
		if onTerminal(io.In) {
			fmt.Fprintf(io.Err, "%s: reading stdin from a terminal: give PATHs, -, or --discover\n", c.App.Name)
			return nil, false, usageError{errHinted}
		}
	}
	inputs, errs := stage.Expand(args, io.In, provider.Claim)
	failed := false
	for _, e := range errs {
		var r *stage.Refused
		refused := errors.As(e, &r)
		if !refused || cfg.Strict {
			failed = true
		}
		if !cfg.Quiet || (refused && cfg.Strict) {
			fmt.Fprintf(io.Err, "%s: %s\n", c.App.Name, agt.Printable(e.Error()))
		}
	}
	if !cfg.Quiet && !c.Bool("follow") {
		for _, a := range c.Args().Slice() {
			if empty(a, inputs) {
				fmt.Fprintf(io.Err, "%s: nothing to read in %s\n", c.App.Name, agt.Printable(a))
			}
		}
	}
	return inputs, failed, nil
}

// empty tells whether the argument a (a path typed, not stdin) is an empty
// file, or a folder in which no input was found: the run reads nothing of
// it, and says so (not a failure: an agent may not have written yet).
func empty(a string, inputs []stage.Input) bool {
	if a == stage.StdinPath {
		return false
	}
	st, err := os.Stat(a)
	switch {
	case err != nil:
		return false // reported by Expand
	case st.Mode().IsRegular():
		return st.Size() == 0
	case !st.IsDir():
		return false
	}
	for _, in := range inputs {
		if in.Walk == a || in.Path == a || strings.HasPrefix(in.Path, strings.TrimSuffix(a, "/")+"/") {
			return false
		}
	}
	return true
}

// errHinted is a usage error whose hint is already printed.
var errHinted = errors.New("hinted")

// sizeUnits are the suffixes parseSize knows, in bytes.
var sizeUnits = []struct {
	suffix string
	n      int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30},
}

// parseSize reads a size in bytes: a whole number, with an optional unit
// (KiB, MiB, GiB, or K, M, G, all powers of 1024); it must be between 1 and
// limit.
func parseSize(s string, limit int64) (int64, error) {
	num, mul := strings.TrimSpace(s), int64(1)
	for _, u := range sizeUnits {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mul = strings.TrimSpace(n), u.n
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 1 || n > limit/mul {
		return 0, fmt.Errorf("%q: want a size from 1 to %d bytes (units KiB, MiB, GiB)", s, limit)
	}
	return n * mul, nil
}

// warner prints a warning of the run as one line on stderr named after the
// filter (none under -q).
func warner(c *cli.Context, io IO) func(string) {
	return func(msg string) {
		if !c.Bool("quiet") {
			fmt.Fprintf(io.Err, "%s: %s\n", c.App.Name, agt.Printable(msg))
		}
	}
}
