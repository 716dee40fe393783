package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
)

func testdataFile(t *testing.T, rel string) string {
	return filepath.Join(providertest.RepoRoot(t), "testdata", rel)
}

func runCode(t *testing.T, app App, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	var out, errb bytes.Buffer
	code := Run(context.Background(), app(IO{In: strings.NewReader(""), Out: &out, Err: &errb}), append([]string{"agt-transcript"}, args...))
	return code, out.String(), errb.String()
}

func TestTranscriptOutputDir(t *testing.T) {
	claude := testdataFile(t, "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	codex := testdataFile(t, "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl")
	in := t.TempDir()
	for _, f := range []string{claude, codex} {
		b, _ := os.ReadFile(f)
		os.WriteFile(filepath.Join(in, filepath.Base(f)), b, 0o644)
	}
	out := t.TempDir()
	code, stdout, stderr := runCode(t, Transcript, nil, "-o", out, "--stream-log", "summary", in)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	want := []string{
		"claude/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.stream.log",
		"claude/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.transcript.jsonl",
		"codex/019b04ae-b1c6-7c72-a134-a4c2de66058c.stream.log",
		"codex/019b04ae-b1c6-7c72-a134-a4c2de66058c.transcript.jsonl",
	}
	got := treeContents(t, out)
	if len(got) != len(want) {
		t.Fatalf("files %v, want %v", keys(got), want)
	}
	for _, f := range want {
		if got[f] == "" {
			t.Errorf("%s missing or empty", f)
		}
	}
	if !strings.Contains(stderr, "2 sessions, 0 inputs skipped") {
		t.Errorf("summary line: %s", stderr)
	}
	if !strings.Contains(got[want[0]], " tool       Bash  mkdir -p myapp") {
		t.Errorf("summary log lacks the tool line:\n%s", got[want[0]])
	}
	// a session's file is what agt-streamlog writes for it in a pipe
	if b, _ := os.ReadFile(testdataFile(t, "streamlog/codex.log")); got[want[2]] != string(b) {
		t.Errorf("%s differs from agt-streamlog's summary of the session (testdata/streamlog/codex.log):\n%s", want[2], got[want[2]])
	}

	// a second run skips both inputs and leaves the files as they were
	code, _, stderr = runCode(t, Transcript, nil, "-o", out, "--stream-log", "summary", in)
	if code != 0 || !strings.Contains(stderr, "0 sessions, 2 inputs skipped") {
		t.Errorf("second run: exit %d, %s", code, stderr)
	}
	// a changed input is converted again, the other skipped
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(in, filepath.Base(codex)), later, later)
	_, _, stderr = runCode(t, Transcript, nil, "-o", out, "--stream-log", "summary", in)
	if !strings.Contains(stderr, "1 session, 1 input skipped") {
		t.Errorf("after a change: %s", stderr)
	}
	// --force converts everything; other options convert again too
	_, _, stderr = runCode(t, Transcript, nil, "-o", out, "--stream-log", "summary", "--force", in)
	if !strings.Contains(stderr, "2 sessions, 0 inputs skipped") {
		t.Errorf("--force: %s", stderr)
	}
	_, _, stderr = runCode(t, Transcript, map[string]string{"AGT_STREAM_LOG": "raw"}, "-o", out, in)
	if !strings.Contains(stderr, "2 sessions, 0 inputs skipped") {
		t.Errorf("another stream log mode: %s", stderr)
	}
	if b, err := os.ReadFile(filepath.Join(out, "codex/019b04ae-b1c6-7c72-a134-a4c2de66058c.stream.jsonl")); err != nil || !bytes.HasPrefix(b, []byte(`{"schema":"agt.event/1"`)) {
		t.Errorf("raw stream log: %v %.100s", err, b)
	}
}

func TestTranscriptFlags(t *testing.T) {
	f := testdataFile(t, "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"stdout", []string{f}, 0, ""},
		{"deprecated log format", []string{"--log-format", "json", "-o", t.TempDir(), f}, 0, "--log-format is deprecated; use --stream-log"},
		{"bad stream log", []string{"--stream-log", "verbose", "-o", t.TempDir(), f}, 2, `--stream-log "verbose"`},
		{"stream log needs -o", []string{"--stream-log", "raw", f}, 2, "needs -o DIR"},
		{"bad --to", []string{"--to", "vim", f}, 2, `--to "vim"`},
		{"bad --format", []string{"--format", "xml", f}, 2, `--format "xml": want agt, atif, atif-v1.7, otlp, agentv or html`},
		{"unwritable -o", []string{"-o", f + "/out", f}, 1, "not a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCode(t, Transcript, nil, c.args...)
			if code != c.code || !strings.Contains(stderr, c.stderr) {
				t.Errorf("exit %d (want %d), stderr %q (want %q)", code, c.code, stderr, c.stderr)
			}
			if c.name == "stdout" && strings.Count(stdout, "\n") != 1 {
				t.Errorf("want one transcript line, got %q", stdout)
			}
		})
	}
}

// TestTranscriptFormatDir: with --format and -o each session's export is
// written beside its transcript; a second run skips the input, a lost export
// file or another format converts it again.
func TestTranscriptFormatDir(t *testing.T) {
	claude := testdataFile(t, "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	out := t.TempDir()
	base := filepath.Join(out, "claude", "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9")
	code, stdout, _ := runCode(t, Transcript, nil, "--format", "atif", claude)
	if code != 0 || !strings.HasPrefix(stdout, `{"schema_version":"ATIF-v1.8"`) {
		t.Fatalf("stdout: exit %d, %.80s", code, stdout)
	}
	if code, v17, _ := runCode(t, Transcript, nil, "--format", "atif-v1.7", claude); code != 0 || v17 != strings.Replace(stdout, "ATIF-v1.8", "ATIF-v1.7", -1) {
		t.Errorf("--format atif-v1.7: exit %d, %.80s", code, v17)
	}
	code, _, stderr := runCode(t, Transcript, nil, "-o", out, "--format", "atif", claude)
	if code != 0 || !strings.Contains(stderr, "1 session, 0 inputs skipped") {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	got := treeContents(t, out)
	if len(got) != 2 || got["claude/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.transcript.jsonl"] == "" {
		t.Fatalf("files %v", keys(got))
	}
	if b, _ := os.ReadFile(base + ".trajectory.json"); string(b) != stdout {
		t.Errorf("the trajectory file differs from the stdout run's")
	}
	steps := []struct {
		what, format, skip string
		before             func()
		file               string
	}{
		{"a second run", "atif", "0 sessions, 1 input skipped", nil, ".trajectory.json"},
		{"a lost export", "atif", "1 session, 0 inputs skipped", func() { os.Remove(base + ".trajectory.json") }, ".trajectory.json"},
		{"another format", "otlp", "1 session, 0 inputs skipped", nil, ".otlp.jsonl"},
		{"AgentV rows", "agentv", "1 session, 0 inputs skipped", nil, ".agentv.jsonl"},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		_, _, stderr := runCode(t, Transcript, nil, "-o", out, "--format", s.format, claude)
		if !strings.Contains(stderr, s.skip) {
			t.Errorf("%s: %s", s.what, stderr)
		}
		if _, err := os.Stat(base + s.file); err != nil {
			t.Errorf("%s: %v", s.what, err)
		}
	}
}

// TestTranscriptATIFLeftOut: a session without any message has no ATIF
// document (Harbor's models want a step); it is left out with one line on
// stderr, and the run goes on.
func TestTranscriptATIFLeftOut(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "5d1881df-0000-4000-8000-000000000004.jsonl")
	os.WriteFile(empty, []byte(`{"type":"permission-mode","permissionMode":"default","sessionId":"5d1881df-0000-4000-8000-000000000004"}`+"\n"), 0o644)
	claude := testdataFile(t, "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	code, stdout, stderr := runCode(t, Transcript, nil, "--format", "atif", empty, claude)
	if code != 0 || strings.Count(stdout, "\n") != 1 || strings.Count(stderr, "\n") != 1 ||
		!strings.Contains(stderr, "session 5d1881df-0000-4000-8000-000000000004: nothing to show") {
		t.Errorf("exit %d, %d documents, stderr %q", code, strings.Count(stdout, "\n"), stderr)
	}
	if _, _, stderr := runCode(t, Transcript, nil, "-q", "--format", "atif", empty); stderr != "" {
		t.Errorf("-q: stderr %q", stderr)
	}
}

func keys(m map[string]string) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	return k
}

// TestStreamLogSpellings: an explicit --stream-log wins over the deprecated
// --log-format, which only warns; --log-format alone still sets the mode.
func TestStreamLogSpellings(t *testing.T) {
	f := testdataFile(t, "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	for _, c := range []struct {
		args []string
		raw  bool
		say  string
	}{
		{[]string{"--stream-log", "summary", "--log-format", "json"}, false, "--stream-log summary wins over --log-format json"},
		{[]string{"--log-format", "json", "--stream-log", "summary"}, false, "--stream-log summary wins over --log-format json"},
		{[]string{"--log-format", "json"}, true, "--log-format is deprecated"},
		{[]string{"--log-format", "summary"}, false, "--log-format is deprecated"},
	} {
		out := t.TempDir()
		code, _, stderr := runCode(t, Transcript, nil, append(c.args, "-o", out, f)...)
		if code != 0 || !strings.Contains(stderr, c.say) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.say)
		}
		logs, _ := filepath.Glob(filepath.Join(out, "claude", "*.stream.*"))
		if len(logs) != 1 {
			t.Fatalf("%v: stream logs %v", c.args, logs)
		}
		b, _ := os.ReadFile(logs[0])
		if raw := bytes.HasPrefix(b, []byte(`{"schema":"agt.event/1"`)); raw != c.raw {
			t.Errorf("%v: %s is raw %v, want %v: %.80s", c.args, logs[0], raw, c.raw, b)
		}
	}
}

// TestRunLine: the closing line of a -o run counts in words that agree
// with their number, and a run that read nothing says so rather than a
// rate of nothing.
func TestRunLine(t *testing.T) {
	cases := []struct {
		sessions int64
		st       provider.Stats
		want     string
	}{
		{1, provider.Stats{Events: 1, Bytes: 24300, Skipped: 1, Errors: 1}, "1 session, 1 input skipped as up to date, 1 event, 1 error, 24.3 KB in 0.10s (0.2 MB/s)"},
		{2, provider.Stats{Events: 30, Bytes: 3_500_000}, "2 sessions, 0 inputs skipped as up to date, 30 events, 0 errors, 3.5 MB in 0.10s (35.0 MB/s)"},
		{0, provider.Stats{Skipped: 3}, "0 sessions, 3 inputs skipped as up to date: nothing new to convert (--force converts them again)"},
		{0, provider.Stats{}, "0 sessions, 0 inputs skipped as up to date: nothing read"},
	}
	for _, c := range cases {
		if got := runLine(c.sessions, c.st, 100*time.Millisecond); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// TestSerialShare: with AGT_DEBUG_SERIAL set, a run says on stderr how
// long its ordered apply step took, for make bench's serial share; without
// it, nothing is said.
func TestSerialShare(t *testing.T) {
	claude := testdataFile(t, "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	code, _, stderr := runCode(t, Transcript, nil, "-q", claude)
	if code != 0 || strings.Contains(stderr, "ordered apply step") {
		t.Fatalf("without %s: exit %d, stderr %q", serialEnv, code, stderr)
	}
	code, _, stderr = runCode(t, Transcript, map[string]string{serialEnv: "1"}, "-q", claude)
	var sec float64
	i := strings.Index(stderr, "agt-transcript: ordered apply step: ")
	if code != 0 || i < 0 {
		t.Fatalf("with %s: exit %d, stderr %q", serialEnv, code, stderr)
	}
	if _, err := fmt.Sscanf(stderr[i:], "agt-transcript: ordered apply step: %g s\n", &sec); err != nil || sec <= 0 {
		t.Errorf("stderr %q: %v, %g s", stderr, err, sec)
	}
}
