package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agt-project/agt/cmd/internal/cli"
	"github.com/agt-project/agt/provider/providertest"
)

// TestPipeRandomInterrupts is the acceptance test of issue 25: real
// captures are written at a steady pace (a line every pace) into
// agt-parse | agt-normalize | agt-transcript, built binaries each in a
// process of its own; at a random moment every process gets SIGINT, each
// at its own random skew (up to 3 ms) and in a random order, and the
// writer (the agent) adds up to two more lines and ends. In every run the
// transcript the pipe writes is the one agt-transcript writes on exactly
// the bytes the writer wrote: what the stream held up to the interrupt,
// its totals (and provisional marks) included. 50 runs; 10 with -short.
// A run starts once every filter catches SIGINT (its init trace shows its
// signals package initialised, a few milliseconds into its start), as no
// program can catch an interrupt before its runtime is up.
func TestPipeRandomInterrupts(t *testing.T) {
	runs := 50
	if testing.Short() {
		runs = 10
	}
	bin := t.TempDir()
	for _, f := range []string{"agt-parse", "agt-normalize", "agt-transcript"} {
		if b, err := exec.Command("go", "build", "-o", filepath.Join(bin, f), "../"+f).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", f, err, b)
		}
	}
	root := providertest.RepoRoot(t)
	logs := []string{
		filepath.Join(root, "testdata", "claude", "live", "gen__claude-2.1.197__tools.jsonl"),
		filepath.Join(root, "testdata", "claude", "live", "gen__claude-2.1.197__subagent.jsonl"),
		filepath.Join(root, "testdata", "codex", "live", "gen__codex-0.169.0__tools.jsonl"),
		filepath.Join(root, "testdata", "claude", "entirecli__32-2452abbddc-0.jsonl"),
		filepath.Join(root, "testdata", "codex", "agentsessions__codex-small-0.146.jsonl"),
	}
	const pace = time.Millisecond
	rng := rand.New(rand.NewSource(25))
	provisional, cut := 0, 0
	for run := 0; run < runs; run++ {
		log := logs[run%len(logs)]
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		// the moment of the interrupt, over the time the log takes to write
		at := time.Duration(rng.Int63n(int64(len(lines)) * int64(pace)))
		var skew [3]time.Duration
		for i := range skew {
			skew[i] = time.Duration(rng.Int63n(int64(3 * time.Millisecond)))
		}
		order := rng.Perm(3)
		extra := rng.Intn(3)
		in, out, ends := randomInterrupt(t, bin, lines, pace, at, skew, order, extra)
		want := fused(t, in)
		if !bytes.Equal(out, want) {
			t.Errorf("run %d (%s, interrupt at %v, skews %v, order %v, %d more lines; %d of %d bytes written; %s):\n pipe  %+v\n whole %+v",
				run, filepath.Base(log), at, skew, order, extra, len(in), len(data), ends, totals(t, out), totals(t, want))
		}
		if len(in) < len(data) {
			cut++
		}
		if bytes.Contains(out, []byte(`"provisional":true`)) {
			provisional++
		}
	}
	t.Logf("%d runs: %d cut before the log's end, %d with provisional usage", runs, cut, provisional)
	if cut == 0 {
		t.Error("no run was cut before its log's end: the interrupts came too late")
	}
}

// randomInterrupt runs one pipeline: lines are written one every pace;
// after at, each process gets SIGINT after its skew, in order; the writer
// writes extra more lines and closes. It returns the bytes written and the
// pipeline's output.
func randomInterrupt(t *testing.T, bin string, lines [][]byte, pace, at time.Duration, skew [3]time.Duration, order []int, extra int) (in, out []byte, ends string) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r1, w1, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	cmds := [3]*exec.Cmd{
		exec.Command(filepath.Join(bin, "agt-parse"), "-q"),
		exec.Command(filepath.Join(bin, "agt-normalize"), "-q"),
		exec.Command(filepath.Join(bin, "agt-transcript"), "-q"),
	}
	cmds[0].Stdin, cmds[0].Stdout = inR, w1
	cmds[1].Stdin, cmds[1].Stdout = r1, w2
	cmds[2].Stdin, cmds[2].Stdout = r2, &buf
	var ready [3]chan struct{}
	for i, c := range cmds {
		// the init trace tells when the filter's signals package has
		// asked for interrupts: the run starts once each has
		c.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		stderr, err := c.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		ready[i] = make(chan struct{})
		go caught(stderr, ready[i])
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []*os.File{inR, r1, w1, r2, w2} {
		f.Close()
	}
	for i, r := range ready {
		select {
		case <-r:
		case <-time.After(time.Minute): // a hang guard, not a time limit
			t.Fatalf("%s: its signals package was never initialised", cmds[i].Path)
		}
	}
	// the writer
	var mu sync.Mutex
	var written bytes.Buffer
	stop := make(chan int, 1) // how many lines more, once interrupted
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		defer inW.Close()
		left := -1
		tick := time.NewTicker(pace)
		defer tick.Stop()
		for _, l := range lines {
			if left < 0 {
				select {
				case left = <-stop:
				default:
				}
			}
			if left == 0 {
				return
			}
			if left > 0 {
				left--
			}
			if _, err := inW.Write(l); err != nil {
				return
			}
			mu.Lock()
			written.Write(l)
			mu.Unlock()
			<-tick.C
		}
	}()
	time.Sleep(at)
	start := time.Now()
	for _, i := range order {
		time.Sleep(time.Until(start.Add(skew[i])))
		cmds[i].Process.Signal(syscall.SIGINT)
	}
	stop <- extra
	<-wrote
	done := make(chan struct{})
	go func() {
		for _, c := range cmds {
			c.Wait()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // not a time limit: a pipeline that never ends
		for _, c := range cmds {
			c.Process.Kill()
		}
		t.Fatal("the pipeline did not end after its input did")
	}
	// 0 or 130; or ended by the SIGINT itself when it came once the
	// filter's run was over (its output written, it stops catching)
	for _, c := range cmds {
		ws, _ := c.ProcessState.Sys().(syscall.WaitStatus)
		if code := c.ProcessState.ExitCode(); code != 0 && code != 130 && !(ws.Signaled() && ws.Signal() == syscall.SIGINT) {
			t.Fatalf("%s exit %d (%v)", filepath.Base(c.Path), code, c.ProcessState)
		}
	}
	for _, c := range cmds {
		ends += filepath.Base(c.Path) + " " + c.ProcessState.String() + "; "
	}
	mu.Lock()
	defer mu.Unlock()
	return written.Bytes(), buf.Bytes(), ends
}

// fused is agt-transcript's output on data, run in-process.
func fused(t *testing.T, data []byte) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run(context.Background(), cli.Transcript(cli.IO{In: bytes.NewReader(data), Out: &out, Err: &errb}), []string{"agt-transcript", "-q"}); code != 0 {
		t.Fatalf("agt-transcript: exit %d: %s", code, errb.String())
	}
	return out.Bytes()
}

// caught reads a filter's stderr, closes ready once its init trace shows
// the signals package initialised (SIGINT caught from then on), and reads
// the rest to its end.
func caught(stderr io.Reader, ready chan struct{}) {
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "init github.com/agt-project/agt/cmd/internal/signals ") {
			close(ready)
			break
		}
	}
	io.Copy(io.Discard, stderr)
}
