package cli

import (
	"errors"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// valued tells whether a flag takes a value (a boolean flag takes none).
type valued interface{ TakesValue() bool }

// flagTable maps every name of app's flags (help and version included) to
// whether the flag takes a value.
func flagTable(app *cli.App) map[string]bool {
	t := map[string]bool{}
	flags := append([]cli.Flag{cli.HelpFlag, cli.VersionFlag}, app.Flags...)
	for _, f := range flags {
		if f == nil {
			continue
		}
		v, ok := f.(valued)
		for _, n := range f.Names() {
			t[n] = ok && v.TakesValue()
		}
	}
	return t
}

// reorder moves the options of args (args[0] is the program name) before
// its operands, as GNU tools read them, since urfave/cli stops at the first
// operand: options may follow paths, "--" ends the options (what follows
// is operands, even "-o"), "-" is an operand (stdin), "-j4" is "-j 4", and
// a flag taking a value takes the next argument whatever it looks like
// ("-o -" is the folder "-"). The operands follow a "--", so that one
// that looks like an option after it stays an operand.
//
// A flag taking a value that ends args has none: missing names it as
// typed, so that the "--" put before the operands is not taken for its
// value (`agt-transcript FILE -o` is a usage error, not a folder "--").
func reorder(app *cli.App, args []string) (out []string, missing string) {
	if len(args) == 0 {
		return args, ""
	}
	table := flagTable(app)
	opts, operands := []string{args[0]}, []string{}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case a == "-" || !strings.HasPrefix(a, "-"):
			operands = append(operands, a)
		default:
			name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			takes, known := table[name]
			if !known && !strings.HasPrefix(a, "--") && len(name) > 1 {
				// -j4: a one-letter flag taking a value, its value glued on
				if t, ok := table[name[:1]]; ok && t {
					opts = append(opts, "-"+name[:1], a[2:])
					continue
				}
			}
			opts = append(opts, a)
			if known && takes && !hasValue {
				if i+1 == len(args) {
					missing = a
					continue
				}
				i++
				opts = append(opts, args[i])
			}
		}
	}
	if len(operands) == 0 {
		return opts, missing
	}
	return append(append(opts, "--"), operands...), missing
}

// typedFlag is the argument of args that set the flag name, as typed
// (--formt, -formt, --formt=x), "" when none did; the arguments after
// "--" are operands.
func typedFlag(args []string, name string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") {
			typed, _, _ := strings.Cut(a, "=")
			if strings.TrimLeft(typed, "-") == name {
				return typed
			}
		}
	}
	return ""
}

// nearestFlag is the flag of app (as typed: --name, -n) nearest to the
// unknown name, by edit distance; "" when none is near (more than a third
// of the name's letters, at least 1 and at most 3, would change) or the
// name is shorter than 3 letters.
func nearestFlag(app *cli.App, name string) string {
	if len(name) < 3 {
		return "" // -x: every one-letter flag is as near
	}
	best, bestD := "", min(max(len(name)/3, 1), 3)+1
	var names []string
	for n := range flagTable(app) {
		names = append(names, n)
	}
	slices.Sort(names) // the first of equally near names, whatever the map's order
	for _, n := range names {
		if f := flagOf(app, n); f != nil && isHidden(f) {
			continue
		}
		if d := editDistance(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	switch {
	case best == "":
		return ""
	case len(best) == 1:
		return "-" + best
	}
	return "--" + best
}

// flagOf is app's flag named n, nil for help and version.
func flagOf(app *cli.App, n string) cli.Flag {
	for _, f := range app.Flags {
		if slices.Contains(f.Names(), n) {
			return f
		}
	}
	return nil
}

func isHidden(f cli.Flag) bool {
	v, ok := f.(interface{ IsVisible() bool })
	return ok && !v.IsVisible()
}

// editDistance is the Levenshtein distance of a and b (bytes: flag names
// are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// undefinedFlag is urfave/cli's (the flag package's) error of an unknown
// flag.
const undefinedFlag = "flag provided but not defined: -"

// explainUsage rewrites urfave/cli's error of an unknown flag: it names the
// flag as typed and suggests the nearest.
func explainUsage(app *cli.App, args []string, err error) error {
	name, ok := strings.CutPrefix(err.Error(), undefinedFlag)
	if !ok {
		return err
	}
	typed := typedFlag(args[1:], name)
	if typed == "" {
		typed = "-" + name
	}
	msg := "flag provided but not defined: " + typed
	if near := nearestFlag(app, name); near != "" {
		msg += " (did you mean " + near + "?)"
	}
	return errors.New(msg)
}
