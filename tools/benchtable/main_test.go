package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFreshFolder: each run of a step writes a folder of its own (mkdir
// fails on a folder a run before made), and the folders of the runs before
// are still there: none is removed just before a run, whose file creations
// would pay for the removal (see step.fresh).
func TestFreshFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	r, err := measure1([]step{{name: "mkdir", args: []string{out}, fresh: out}}, 3)
	if err != nil {
		t.Fatalf("a run found the last run's folder: %v", err)
	}
	if r.wall <= 0 || r.cpu < 0 {
		t.Errorf("result %+v", r)
	}
	if _, err := measure1([]step{{name: "mkdir", args: []string{out}, fresh: out}}, 2); err != nil {
		t.Fatalf("a row's run wrote the folder of another row's: %v", err)
	}
	if es, err := os.ReadDir(out); err != nil || len(es) != 5 {
		t.Errorf("the runs' folders: %v, %v; want 5, none removed before a run", es, err)
	}
}

// measure1 measures one row.
func measure1(steps []step, runs int) (result, error) {
	rs, errs := measure([][]step{steps}, runs)
	return rs[0], errs[0]
}

// TestRowsTakeTurns: the rows are run in turn, run after run (a, b, a,
// b, a, b), so that a drift of the machine's speed meets them alike.
func TestRowsTakeTurns(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	row := func(name string) []step {
		return []step{{name: "sh", args: []string{"-c", "echo " + name + " >> " + log}}}
	}
	if _, errs := measure([][]step{row("a"), row("b")}, 3); errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	if b, err := os.ReadFile(log); err != nil || string(b) != "a\nb\na\nb\na\nb\n" {
		t.Errorf("order of the runs %q, %v; want a and b in turn", b, err)
	}
}

// TestStdinStep: a step with stdin reads that file, and the pipe's RSS and
// CPU are summed over its processes.
func TestStdinStep(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := save(in, "", "echo", "hello"); err != nil {
		t.Fatal(err)
	}
	if _, err := measure1([]step{{name: "grep", args: []string{"-q", "hello"}, stdin: in}}, 1); err != nil {
		t.Fatalf("grep did not read the step's stdin: %v", err)
	}
	if _, err := measure1([]step{{name: "grep", args: []string{"-q", "absent"}, stdin: in}}, 1); err == nil {
		t.Fatal("grep for an absent word succeeded: stdin not the file")
	}
}

// TestVersus: the report's row is compared with ccusage's daily row, in
// time, CPU and peak RSS, and not at all when ccusage did not run.
func TestVersus(t *testing.T) {
	named := map[string]result{
		"agt-report --by day":        {wall: 500 * time.Millisecond, cpu: 900 * time.Millisecond, rss: 60 << 10},
		"ccusage codex daily --json": {wall: 250 * time.Millisecond, cpu: 300 * time.Millisecond, rss: 40 << 10},
	}
	want := "agt-report --by day ÷ ccusage codex daily --json: time 2.00×, CPU 3.00×, peak RSS 1.50×"
	if got := versus(named, "agt-report --by day", "ccusage codex daily --json"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := versus(named, "agt-report --by day", "ccusage claude daily --json"); got != "" {
		t.Errorf("without ccusage's row: %q", got)
	}
}

// TestSerialShare: the serial share is read from what the run says on
// stderr when AGT_DEBUG_SERIAL is set, and a run that says nothing is an
// error, not a share of 0.
func TestSerialShare(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake")
	script := "#!/bin/sh\n[ -n \"$AGT_DEBUG_SERIAL\" ] && echo 'fake: ordered apply step: 0.250000 s' >&2\nexit 0\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	apply, cpu, err := serialShare(bin, dir, 3)
	if err != nil || apply != 0.25 || cpu < 0 {
		t.Fatalf("apply %g, cpu %g, %v", apply, cpu, err)
	}
	silent := filepath.Join(dir, "silent")
	if err := os.WriteFile(silent, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := serialShare(silent, dir, 1); err == nil {
		t.Fatal("a run that says nothing gave a share")
	}
}
