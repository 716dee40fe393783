//go:build linux

package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestReportTerminal: on a terminal the report is a table as wide as the
// terminal at most, bold headings and totals unless NO_COLOR is set.
func TestReportTerminal(t *testing.T) {
	t.Setenv("COLUMNS", "")
	for _, noColor := range []string{"", "1"} {
		t.Setenv("NO_COLOR", noColor)
		ctl, term := openTerminal(t, 72)
		got := make(chan string)
		go func() {
			b, _ := io.ReadAll(ctl)
			got <- string(b)
		}()
		var errb bytes.Buffer
		args := append([]string{"agt-report", "--tz", "UTC", "-q"}, reportFixtures(t)...)
		code := Run(context.Background(), Report(IO{In: strings.NewReader(""), Out: term, Err: &errb}), args)
		term.Close()
		out := strings.ReplaceAll(<-got, "\r\n", "\n")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		if colored := strings.Contains(out, "\x1b["); colored != (noColor == "") {
			t.Errorf("NO_COLOR=%q: colored %v", noColor, colored)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) < 5 || !strings.Contains(lines[0], "Day") || !strings.Contains(lines[len(lines)-1], "Total") {
			t.Errorf("not a table:\n%s", out)
		}
		for _, l := range lines {
			plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(l, "")
			if n := utf8.RuneCountInString(plain); n > 72 {
				t.Errorf("a line of %d columns on a terminal of 72: %q", n, plain)
			}
		}
	}
}

// TestReportNoArgs: with no PATH and stdin a terminal, agt-report reads
// the agents' folders --discover finds, and says which in one line.
func TestReportNoArgs(t *testing.T) {
	home := t.TempDir()
	for _, k := range agentVars {
		t.Setenv(k, "")
	}
	t.Setenv("HOME", home)
	projects := filepath.Join(home, ".claude", "projects", "p")
	if err := os.MkdirAll(projects, 0o755); err != nil {
		t.Fatal(err)
	}
	fixture := filepath.Join(reportFixtures(t)[0], "entirecli__32-2452abbddc-0.jsonl")
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(projects, "s.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, term := openTerminal(t, 80)
	var out, errb bytes.Buffer
	code := Run(context.Background(), Report(IO{In: term, Out: &out, Err: &errb}), []string{"agt-report", "--tz", "UTC", "--json"})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if want := "agt-report: no PATH: reading " + filepath.Join(home, ".claude", "projects") + "\n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
	if !bytes.Contains(out.Bytes(), []byte(`"totals":true`)) || !bytes.Contains(out.Bytes(), []byte(`"day":"`)) {
		t.Errorf("stdout %s", out.String())
	}
}
