package main

import (
	"path/filepath"
	"testing"
)

// TestFreshFolder: a step's folder is removed before each run, so that
// every run writes into a new one (mkdir fails on a folder left by the run
// before), and the removal is not part of the step.
func TestFreshFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	r, err := measure([]step{{name: "mkdir", args: []string{out}, fresh: out}}, 3)
	if err != nil {
		t.Fatalf("a run found the last run's folder: %v", err)
	}
	if r.wall <= 0 || r.cpu < 0 {
		t.Errorf("result %+v", r)
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
	if _, err := measure([]step{{name: "grep", args: []string{"-q", "hello"}, stdin: in}}, 1); err != nil {
		t.Fatalf("grep did not read the step's stdin: %v", err)
	}
	if _, err := measure([]step{{name: "grep", args: []string{"-q", "absent"}, stdin: in}}, 1); err == nil {
		t.Fatal("grep for an absent word succeeded: stdin not the file")
	}
}
