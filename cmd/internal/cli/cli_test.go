package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
)

const claudeLine = `{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hello"}}`

type runCase struct {
	name        string
	args        []string
	stdin       string
	code        int
	stdout      []string // substrings
	stderr      []string
	noStderr    bool
	stdoutLines int // -1: don't check
}

func run(t *testing.T, app App, ctx context.Context, c runCase) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(ctx, app(IO{In: strings.NewReader(c.stdin), Out: &out, Err: &errb}), append([]string{"agt"}, c.args...))
	if code != c.code {
		t.Errorf("exit %d, want %d; stderr: %s", code, c.code, errb.String())
	}
	for _, s := range c.stdout {
		if !strings.Contains(out.String(), s) {
			t.Errorf("stdout lacks %q: %.500s", s, out.String())
		}
	}
	for _, s := range c.stderr {
		if !strings.Contains(errb.String(), s) {
			t.Errorf("stderr lacks %q: %s", s, errb.String())
		}
	}
	if c.noStderr && errb.Len() > 0 {
		t.Errorf("stderr not empty: %s", errb.String())
	}
	if c.stdoutLines >= 0 && strings.Count(out.String(), "\n") != c.stdoutLines {
		t.Errorf("stdout has %d lines, want %d", strings.Count(out.String(), "\n"), c.stdoutLines)
	}
}

func TestParseCLI(t *testing.T) {
	cases := []runCase{
		{name: "version", args: []string{"--version"}, stdout: []string{"agt-parse version"}, stdoutLines: 1},
		{name: "help", args: []string{"--help"}, stdout: []string{"Examples:", "--provider", "Exit status"}, stdoutLines: -1},
		{name: "bad flag", args: []string{"--bogus"}, code: ExitUsage, stderr: []string{"bogus"}, stdoutLines: -1},
		{name: "bad provider", args: []string{"--provider", "nope"}, code: ExitUsage, stderr: []string{`unknown provider "nope"`}, stdoutLines: 0},
		{name: "stdin claude", stdin: claudeLine + "\n", stdout: []string{`"kind":"user"`, `"provider":"claude"`, `"src":{"path":"-","line":1}`}, noStderr: true, stdoutLines: 1},
		{name: "dash is stdin", args: []string{"-"}, stdin: claudeLine, stdout: []string{`"kind":"user"`}, stdoutLines: 1},
		{name: "forced provider", args: []string{"--provider", "claude"}, stdin: claudeLine, stdout: []string{`"format":"claude-session"`}, stdoutLines: 1},
		{name: "raw", args: []string{"--raw"}, stdin: claudeLine, stdout: []string{`"raw":{"type":"user"`}, stdoutLines: 1},
		{name: "bad line goes on", stdin: claudeLine + "\nnot json\n" + claudeLine + "\n", stdout: []string{`"kind":"error"`, `"line_text":"not json"`}, stderr: []string{"-:2: not JSON"}, stdoutLines: 3},
		{name: "quiet", args: []string{"-q"}, stdin: claudeLine + "\nnot json\n", noStderr: true, stdoutLines: 2},
		{name: "strict", args: []string{"--strict"}, stdin: claudeLine + "\nnot json\n" + claudeLine + "\n", code: ExitFailure, stderr: []string{"-:2: not JSON"}, stdoutLines: -1},
		{name: "missing file", args: []string{"/nonexistent/x.jsonl"}, code: ExitFailure, stderr: []string{"/nonexistent/x.jsonl"}, stdoutLines: 0},
		{name: "unclaimed input", stdin: `{"hello":1}` + "\n", stdout: []string{`"kind":"unknown"`}, stderr: []string{"no provider recognises"}, stdoutLines: 1},
		{name: "empty input", stdin: "", noStderr: true, stdoutLines: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { run(t, Parse, context.Background(), c) })
	}
}

// closedWriter is a stdout whose reader went away.
type closedWriter struct{}

func (closedWriter) Write([]byte) (int, error) { return 0, syscall.EPIPE }

func TestClosedStdout(t *testing.T) {
	var errb bytes.Buffer
	in := strings.Repeat(claudeLine+"\n", 10000)
	code := Run(context.Background(), Parse(IO{In: strings.NewReader(in), Out: closedWriter{}, Err: &errb}), []string{"agt-parse"})
	if code != ExitOK || errb.Len() > 0 {
		t.Errorf("exit %d, stderr %q; want 0 and nothing", code, errb.String())
	}
}

// blockingReader never ends, like a pipe from a running agent.
type blockingReader struct{ ctx context.Context }

func (r blockingReader) Read(p []byte) (int, error) {
	<-r.ctx.Done()
	return 0, errors.New("interrupted")
}

func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- Run(ctx, Parse(IO{In: blockingReader{ctx}, Out: &out, Err: &errb}), []string{"agt-parse"})
	}()
	cancel()
	if code := <-done; code != ExitInterrupted {
		t.Errorf("exit %d, want %d (stderr %s)", code, ExitInterrupted, errb.String())
	}
}

const codexCall = `{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"t1","cwd":"/r"}}
{"timestamp":"2026-01-01T00:00:01.000Z","type":"turn_context","payload":{"model":"gpt-5.1-codex-max"}}
{"timestamp":"2026-01-01T00:00:02.000Z","type":"response_item","payload":{"type":"function_call","name":"shell_command","arguments":"{\"command\":\"cat README.md\",\"workdir\":\"/r\"}","call_id":"c1"}}
{"timestamp":"2026-01-01T00:00:03.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":40,"output_tokens":10,"reasoning_output_tokens":4,"total_tokens":110},"model_context_window":258400}}}
`

func TestNormalizeCLI(t *testing.T) {
	unknownModel := strings.Replace(codexCall, "gpt-5.1-codex-max", "no-such-model-7", 1)
	cases := []runCase{
		{name: "canonical tool", stdin: codexCall, stdout: []string{`"name":"Read"`, `"native_name":"shell_command"`, `"kind":"read"`, `"file_path":"/r/README.md"`, `"cost_usd":`}, noStderr: true, stdoutLines: 4},
		{name: "raw kept beside", args: []string{"--raw"}, stdin: codexCall, stdout: []string{`"name":"Read"`, `"raw":{"timestamp":"2026-01-01T00:00:02.000Z","type":"response_item"`}, stdoutLines: 4},
		{name: "to claude", args: []string{"--to", "claude"}, stdin: codexCall, stdout: []string{`"name":"Bash","native_name":"shell_command","kind":"read"`}, stdoutLines: 4},
		{name: "unknown model warned once", stdin: unknownModel + strings.Replace(unknownModel, `"t1"`, `"t2"`, 1), stderr: []string{`no price for model "no-such-model-7"`}, stdoutLines: 8},
		{name: "bad prices file", args: []string{"--prices", "/nonexistent.json"}, stdin: codexCall, code: ExitFailure, stderr: []string{"nonexistent.json"}, stdoutLines: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run(t, Normalize, context.Background(), c)
		})
	}
	var errb bytes.Buffer
	Run(context.Background(), Normalize(IO{In: strings.NewReader(unknownModel + unknownModel), Out: &bytes.Buffer{}, Err: &errb}), []string{"agt-normalize"})
	if n := strings.Count(errb.String(), "no price for model"); n != 1 {
		t.Errorf("%d warnings for one unknown model, want 1", n)
	}
}

func TestStreamlogCLI(t *testing.T) {
	cases := []runCase{
		{name: "summary", stdin: codexCall, stdout: []string{
			" session    codex t1 · model gpt-5.1-codex-max · cwd /r\n",
			" tool       Read  /r/README.md\n",
			" usage      Σ $0.0002 · 110 tok · ctx <1% · 60 in · 10 out · 40 cache read\n",
			" end        $0.0002 · 110 tok · 60 in · 10 out · 40 cache read · codex t1 · 3.0s · 1 tool call\n",
		}, noStderr: true, stdoutLines: 4},
		{name: "raw", args: []string{"--mode", "raw"}, stdin: codexCall, stdout: []string{`"name":"Read"`}, stdoutLines: 4},
		{name: "bad mode", args: []string{"--mode", "json"}, code: ExitUsage, stdoutLines: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", "1")
			run(t, Streamlog, context.Background(), c)
		})
	}
}
