package main

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agt-project/agt/provider/providertest"
)

// TestPipeInterrupted is the acceptance test of an interrupt to a whole
// pipeline (a terminal's Ctrl-C reaches every process of it): a log
// written line by line into agt-parse | agt-normalize | agt-transcript,
// every process of which gets SIGINT at a random moment, while the writer
// (the agent) adds up to two more lines and ends, as an interrupted agent
// does. Every stage reads its pipe to the end, so the transcript holds
// everything the writer wrote: its totals equal agt-transcript's on those
// bytes, in every run.
func TestPipeInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the filters and runs 50 pipelines")
	}
	bin := t.TempDir()
	for _, f := range []string{"agt-parse", "agt-normalize", "agt-transcript"} {
		if b, err := exec.Command("go", "build", "-o", filepath.Join(bin, f), "../"+f).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", f, err, b)
		}
	}
	root := providertest.RepoRoot(t)
	logs := []string{
		filepath.Join(root, "testdata", "codex", "agentsessions__codex-small-0.146.jsonl"),
		filepath.Join(root, "testdata", "claude", "agentsessions__claude-small-2.1.80.jsonl"),
	}
	rng := rand.New(rand.NewSource(1))
	for run := 0; run < 50; run++ {
		data, err := os.ReadFile(logs[run%len(logs)])
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		at := 1 + rng.Intn(len(lines)-1) // the interrupt comes after this many lines
		extra := rng.Intn(3)             // lines the agent still writes
		written := pipeInterrupted(t, bin, lines, at, extra)
		got := totals(t, written.out)
		want := totals(t, run1(t, filepath.Join(bin, "agt-transcript"), written.in))
		if got != want {
			t.Errorf("run %d (%s, interrupted after %d lines, %d more): transcript totals %+v, want %+v (what the stream held)",
				run, filepath.Base(logs[run%len(logs)]), at, extra, got, want)
		}
	}
}

type pipeRun struct{ in, out []byte }

// pipeInterrupted writes lines into the three filters, sends SIGINT to
// all of them after at lines, writes extra more and closes the pipe.
func pipeInterrupted(t *testing.T, bin string, lines [][]byte, at, extra int) pipeRun {
	t.Helper()
	sh := exec.Command("sh", "-c", `"$1"/agt-parse -q | "$1"/agt-normalize -q | "$1"/agt-transcript -q`, "sh", bin)
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	sh.Stdout = &out
	w, err := sh.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(settle)
	var in bytes.Buffer
	write := func(l []byte) {
		w.Write(l)
		in.Write(l)
		time.Sleep(time.Millisecond) // a line now and then, as an agent writes them
	}
	for _, l := range lines[:at] {
		write(l)
	}
	syscall.Kill(-sh.Process.Pid, syscall.SIGINT) // the terminal's Ctrl-C: every process of the group
	for _, l := range lines[at:min(len(lines), at+extra)] {
		write(l)
	}
	w.Close()
	done := make(chan error, 1)
	go func() { done <- sh.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute): // not a time limit: a pipeline that never ends
		syscall.Kill(-sh.Process.Pid, syscall.SIGKILL)
		t.Fatalf("the pipeline did not end after its input did")
	}
	return pipeRun{in.Bytes(), out.Bytes()}
}

// settle gives the filters the time to start (a few milliseconds; the
// machine may be busy): they catch interrupts from early in their start
// (package signals), but not before their runtime is up, as no program
// does. An agent writes its first line seconds after it starts.
const settle = 300 * time.Millisecond

// run1 is agt-transcript's output on data.
func run1(t *testing.T, bin string, data []byte) []byte {
	cmd := exec.Command(bin, "-q")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("agt-transcript: %v", err)
	}
	return out
}

type sums struct {
	sessions, messages int
	total              int64
}

func totals(t *testing.T, out []byte) sums {
	var s sums
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var tr struct {
			Messages []json.RawMessage `json:"messages"`
			Usage    struct{ Total int64 }
		}
		if err := json.Unmarshal(l, &tr); err != nil {
			t.Fatalf("transcript line: %v", err)
		}
		s.sessions++
		s.messages += len(tr.Messages)
		s.total += tr.Usage.Total
	}
	return s
}
