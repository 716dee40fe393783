package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agt-project/agt/cmd/internal/report"
	"github.com/agt-project/agt/provider"
	"github.com/urfave/cli/v2"
)

// Every filter prints its shell completion (--completion SHELL) and, for
// `make man`, its man page (--man, hidden), both made from its flags.
var (
	completionFlag = &cli.StringFlag{Name: "completion", Usage: "print the completion script for `SHELL` (bash, zsh or fish) and exit"}
	manFlag        = &cli.BoolFlag{Name: "man", Usage: "print the man page (roff) and exit", Hidden: true}
)

// completions write the completion script of an app for each shell.
var completions = map[string]func(w io.Writer, app *cli.App) error{
	"bash": bashCompletion,
	"zsh":  zshCompletion,
	"fish": fishCompletion,
}

// docs adds the flags of the docs to app and, when args ask for one,
// prints it: handled tells that the run is over, with code.
func docs(app *cli.App, args []string) (code int, handled bool) {
	app.Flags = append(app.Flags, completionFlag, manFlag)
	for i, a := range args[1:] {
		switch {
		case a == "--":
			return 0, false
		case a == "--man" || a == "-man":
			page, err := app.ToManWithSection(1)
			if err != nil {
				fmt.Fprintf(app.ErrWriter, "%s: %s\n", app.Name, err)
				return ExitFailure, true
			}
			fmt.Fprint(app.Writer, page)
			return ExitOK, true
		case a == "--completion" || a == "-completion" || strings.HasPrefix(a, "--completion="):
			shell, ok := strings.CutPrefix(a, "--completion=")
			if !ok {
				shell = ""
				if i+2 < len(args) {
					shell = args[i+2]
				}
			}
			gen, known := completions[shell]
			if !known {
				fmt.Fprintf(app.ErrWriter, "%s: --completion: want bash, zsh or fish, not %q\n", app.Name, shell)
				return ExitUsage, true
			}
			if err := gen(app.Writer, app); err != nil {
				fmt.Fprintf(app.ErrWriter, "%s: %s\n", app.Name, err)
				return ExitFailure, true
			}
			return ExitOK, true
		}
	}
	return 0, false
}

// pathFlags are the flags of every app, as typed, whose values are files or
// folders (the filters' other values are numbers, durations and words).
var pathFlags = map[string]bool{}

// flagWords are an app's visible options as typed (--name, -n), and those
// of them that take a value.
func flagWords(app *cli.App) (all, valued []string) {
	for _, f := range app.VisibleFlags() {
		_, boolean := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			w := "--" + n
			if len(n) == 1 {
				w = "-" + n
			}
			all = append(all, w)
			if !boolean {
				valued = append(valued, w)
			}
			if _, ok := f.(*cli.StringFlag); ok && valueWords("--"+f.Names()[0]) == nil {
				pathFlags[w] = true
			}
		}
	}
	all = append(all, "--help", "-h")
	return all, valued
}

// valueWords are the values a flag takes from a fixed list.
func valueWords(flag string) []string {
	switch flag {
	case "--provider":
		return append([]string{"auto"}, provider.Names()...)
	case "--completion":
		return []string{"bash", "fish", "zsh"}
	case "--by": // agt-report's
		return report.Views
	case "--order":
		return []string{"key", "cost", "tokens"}
	case "--week-start":
		return []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
	}
	return nil
}

func funcName(app *cli.App) string { return "_" + strings.ReplaceAll(app.Name, "-", "_") }

func bashCompletion(w io.Writer, app *cli.App) error {
	all, valued := flagWords(app)
	fmt.Fprintf(w, "# bash completion for %s\n%s() {\n", app.Name, funcName(app))
	fmt.Fprintf(w, "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n  case $prev in\n")
	for _, f := range valued {
		if vs := valueWords(f); vs != nil {
			fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return;;\n", f, strings.Join(vs, " "))
		} else if pathFlags[f] {
			fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n", f)
		} else {
			fmt.Fprintf(w, "    %s) COMPREPLY=(); return;;\n", f)
		}
	}
	fmt.Fprintf(w, "  esac\n  if [[ $cur == -* ]]; then\n    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n", strings.Join(all, " "))
	fmt.Fprintf(w, "  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\ncomplete -o filenames -F %s %s\n", funcName(app), app.Name)
	return nil
}

func zshCompletion(w io.Writer, app *cli.App) error {
	fmt.Fprintf(w, "#compdef %s\n# zsh completion for %s\n_arguments -s \\\n", app.Name, app.Name)
	for _, f := range app.VisibleFlags() {
		_, boolean := f.(*cli.BoolFlag)
		usage := ""
		if d, ok := f.(cli.DocGenerationFlag); ok {
			usage = strings.NewReplacer("[", `\[`, "]", `\]`, "'", `'\''`, ":", `\:`).Replace(d.GetUsage())
		}
		for _, n := range f.Names() {
			w1 := "--" + n
			if len(n) == 1 {
				w1 = "-" + n
			}
			spec := fmt.Sprintf("'%s[%s]", w1, usage)
			if !boolean {
				if vs := valueWords("--" + f.Names()[0]); vs != nil {
					spec += fmt.Sprintf(":%s:(%s)", n, strings.Join(vs, " "))
				} else if _, ok := f.(*cli.StringFlag); ok {
					spec += fmt.Sprintf(":%s:_files", n)
				} else {
					spec += fmt.Sprintf(":%s: ", n)
				}
			}
			fmt.Fprintf(w, "  %s' \\\n", spec)
		}
	}
	fmt.Fprintf(w, "  '(-h --help)'{-h,--help}'[show help]' \\\n  '*:file:_files'\n")
	return nil
}

func fishCompletion(w io.Writer, app *cli.App) error {
	fmt.Fprintf(w, "# fish completion for %s\n", app.Name)
	for _, f := range app.VisibleFlags() {
		_, boolean := f.(*cli.BoolFlag)
		line := "complete -c " + app.Name
		for _, n := range f.Names() {
			if len(n) == 1 {
				line += " -s " + n
			} else {
				line += " -l " + n
			}
		}
		if !boolean {
			if vs := valueWords("--" + f.Names()[0]); vs != nil {
				line += fmt.Sprintf(" -x -a %q", strings.Join(vs, " "))
			} else if _, ok := f.(*cli.StringFlag); ok {
				line += " -r -F"
			} else {
				line += " -x"
			}
		}
		if d, ok := f.(cli.DocGenerationFlag); ok {
			line += " -d " + fishQuote(d.GetUsage())
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// Shells are the shells --completion writes for.
func Shells() []string {
	s := make([]string, 0, len(completions))
	for k := range completions {
		s = append(s, k)
	}
	slices.Sort(s)
	return s
}
