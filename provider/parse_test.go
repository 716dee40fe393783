package provider_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
)

func stringInput(path, s string) stage.Input {
	return stage.Input{Path: path, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(s)), nil }}
}

const userLine = `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hello"}}`

// TestUnreadableInput: an input that cannot be read is reported, counted,
// and the other inputs are still converted.
func TestUnreadableInput(t *testing.T) {
	ins := []stage.Input{
		{Path: "gone.jsonl", Open: func() (io.ReadCloser, error) { return nil, errors.New("permission denied") }},
		stringInput("ok.jsonl", userLine+"\n"),
	}
	var out, diag bytes.Buffer
	st, err := provider.Parse(context.Background(), provider.Config{}, ins, &out, &diag)
	if err != nil {
		t.Fatal(err)
	}
	if st.Unreadable != 1 || !strings.Contains(diag.String(), "gone.jsonl: unreadable: permission denied") {
		t.Errorf("unreadable %d, diag %q", st.Unreadable, diag.String())
	}
	if !strings.Contains(out.String(), `"src":{"path":"ok.jsonl","line":1}`) {
		t.Errorf("the readable input was not converted: %s", out.String())
	}
}

// TestWorkersSameBytes: the output does not depend on the number of workers.
func TestWorkersSameBytes(t *testing.T) {
	in := strings.Repeat(userLine+"\nnot json\n", 3000)
	var outs []string
	for _, n := range []int{1, 2, 8} {
		var out bytes.Buffer
		if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Workers: n, Quiet: true}}, []stage.Input{stringInput("x.jsonl", in)}, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out.String())
	}
	if outs[0] != outs[1] || outs[0] != outs[2] {
		t.Error("output differs between 1, 2 and 8 workers")
	}
}

// Inputs given twice (a folder named twice) are read twice, each subagent
// file with its own copy of its session file, in the same order each run.
func TestUnitsTwice(t *testing.T) {
	sess, sub := "p/s.jsonl", "p/s/subagents/agent-a.jsonl"
	subLine := strings.Replace(userLine, `"u1"`, `"a1"`, 1)
	ins := []stage.Input{stringInput(sub, subLine), stringInput(sess, userLine), stringInput(sub, subLine), stringInput(sess, userLine)}
	var first string
	for run := 0; run < 3; run++ {
		var out bytes.Buffer
		if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Quiet: true}}, ins, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if i := strings.Index(l, `"src":{"path":"`); i >= 0 {
				p, _, _ := strings.Cut(l[i+len(`"src":{"path":"`):], `"`)
				paths = append(paths, p)
			}
		}
		if got, want := strings.Join(paths, " "), strings.Join([]string{sess, sub, sess, sub}, " "); got != want {
			t.Fatalf("run %d: sources %s, want %s", run, got, want)
		}
		if run == 0 {
			first = out.String()
		} else if out.String() != first {
			t.Fatalf("run %d writes another output", run)
		}
	}
}
