package cli

import (
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
func reorder(app *cli.App, args []string) []string {
	if len(args) == 0 {
		return args
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
			if known && takes && !hasValue && i+1 < len(args) {
				i++
				opts = append(opts, args[i])
			}
		}
	}
	if len(operands) == 0 {
		return opts
	}
	return append(append(opts, "--"), operands...)
}
