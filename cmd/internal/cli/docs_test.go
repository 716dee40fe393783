package cli

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
)

// Every filter prints a man page and a completion script for each shell,
// naming its flags and the providers; bash and zsh parse their scripts
// when installed.
func TestDocs(t *testing.T) {
	for name, build := range apps {
		var out, errb bytes.Buffer
		if code := Run(context.Background(), build(IO{In: strings.NewReader(""), Out: &out, Err: &errb}), []string{name, "--man"}); code != 0 ||
			!strings.Contains(out.String(), ".TH "+name+" 1") || !strings.Contains(out.String(), "--provider") {
			t.Errorf("%s --man: exit %d, %q", name, code, out.String()[:min(200, out.Len())])
		}
		for _, shell := range Shells() {
			out.Reset()
			if code := Run(context.Background(), build(IO{In: strings.NewReader(""), Out: &out, Err: &errb}), []string{name, "--completion", shell}); code != 0 {
				t.Fatalf("%s --completion %s: exit %d: %s", name, shell, code, errb.String())
			}
			for _, want := range []string{name, "provider", "claude", "codex", "jobs"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("%s --completion %s: no %q", name, shell, want)
				}
			}
			if shell == "fish" {
				continue
			}
			if _, err := exec.LookPath(shell); err != nil {
				t.Logf("%s not installed: its script is not parsed", shell)
				continue
			}
			cmd := exec.Command(shell, "-n")
			cmd.Stdin = bytes.NewReader(out.Bytes())
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n on %s's script: %v: %s", shell, name, err, b)
			}
		}
		for _, args := range [][]string{{"--completion", "tcsh"}, {"--completion"}} {
			var errb2 bytes.Buffer
			if code := Run(context.Background(), build(IO{In: strings.NewReader(""), Out: &out, Err: &errb2}), append([]string{name}, args...)); code != ExitUsage ||
				!strings.Contains(errb2.String(), "want bash, zsh or fish") {
				t.Errorf("%s %v: exit %d, want %d: %s", name, args, code, ExitUsage, errb2.String())
			}
		}
		out.Reset()
		if code := Run(context.Background(), build(IO{In: strings.NewReader(""), Out: &out, Err: &errb}), []string{name, "--completion=fish"}); code != 0 || !strings.HasPrefix(out.String(), "# fish") {
			t.Errorf("%s --completion=fish: exit %d: %.80s", name, code, out.String())
		}
	}
}
