package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReorder checks how arguments are reordered, filter by filter: options
// first, then "--" and the operands in their order.
func TestReorder(t *testing.T) {
	cases := []struct {
		app  App
		args string
		want string
	}{
		{Parse, "a.jsonl --raw", "--raw -- a.jsonl"},
		{Parse, "a.jsonl -j4 b.jsonl", "-j 4 -- a.jsonl b.jsonl"},
		{Parse, "a.jsonl -j 4", "-j 4 -- a.jsonl"},
		{Parse, "-j=4 a.jsonl", "-j=4 -- a.jsonl"},
		{Parse, "--provider=codex a.jsonl", "--provider=codex -- a.jsonl"},
		{Parse, "a.jsonl --provider codex", "--provider codex -- a.jsonl"},
		{Parse, "--raw a.jsonl", "--raw -- a.jsonl"},           // a boolean takes no value
		{Parse, "- --raw", "--raw -- -"},                       // - is stdin
		{Parse, "a -- --raw -j4", "-- a --raw -j4"},            // -- ends the options
		{Parse, "--max-line 1KiB a", "--max-line 1KiB -- a"},   // a value is taken whatever it is
		{Parse, "--provider --raw a", "--provider --raw -- a"}, // a value that looks like a flag
		{Parse, "a --bogus b", "--bogus -- a b"},               // unknown: left to the parser
		{Parse, "-qj4 a", "-qj4 -- a"},                         // a cluster is not split
		{Parse, "--raw", "--raw"},                              // no operands, no --
		{Parse, "a -h", "-h -- a"},                             // help
		{Normalize, "a --to codex --prices p.json", "--to codex --prices p.json -- a"},
		{Normalize, "a --model gpt-5", "--model gpt-5 -- a"},
		{Transcript, "FILE -o out/", "-o out/ -- FILE"},
		{Transcript, "FILE -o -- x", "-o -- -- FILE x"}, // -o takes "--" as its folder
		{Transcript, "-- FILE -o out/", "-- FILE -o out/"},
		{Transcript, "FILE --output=out --force", "--output=out --force -- FILE"},
		{Streamlog, "FILE --mode raw -f", "--mode raw -f -- FILE"},
		{Streamlog, "FILE --follow-timeout 5s -f", "--follow-timeout 5s -f -- FILE"},
	}
	for _, c := range cases {
		app := c.app(IO{})
		got, _ := reorder(app, append([]string{app.Name}, strings.Fields(c.args)...))
		if strings.Join(got[1:], " ") != c.want {
			t.Errorf("%s %s: got %q, want %q", app.Name, c.args, strings.Join(got[1:], " "), c.want)
		}
	}
}

// TestSlips: a value flag left last (Enter pressed too early) is missing
// its value, not given the "--" put before the operands; an unknown flag
// is named as typed, with the nearest flag suggested. Both exit 2.
func TestSlips(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(claudeLine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		app  App
		args []string
		want string
	}{
		{Transcript, []string{in, "-o"}, "agt-transcript: flag needs an argument: -o\n"},
		{Transcript, []string{in, "--output"}, "agt-transcript: flag needs an argument: --output\n"},
		{Parse, []string{in, "--provider"}, "agt-parse: flag needs an argument: --provider\n"},
		{Parse, []string{"--provider"}, "agt-parse: flag needs an argument: --provider\n"},
		{Streamlog, []string{in, "--raw", "--mode"}, "agt-streamlog: flag needs an argument: --mode\n"},
		{Transcript, []string{in, "--formt", "atif"}, "agt-transcript: flag provided but not defined: --formt (did you mean --format?)\n"},
		{Transcript, []string{"-formt=atif", in}, "flag provided but not defined: -formt (did you mean --format?)\n"},
		{Parse, []string{in, "--provder", "codex"}, "flag provided but not defined: --provder (did you mean --provider?)\n"},
		{Parse, []string{in, "--qiet"}, "(did you mean --quiet?)"},
		{Parse, []string{in, "--zzzzzzzz"}, "flag provided but not defined: --zzzzzzzz\n"}, // nothing near
		{Parse, []string{in, "-x"}, "flag provided but not defined: -x\n"},                 // no guess among one-letter flags
		{Normalize, []string{in, "--moddel", "x"}, "(did you mean --model?)"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		app := c.app(IO{In: strings.NewReader(""), Out: &out, Err: &errb})
		code := Run(context.Background(), app, append([]string{app.Name}, c.args...))
		if code != ExitUsage || !strings.Contains(errb.String(), c.want) || out.Len() != 0 {
			t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", app.Name, c.args, code, out.String(), errb.String(), c.want)
		}
		if _, err := os.Stat("--"); err == nil {
			t.Fatalf("%s %q made a folder named --", app.Name, c.args)
		}
	}
}

// TestArgOrders runs every filter with its options before and after its
// paths: the outputs are the same.
func TestArgOrders(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(claudeLine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runIt := func(app App, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Run(context.Background(), app(IO{In: strings.NewReader(""), Out: &out, Err: &errb}), append([]string{"agt"}, args...))
		return code, out.String(), errb.String()
	}
	cases := []struct {
		name   string
		app    App
		orders [][]string
		want   string // in stdout
	}{
		{"agt-parse", Parse, [][]string{{"--raw", "-j4", in}, {in, "--raw", "-j4"}, {in, "-j", "4", "--raw"}, {"-j=4", in, "--raw"}}, `"raw":{`},
		{"agt-normalize", Normalize, [][]string{{"--to", "codex", in}, {in, "--to", "codex"}, {in, "--to=codex"}}, `"kind":"user"`},
		{"agt-transcript", Transcript, [][]string{{"-q", in}, {in, "-q"}, {in, "--"}}, `"role":"user"`},
		{"agt-streamlog", Streamlog, [][]string{{"--mode", "raw", in}, {in, "--mode", "raw"}, {in, "--mode=raw"}}, `"kind":"user"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var first string
			for i, args := range c.orders {
				code, out, errs := runIt(c.app, args...)
				if code != 0 || !strings.Contains(out, c.want) {
					t.Fatalf("%q: exit %d, stdout %.300q, stderr %s", args, code, out, errs)
				}
				if i == 0 {
					first = out
				} else if out != first {
					t.Errorf("%q: stdout differs from %q's", args, c.orders[0])
				}
			}
		})
	}
	// agt-transcript FILE -o out/ writes into out/, not to stdout
	out := filepath.Join(dir, "out")
	code, stdout, errs := runIt(Transcript, in, "-o", out)
	if code != 0 || stdout != "" {
		t.Fatalf("FILE -o out: exit %d, stdout %q, stderr %s", code, stdout, errs)
	}
	if _, err := os.Stat(filepath.Join(out, "claude", "s1.transcript.jsonl")); err != nil {
		t.Error(err)
	}
	// after --, -o is a path
	code, _, errs = runIt(Transcript, in, "--", "-o")
	if code != ExitFailure || !strings.Contains(errs, "-o") {
		t.Errorf("-- -o: exit %d, stderr %s", code, errs)
	}
	if !slices.Contains([]int{ExitUsage}, func() int { c, _, _ := runIt(Parse, in, "-j"); return c }()) {
		t.Error("-j without a value is not a usage error")
	}
}

// TestHelp: every filter's help names its options' values (metavariables)
// and shows no default that tells nothing.
func TestHelp(t *testing.T) {
	for name, app := range apps {
		var out bytes.Buffer
		if code := Run(context.Background(), app(IO{In: strings.NewReader(""), Out: &out, Err: &out}), []string{name, "--help"}); code != 0 {
			t.Fatalf("%s --help: exit %d", name, code)
		}
		h := out.String()
		for _, want := range []string{name + " [OPTION]... [PATH...]", "--provider P ", "--jobs N, -j N", "--max-line SIZE", "--discover", "--quiet, -q "} {
			if !strings.Contains(h, want) {
				t.Errorf("%s --help lacks %q", name, want)
			}
		}
		for _, noise := range []string{"(default: false)", "(default: 0)", "GLOBAL", "VERSION:", " value"} {
			if strings.Contains(h, noise) {
				t.Errorf("%s --help holds %q", name, noise)
			}
		}
	}
}
