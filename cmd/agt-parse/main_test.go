package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// build compiles agt-parse for the process-level tests.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agt-parse")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

const line = `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hello"}}` + "\n"

// TestProcess checks what only a real process shows: `agt-parse | head -1`
// ends quietly with 0 when head exits, and SIGINT ends a run with 130 (0
// with -f) after writing what was read.
func TestProcess(t *testing.T) {
	bin := build(t)

	t.Run("closed stdout", func(t *testing.T) {
		in := filepath.Join(t.TempDir(), "big.jsonl")
		if err := os.WriteFile(in, bytes.Repeat([]byte(line), 200000), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, in)
		stdout, _ := cmd.StdoutPipe()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 100)
		io.ReadFull(stdout, buf)
		stdout.Close() // as head does after its first line
		err := cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code != 0 || stderr.Len() > 0 {
			t.Errorf("exit %d (%v), stderr %q; want 0 and nothing", code, err, stderr.String())
		}
	})

	// a pipe on stdin is read to its end after the first SIGINT (its
	// writer got the same interrupt and hands on what it had); a second
	// SIGINT ends the read where it is
	t.Run("SIGINT", func(t *testing.T) {
		for _, second := range []bool{false, true} {
			cmd := exec.Command(bin)
			w, _ := cmd.StdinPipe() // stdin stays open: the run waits for input
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			io.WriteString(w, line)
			waitRead(t, w)
			cmd.Process.Signal(syscall.SIGINT)
			want := 1
			if second {
				time.Sleep(200 * time.Millisecond) // two signals sent at once are one to the kernel; a person's second Ctrl-C comes later
				cmd.Process.Signal(syscall.SIGINT)
			} else {
				// the writer hands on what it had after the interrupt: a
				// run that reads its input's end before the interrupt
				// reaches it has read everything, and ends with 0
				time.Sleep(200 * time.Millisecond)
				io.WriteString(w, strings.Replace(line, `"u1"`, `"u2"`, 1))
				w.Close()
				want = 2
			}
			done := make(chan error)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("agt-parse did not end on SIGINT (second %v)", second)
			}
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Errorf("exit %d, want 130", code)
			}
			w.Close()
			// what was read is written before the exit
			if strings.Count(stdout.String(), "\n") != want || !strings.Contains(stdout.String(), `"kind":"user"`) {
				t.Errorf("second SIGINT %v: output %q, want %d user events", second, stdout.String(), want)
			}
		}
	})

	// following has no end of its own: SIGTERM is its normal end, after
	// the lines written since are read
	t.Run("SIGTERM with -f", func(t *testing.T) {
		dir := t.TempDir()
		in := filepath.Join(dir, "s.jsonl")
		if err := os.WriteFile(in, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-f", dir)
		stdout, _ := cmd.StdoutPipe()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		first := make([]byte, 1)
		if _, err := io.ReadFull(stdout, first); err != nil { // the run is under way, its handlers in place
			t.Fatal(err)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		rest, _ := io.ReadAll(stdout)
		done := make(chan error)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatal("agt-parse -f did not end on SIGTERM")
		}
		if code := cmd.ProcessState.ExitCode(); code != 0 || stderr.Len() > 0 {
			t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr.String())
		}
		if out := string(first) + string(rest); strings.Count(out, "\n") != 1 || !strings.Contains(out, `"kind":"user"`) {
			t.Errorf("output %q, want the file's event", out)
		}
	})
}

// waitRead waits until the process reading the pipe w has read what was
// written to it: the filters read only once their signal handlers are in
// place, so a signal sent then is theirs to handle (sent before, on a
// loaded machine where start-up is slow, it would end the process by
// default).
func waitRead(t *testing.T, w io.Writer) {
	f, ok := w.(*os.File)
	if !ok {
		time.Sleep(200 * time.Millisecond)
		return
	}
	for start := time.Now(); time.Since(start) < 20*time.Second; time.Sleep(5 * time.Millisecond) {
		var n int32
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); e != 0 {
			time.Sleep(200 * time.Millisecond)
			return
		}
		if n == 0 {
			return
		}
	}
	t.Fatal("the process never read its input")
}

// TestPipes checks that a pipe named as a path, a FIFO or /dev/fd/N (what
// a shell's <(…) passes), is read once from its first byte: nothing probes
// it before the read, so no line is lost.
func TestPipes(t *testing.T) {
	bin := build(t)
	const n = 5000
	body := func() []byte {
		var b bytes.Buffer
		for i := 0; i < n; i++ {
			b.WriteString(strings.Replace(line, `"u1"`, `"u`+strconv.Itoa(i)+`"`, 1))
		}
		return b.Bytes()
	}()
	check := func(t *testing.T, cmd *exec.Cmd, feed func()) {
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		feed()
		// a reader that probed the pipe and opens it again waits for a
		// writer forever: end it rather than hang the test
		stop := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
		cmd.Wait()
		stop.Stop()
		if code := cmd.ProcessState.ExitCode(); code != 0 || stderr.Len() > 0 {
			t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr.String())
		}
		if got := strings.Count(stdout.String(), `"kind":"user"`); got != n {
			t.Errorf("%d user events, want %d", got, n)
		}
	}

	t.Run("fifo", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "pipe")
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		check(t, exec.Command(bin, p), func() {
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(body)
			f.Close()
		})
	})

	t.Run("dev-fd", func(t *testing.T) {
		if _, err := os.Stat("/dev/fd/0"); err != nil {
			t.Skip("no /dev/fd")
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "/dev/fd/3")
		cmd.ExtraFiles = []*os.File{r}
		check(t, cmd, func() {
			r.Close() // the child holds its own copy
			w.Write(body)
			w.Close()
		})
	})
}
