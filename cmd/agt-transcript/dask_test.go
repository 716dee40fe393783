package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// daskPython is a python3 that has Dask's distributed scheduler (Debian's
// python3-distributed). Without one the test is skipped, or fails under
// CI_DASK (.ci/run): the recipe must run there.
func daskPython(t *testing.T) string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import distributed").Run() == nil {
			return py
		}
	}
	if os.Getenv("CI_DASK") != "" {
		t.Fatal("no python3 with Dask's distributed (Debian: python3-distributed): .ci/run installs it")
	}
	t.Skip("no python3 with Dask's distributed (Debian: python3-distributed): the Dask recipe is not run")
	return ""
}

// TestDask runs examples/agt_dask.py on a LocalCluster of 2 worker
// processes over the whole corpus, a shard a line of units.tsv: its output
// is the single run's, byte for byte, also when a worker dies mid-task
// (the scheduler runs the task again); a shard with an unreadable unit
// fails the run with the unit named, and the other shards' output stays.
func TestDask(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Dask cluster three times")
	}
	py := daskPython(t)
	units := corpusUnits(t)
	dir := t.TempDir()
	tr := build(t)
	parse := buildParse(t, dir)
	events, err := exec.Command(parse, append([]string{"-q"}, units...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command(tr, append([]string{"-q"}, units...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range shardsOf(units, events) {
		lines = append(lines, strings.Join(s, "\t"))
	}
	tsv := filepath.Join(dir, "units.tsv")
	os.WriteFile(tsv, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	script := filepath.Join(providertest.RepoRoot(t), "examples", "agt_dask.py")
	run := func(tsv string, env ...string) ([]byte, string, error) {
		cmd := exec.Command(py, script, tsv, "--workers", "2", "--agt", tr)
		cmd.Env = append(os.Environ(), env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.Bytes(), stderr.String(), err
	}

	got, stderr, err := run(tsv)
	if err != nil {
		t.Fatalf("agt_dask.py: %v\n%s", err, stderr)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Dask, %d shards: %d bytes, the single run %d (differ at %d)", len(lines), len(got), len(want), diffAt(got, want))
	}

	crash := filepath.Join(dir, "crashed")
	first, _, _ := strings.Cut(lines[len(lines)/2], "\t")
	got, stderr, err = run(tsv, "AGT_DASK_CRASH_ONCE="+crash, "AGT_DASK_CRASH_UNIT="+first)
	if err != nil {
		t.Fatalf("agt_dask.py with a worker killed: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(crash); err != nil {
		t.Errorf("no worker was killed: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Dask with a worker killed: %d bytes, the single run %d (differ at %d)", len(got), len(want), diffAt(got, want))
	}

	missing := filepath.Join(dir, "gone.jsonl")
	bad := filepath.Join(dir, "bad.tsv")
	os.WriteFile(bad, []byte(lines[0]+"\n"+missing+"\n"+lines[1]+"\n"), 0o644)
	got, stderr, err = run(bad)
	if code := exitCode(err); code != 1 {
		t.Errorf("a shard with an unreadable unit: exit %d, want 1\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "bad.tsv:2: shard failed (exit 1): "+missing) || !strings.Contains(stderr, "1 of 3 shards failed") {
		t.Errorf("the failed shard is not named:\n%s", stderr)
	}
	if n := bytes.Count(got, []byte{'\n'}); n == 0 {
		t.Errorf("the other shards' transcripts are missing")
	}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if e, ok := err.(*exec.ExitError); ok {
		return e.ExitCode()
	}
	return -1
}

// TestDaskUnitsFile: a units file that is missing, empty or blank, or a
// call without one, ends the script with one line and a non-zero exit,
// before any cluster starts.
func TestDaskUnitsFile(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	dir := t.TempDir()
	empty, blank := filepath.Join(dir, "empty.tsv"), filepath.Join(dir, "blank.tsv")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(blank, []byte("\n \n\t\n"), 0o644)
	script := filepath.Join(providertest.RepoRoot(t), "examples", "agt_dask.py")
	for _, c := range []struct {
		args []string
		code int
		say  string
	}{
		{[]string{filepath.Join(dir, "gone.tsv")}, 1, "gone.tsv: No such file"},
		{[]string{empty}, 1, "empty.tsv: no units"},
		{[]string{blank}, 1, "blank.tsv: no units"},
		{nil, 2, "no units file"},
		{[]string{empty, "--workers", "0"}, 2, "--workers takes a number of at least 1"},
		{[]string{empty, "--scheduler"}, 2, "flag needs an argument: --scheduler"},
	} {
		out, err := exec.Command(py, append([]string{script}, c.args...)...).CombinedOutput()
		if code := exitCode(err); code != c.code || !strings.Contains(string(out), c.say) {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, out, c.code, c.say)
		}
	}
}
