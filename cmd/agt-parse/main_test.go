package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
// ends quietly with 0 when head exits, and SIGINT ends a run with 130.
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

	t.Run("SIGINT", func(t *testing.T) {
		cmd := exec.Command(bin)
		w, _ := cmd.StdinPipe() // stdin stays open: the run waits for input
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, line)
		time.Sleep(200 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatal("agt-parse did not end on SIGINT")
		}
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("exit %d, want 130", code)
		}
		w.Close()
		if strings.Count(stdout.String(), "\n") > 1 {
			t.Errorf("unexpected output %q", stdout.String())
		}
	})
}
