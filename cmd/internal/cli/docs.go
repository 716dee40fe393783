package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/agt-project/agt/cmd/internal/report"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/price"
	"github.com/agt-project/agt/transcript"
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
			if err := manPage(app.Writer, app); err != nil {
				fmt.Fprintf(app.ErrWriter, "%s: %s\n", app.Name, err)
				return ExitFailure, true
			}
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

// What a flag's value completes to, by the flag's name: a word of a list,
// a folder or a file; a flag in none of the tables (a number, a size, a
// duration, a model name typed freely) completes to nothing.
var (
	valueLists = map[string]func() []string{
		"provider":   func() []string { return append([]string{"auto"}, provider.Names()...) },
		"to":         provider.Targets,
		"tool-defs":  provider.Targets,
		"format":     func() []string { return slices.Sorted(maps.Keys(formats)) },
		"stream-log": func() []string { return []string{transcript.LogOff, transcript.LogRaw, transcript.LogSummary} },
		"mode":       func() []string { return []string{transcript.LogRaw, transcript.LogSummary} },
		"color":      func() []string { return slices.Sorted(maps.Keys(colorModes)) },
		"completion": func() []string { return []string{"bash", "fish", "zsh"} },
		"model":      func() []string { return price.Default().Models() },
		"by":         func() []string { return report.Views }, // agt-report's
		"order":      func() []string { return []string{"key", "cost", "tokens"} },
		"week-start": func() []string {
			return []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
		},
	}
	folderFlags = map[string]bool{"output": true}
	fileFlags   = map[string]bool{"prices": true}
)

// valueWords are the values a flag (by its name) takes from a fixed list.
func valueWords(name string) []string {
	if f, ok := valueLists[name]; ok {
		return f()
	}
	return nil
}

// docFlag is one visible option of an app, for its docs.
type docFlag struct {
	name   string   // its first name: "output"
	words  []string // as typed: --output, -o
	takes  bool     // it takes a value
	meta   string   // the value's placeholder: DIR
	usage  string   // what it does
	defalt string   // its default, "" when none worth telling
}

// docFlags are the visible flags of app, --help and --version included.
func docFlags(app *cli.App) []docFlag {
	var out []docFlag
	seen := map[string]bool{}
	for _, f := range append(append([]cli.Flag{}, app.Flags...), cli.HelpFlag, cli.VersionFlag) {
		if isHidden(f) || seen[f.Names()[0]] {
			continue
		}
		seen[f.Names()[0]] = true
		d := docFlag{name: f.Names()[0]}
		for _, n := range f.Names() {
			if len(n) == 1 {
				d.words = append(d.words, "-"+n)
			} else {
				d.words = append(d.words, "--"+n)
			}
		}
		if g, ok := f.(cli.DocGenerationFlag); ok {
			d.takes = g.TakesValue()
			d.meta, d.usage = unquoteUsage(g.GetUsage())
			if d.takes && d.meta == "" {
				d.meta = "VALUE"
			}
			if v := g.GetValue(); d.takes && v != "" && v != "0" && v != "0s" && v != transcript.LogOff {
				d.defalt = v
			}
		}
		out = append(out, d)
	}
	return out
}

// unquoteUsage splits a flag's usage into its placeholder (the first
// `word` in back quotes) and the usage without the quotes.
func unquoteUsage(usage string) (meta, text string) {
	before, rest, ok := strings.Cut(usage, "`")
	if !ok {
		return "", usage
	}
	meta, after, ok := strings.Cut(rest, "`")
	if !ok {
		return "", usage
	}
	return meta, before + meta + after
}

func funcName(app *cli.App) string { return "_" + strings.ReplaceAll(app.Name, "-", "_") }

// bashCompletion: after a flag taking a value, its words, folders, files
// or nothing; else options after a dash, and files. --flag=value is
// completed as --flag value.
func bashCompletion(w io.Writer, app *cli.App) error {
	var all []string
	fmt.Fprintf(w, "# bash completion for %s\n%s() {\n", app.Name, funcName(app))
	fmt.Fprintf(w, "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n")
	fmt.Fprintf(w, "  if [[ $cur == = ]]; then cur=; elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi\n")
	fmt.Fprintf(w, "  case $prev in\n")
	for _, f := range docFlags(app) {
		all = append(all, f.words...)
		if !f.takes {
			continue
		}
		pat := strings.Join(f.words, "|")
		switch {
		case valueWords(f.name) != nil:
			fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return;;\n", pat, strings.Join(valueWords(f.name), " "))
		case folderFlags[f.name]:
			fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -d -- \"$cur\")); return;;\n", pat)
		case fileFlags[f.name]:
			fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n", pat)
		default:
			fmt.Fprintf(w, "    %s) COMPREPLY=(); return;;\n", pat)
		}
	}
	fmt.Fprintf(w, "  esac\n  if [[ $cur == -* ]]; then\n    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n", strings.Join(all, " "))
	fmt.Fprintf(w, "  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\ncomplete -o filenames -F %s %s\n", funcName(app), app.Name)
	return nil
}

// zshCompletion is one _arguments spec per option and name.
func zshCompletion(w io.Writer, app *cli.App) error {
	fmt.Fprintf(w, "#compdef %s\n# zsh completion for %s\n_arguments -s \\\n", app.Name, app.Name)
	esc := strings.NewReplacer("[", `\[`, "]", `\]`, "'", `'\''`, ":", `\:`)
	for _, f := range docFlags(app) {
		for _, word := range f.words {
			spec := fmt.Sprintf("'%s[%s]", word, esc.Replace(f.usage))
			if f.takes {
				meta := strings.ToLower(f.meta)
				switch {
				case valueWords(f.name) != nil:
					var vs []string
					for _, v := range valueWords(f.name) { // a model may hold a colon (…-v1:0)
						vs = append(vs, zshValue.Replace(v))
					}
					spec += fmt.Sprintf(":%s:(%s)", meta, strings.Join(vs, " "))
				case folderFlags[f.name]:
					spec += fmt.Sprintf(":%s:_files -/", meta)
				case fileFlags[f.name]:
					spec += fmt.Sprintf(":%s:_files", meta)
				default:
					spec += fmt.Sprintf(":%s: ", meta)
				}
			}
			fmt.Fprintf(w, "  %s' \\\n", spec)
		}
	}
	fmt.Fprintf(w, "  '*:file:_files'\n")
	return nil
}

// zshValue escapes what ends or splits a value in an _arguments action.
var zshValue = strings.NewReplacer(`\`, `\\`, ":", `\:`, " ", `\ `, "(", `\(`, ")", `\)`, "'", `'\''`)

// fishCompletion is one complete line per option.
func fishCompletion(w io.Writer, app *cli.App) error {
	fmt.Fprintf(w, "# fish completion for %s\n", app.Name)
	for _, f := range docFlags(app) {
		line := "complete -c " + app.Name
		for _, word := range f.words {
			if strings.HasPrefix(word, "--") {
				line += " -l " + word[2:]
			} else {
				line += " -s " + word[1:]
			}
		}
		if f.takes {
			switch {
			case valueWords(f.name) != nil:
				line += fmt.Sprintf(" -x -a %q", strings.Join(valueWords(f.name), " "))
			case folderFlags[f.name]:
				line += " -x -a '(__fish_complete_directories)'"
			case fileFlags[f.name]:
				line += " -r -F"
			default:
				line += " -x"
			}
		}
		line += " -d " + fishQuote(f.usage)
		fmt.Fprintln(w, line)
	}
	return nil
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// shells are the shells --completion writes for.
func shells() []string { return slices.Sorted(maps.Keys(completions)) }
