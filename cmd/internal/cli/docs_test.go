package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt/stage"
	"github.com/urfave/cli/v2"
)

// doc runs name with args (--man, --completion SHELL) and returns stdout.
func doc(t *testing.T, name string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Run(context.Background(), apps[name](IO{In: strings.NewReader(""), Out: &out, Err: &errb}), append([]string{name}, args...)); code != 0 {
		t.Fatalf("%s %q: exit %d: %s", name, args, code, errb.String())
	}
	return out.String()
}

// Every filter prints a man page and a completion script for each shell,
// naming its flags and the providers; bash, zsh and fish parse their
// scripts when installed.
func TestDocs(t *testing.T) {
	for name, build := range apps {
		if page := doc(t, name, "--man"); !strings.Contains(page, ".TH "+strings.ToUpper(name)+" 1") || !strings.Contains(page, `\-\-provider`) {
			t.Errorf("%s --man: %q", name, page[:min(200, len(page))])
		}
		for _, shell := range shells() {
			script := doc(t, name, "--completion", shell)
			for _, want := range []string{name, "provider", "claude", "codex", "jobs", "version"} {
				if !strings.Contains(script, want) {
					t.Errorf("%s --completion %s: no %q", name, shell, want)
				}
			}
			if _, err := exec.LookPath(shell); err != nil {
				t.Logf("%s not installed: its script is not parsed", shell)
				continue
			}
			cmd := exec.Command(shell, "-n")
			cmd.Stdin = strings.NewReader(script)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n on %s's script: %v: %s", shell, name, err, b)
			}
		}
		var out bytes.Buffer
		for _, args := range [][]string{{"--completion", "tcsh"}, {"--completion"}} {
			var errb2 bytes.Buffer
			if code := Run(context.Background(), build(IO{In: strings.NewReader(""), Out: &out, Err: &errb2}), append([]string{name}, args...)); code != ExitUsage ||
				!strings.Contains(errb2.String(), "want bash, zsh or fish") {
				t.Errorf("%s %v: exit %d, want %d: %s", name, args, code, ExitUsage, errb2.String())
			}
		}
		if s := doc(t, name, "--completion=fish"); !strings.HasPrefix(s, "# fish") {
			t.Errorf("%s --completion=fish: %.80s", name, s)
		}
	}
}

// TestManPages greps the rendered man pages (man -l when installed, else
// the roff): placeholders kept, the synopsis of a filter (no urfave/cli
// command line, no ="" after booleans), and the sections EXIT STATUS,
// ENVIRONMENT (the variables each filter reads) and SEE ALSO.
func TestManPages(t *testing.T) {
	_, noMan := exec.LookPath("man")
	for name := range apps {
		page := doc(t, name, "--man")
		if noMan == nil {
			f := filepath.Join(t.TempDir(), name+".1")
			os.WriteFile(f, []byte(page), 0o644)
			cmd := exec.Command("man", "-l", f)
			cmd.Env = append(os.Environ(), "MANWIDTH=200", "MAN_KEEP_FORMATTING=0", "MANPAGER=cat", "PAGER=cat", "LC_ALL=C.UTF-8")
			b, err := cmd.Output()
			if err != nil {
				t.Fatalf("man -l %s: %v", name, err)
			}
			page = strings.Join(strings.Fields(stripOverstrike(string(b))), " ") // filled and justified lines
		} else {
			t.Log("man not installed: the roff is grepped")
		}
		want := []string{"NAME", name + " [OPTION]... [PATH...]", "OPTIONS", "--provider P", "--jobs N, -j N", "--version",
			"EXIT STATUS", "2 usage error", "binary data", "nothing to read", "ENVIRONMENT", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "HOME", "SEE ALSO"}
		for _, other := range Filters {
			if other != name {
				want = append(want, other+"(1)")
			}
		}
		switch name {
		case "agt-transcript":
			want = append(want, "DIR/<provider>/<session>.transcript.jsonl", "<session>~<hash>.transcript.jsonl", "AGT_STREAM_LOG", "--output DIR, -o DIR")
		case "agt-streamlog":
			want = append(want, "NO_COLOR", "COLUMNS", "--color WHEN", "--follow-timeout DUR")
		}
		for _, w := range want {
			if !strings.Contains(page, w) {
				t.Errorf("%s's man page lacks %q", name, w)
			}
		}
		for _, bad := range []string{"COMMAND OPTIONS", `=""`, "[value]", "GLOBAL OPTIONS", "--man", "--log-format", "DIR//"} {
			if strings.Contains(page, bad) {
				t.Errorf("%s's man page holds %q", name, bad)
			}
		}
	}
}

// stripOverstrike takes out the backspaces of bold and underlined text in
// man's output.
func stripOverstrike(s string) string {
	var b []rune
	for _, r := range s {
		if r == '\b' && len(b) > 0 {
			b = b[:len(b)-1]
			continue
		}
		b = append(b, r)
	}
	return string(b)
}

// zshDriver types command lines into an interactive zsh (zpty) with the
// completion script in its fpath, a Tab after each, and writes what each
// Tab offered: "@@WORD" (the word before the cursor's), then the values.
// Markers, not delays, tell when zsh is ready and done; no list is shown
// (autolist off), so that no "do you wish to see all" prompt takes the
// keys that follow; the line is killed with ^Xk, not ^U, which the
// terminal itself takes while zle is not reading yet.
const zshDriver = `zmodload zsh/zpty
out=$1 dir=$2; shift 2
zpty z zsh -f -i
zpty -w z "cd $dir; unsetopt autolist; bindkey '^Xk' kill-whole-line; fpath=($dir \$fpath); autoload -U compinit; compinit -u -D; compadd() { builtin compadd \"\$@\"; builtin compadd -O __m \"\$@\"; print -rl -- \"@@\${words[CURRENT-1]}\" \$__m >> $out }"
zpty -w z 'print ${:-MARK}-READY'
zpty -r z line '*MARK-READY*'
for l in "$@"; do
  zpty -n -w z "$l"$'\t'
  zpty -n -w z $'\x18k'
done
zpty -w z 'print ${:-MARK}-END'
zpty -r z line '*MARK-END*'
zpty -d z
`

// TestCompletionValues runs each shell's completion (bash, zsh and fish,
// when installed) after each flag with a list of values: every value is
// offered and nothing else; -o offers folders, not files; an option's
// words after a dash include --version. Without zsh, its _arguments specs
// are read.
func TestCompletionValues(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "log.jsonl"), nil, 0o644)
	_, noBash := exec.LookPath("bash")
	_, noFish := exec.LookPath("fish")
	_, noZsh := exec.LookPath("zsh")
	os.WriteFile(filepath.Join(dir, "driver.zsh"), []byte(zshDriver), 0o644)
	for name := range apps {
		bash := filepath.Join(dir, name+".bash")
		os.WriteFile(bash, []byte(doc(t, name, "--completion", "bash")), 0o644)
		fish := filepath.Join(dir, name+".fish")
		os.WriteFile(fish, []byte(doc(t, name, "--completion", "fish")), 0o644)
		zsh := doc(t, name, "--completion", "zsh")
		os.WriteFile(filepath.Join(dir, "_"+name), []byte(zsh), 0o644)
		// zshOffered runs the zsh driver on lines, once for the app: what
		// each line's Tab offered, by the word before it
		zshOffered := func(lines ...string) map[string][]string {
			got := map[string][]string{}
			if noZsh != nil {
				return got
			}
			out := filepath.Join(dir, name+".zsh.out")
			os.Remove(out)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a safeguard against a hung zsh, not a measure
			defer cancel()
			cmd := exec.CommandContext(ctx, "zsh", append([]string{"-f", filepath.Join(dir, "driver.zsh"), out, dir}, lines...)...)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("zsh driver: %v: %s", err, b)
			}
			b, _ := os.ReadFile(out)
			key := ""
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if k, ok := strings.CutPrefix(l, "@@"); ok {
					key = k
				} else if !slices.Contains(got[key], l) {
					got[key] = append(got[key], l)
				}
			}
			return got
		}
		var zshLines []string
		for flag := range valueLists {
			zshLines = append(zshLines, name+" --"+flag+" ")
		}
		if name == "agt-transcript" {
			zshLines = append(zshLines, name+" -o ")
		}
		slices.Sort(zshLines)
		zshGot := zshOffered(append(zshLines, name+" --vers")...)
		// offered runs each installed shell's completion of line (the
		// word being completed is empty unless line ends in a word)
		offered := func(line string) map[string][]string {
			got := map[string][]string{}
			words := strings.Fields(line)
			if strings.HasSuffix(line, " ") {
				words = append(words, "")
			}
			if noBash == nil {
				var q []string
				for _, w := range words {
					q = append(q, "'"+w+"'")
				}
				script := "source " + bash + "; COMP_WORDS=(" + strings.Join(q, " ") + "); COMP_CWORD=" + strconv.Itoa(len(words)-1) + "; " + funcName(apps[name](IO{})) + "; printf '%s\\n' \"${COMPREPLY[@]}\""
				got["bash"] = shellLines(t, dir, "bash", "-c", script)
			}
			if noFish == nil {
				lines := shellLines(t, dir, "fish", "--no-config", "-c", "source "+fish+"; complete -C '"+line+"'")
				for i, l := range lines {
					lines[i], _, _ = strings.Cut(l, "\t")
				}
				got["fish"] = lines
			}
			return got
		}
		for flag, list := range valueLists {
			app := apps[name](IO{})
			if !slices.ContainsFunc(app.Flags, func(f cli.Flag) bool { return f.Names()[0] == flag }) && flag != "completion" && flag != "tool-defs" {
				continue
			}
			if flag == "tool-defs" && name != "agt-normalize" {
				continue
			}
			want := slices.Sorted(slices.Values(list()))
			for shell, got := range offered(name + " --" + flag + " ") {
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s %s --%s: offered %q, want %q", shell, name, flag, got, want)
				}
			}
			if spec := ":(" + zshValue.Replace(strings.Join(list(), " ")) + ")'"; !strings.Contains(zsh, "'--"+flag+"[") || !strings.Contains(zsh[strings.Index(zsh, "'--"+flag+"["):], strings.ReplaceAll(spec, `\ `, " ")) {
				t.Errorf("zsh %s --%s: no spec offering %s", name, flag, spec)
			}
			if noZsh == nil {
				got := slices.Sorted(slices.Values(zshGot["--"+flag]))
				if !slices.Equal(got, want) {
					t.Errorf("zsh %s --%s: offered %q, want %q", name, flag, got, want)
				}
			}
		}
		if name == "agt-transcript" {
			for _, o := range []string{"-o", "--output"} {
				for shell, got := range offered(name + " " + o + " ") {
					if !slices.Contains(got, "sub/") && !slices.Contains(got, "sub") || slices.Contains(got, "log.jsonl") {
						t.Errorf("%s %s %s: offered %q, want the folder sub alone", shell, name, o, got)
					}
				}
			}
			if !strings.Contains(zsh, "'--output[") || !strings.Contains(zsh, ":_files -/'") {
				t.Errorf("zsh %s: -o does not complete folders", name)
			}
			if got := zshGot["-o"]; noZsh == nil && !slices.Equal(got, []string{"sub"}) {
				t.Errorf("zsh %s -o: offered %q, want the folder sub alone", name, got)
			}
		}
		if noBash == nil { // --format=, as bash splits it (= is a word break): the values
			script := "source " + bash + "; COMP_WORDS=(" + name + " --format = ''); COMP_CWORD=3; " + funcName(apps[name](IO{})) + "; printf '%s\\n' \"${COMPREPLY[@]}\""
			if name == "agt-transcript" {
				if got := shellLines(t, dir, "bash", "-c", script); !slices.Equal(got, slices.Sorted(slices.Values(valueLists["format"]()))) {
					t.Errorf("bash %s --format=: offered %q", name, got)
				}
			}
		}
		got := offered(name + " --vers")
		if noZsh == nil {
			got["zsh"] = zshGot[name]
		}
		for shell, got := range got {
			if !slices.Equal(got, []string{"--version"}) {
				t.Errorf("%s %s --vers: offered %q", shell, name, got)
			}
		}
	}
}

func shellLines(t *testing.T, dir string, shell string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(shell, args...)
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v: %s", shell, args, err, b)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestErrLocked: every filter writes stderr through one lock, which the
// sources that note on stderr from goroutines of their own (a followed
// run's reader, left behind when a run fails) share.
func TestErrLocked(t *testing.T) {
	for name, app := range apps {
		a := app(IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
		if stage.Locked(a.ErrWriter) != a.ErrWriter {
			t.Errorf("%s: stderr is not locked", name)
		}
	}
}
