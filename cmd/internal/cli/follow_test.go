package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
	"github.com/urfave/cli/v2"
)

// syncBuffer is an output a test reads while a filter writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// followRun is a filter run in follow mode.
type followRun struct {
	out, err syncBuffer
	cancel   context.CancelFunc
	code     chan int
	done     chan struct{} // closed when the run has ended
}

func startFollow(t *testing.T, app App, args ...string) *followRun {
	t.Helper()
	return startFollowTo(t, app, nil, args...)
}

// startFollowTo is startFollow with its output to out (nil: f.out).
func startFollowTo(t *testing.T, app App, out io.Writer, args ...string) *followRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f := &followRun{cancel: cancel, code: make(chan int, 1), done: make(chan struct{})}
	if out == nil {
		out = &f.out
	}
	a := app(IO{In: strings.NewReader(""), Out: out, Err: &f.err})
	// other apps are run beside this one only once it has parsed its flags:
	// the version flag is a global of the cli package
	parsed := make(chan struct{})
	a.Before = func(*cli.Context) error { close(parsed); return nil }
	go func() {
		defer close(f.done)
		f.code <- Run(ctx, a, append([]string{"agt"}, args...))
	}()
	select {
	case <-parsed:
	case <-f.done:
	case <-time.After(hangGuard):
		t.Fatal("hang guard: the app did not start")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case <-f.done:
		case <-time.After(hangGuard):
		}
	})
	return f
}

// waitOut waits until the output meets ok; the hang guard only ends a run
// that would never meet it.
func (f *followRun) waitOut(t *testing.T, what string, ok func(out []byte) bool) {
	t.Helper()
	f.wait(t, what, func() bool { return ok(f.out.Bytes()) })
}

func (f *followRun) waitErr(t *testing.T, text string) {
	t.Helper()
	f.wait(t, "stderr "+text, func() bool { return bytes.Contains(f.err.Bytes(), []byte(text)) })
}

func (f *followRun) wait(t *testing.T, what string, ok func() bool) {
	t.Helper()
	guard := time.After(hangGuard)
	for !ok() {
		select {
		case <-guard:
			t.Fatalf("hang guard: still waiting for %s\nstdout:\n%s\nstderr:\n%s", what, f.out.Bytes(), f.err.Bytes())
		case code := <-f.code:
			t.Fatalf("ended (exit %d) while waiting for %s\nstderr:\n%s", code, what, f.err.Bytes())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// stop interrupts the run and returns its exit code.
func (f *followRun) stop(t *testing.T) int {
	t.Helper()
	f.cancel()
	select {
	case code := <-f.code:
		return code
	case <-time.After(hangGuard):
		t.Fatal("hang guard: the run did not end after the interrupt")
	}
	return -1
}

// byPath splits JSONL events by src.path, in order.
func byPath(t *testing.T, out []byte) map[string][]string {
	t.Helper()
	m := map[string][]string{}
	for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var ev struct {
			Src struct {
				Path string `json:"path"`
			} `json:"src"`
		}
		if err := json.Unmarshal(l, &ev); err != nil {
			t.Fatalf("output line %.200s: %v", l, err)
		}
		m[ev.Src.Path] = append(m[ev.Src.Path], string(l))
	}
	return m
}

// covers tells whether the events name every line of the file at path in
// src (every input line yields at least one event).
func covers(t *testing.T, out []byte, path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Count(data, []byte("\n"))
	seen := map[int64]bool{}
	for _, l := range byPath(t, out)[path] {
		var ev struct {
			Src struct {
				Line int64 `json:"line"`
			} `json:"src"`
		}
		json.Unmarshal([]byte(l), &ev)
		seen[ev.Src.Line] = true
	}
	for i := 1; i <= want; i++ {
		if !seen[int64(i)] {
			return false
		}
	}
	return true
}

// testLines returns the lines of the testdata file name.
func testLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(providertest.RepoRoot(t), "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	ls := strings.SplitAfter(string(data), "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// followScript writes a followed folder as a session is written: a session
// file whose lines come in three steps (a line in two halves among them),
// then a new session file, then a subagent file in a subfolder. Each step
// waits (ready) until the run has written what the files hold so far.
// It returns the files written.
func followScript(t *testing.T, dir string, ready func(files []string)) []string {
	session := testLines(t, "claude/ccviewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")
	s := filepath.Join(dir, "5c0375b4.jsonl")
	appendFile(t, s, strings.Join(session[:10], ""))
	ready([]string{s})
	half := len(session[10]) / 2
	appendFile(t, s, session[10][:half]) // half a line: held until its end comes
	appendFile(t, s, session[10][half:]+strings.Join(session[11:30], ""))
	ready([]string{s})
	appendFile(t, s, strings.Join(session[30:], ""))
	ready([]string{s})

	rollout := filepath.Join(dir, "rollout.jsonl")
	appendFile(t, rollout, strings.Join(testLines(t, "codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl"), ""))
	ready([]string{s, rollout})

	parent := filepath.Join(dir, "0a1b2c3d.jsonl")
	sub := filepath.Join(dir, "0a1b2c3d", "subagents", "agent-a0ad4f44468bdf20d.jsonl")
	if err := os.MkdirAll(filepath.Dir(sub), 0o755); err != nil {
		t.Fatal(err)
	}
	appendFile(t, parent, strings.Join(testLines(t, "claude/agentsessions__subagent-parent-0a1b2c3d.jsonl"), ""))
	appendFile(t, sub, strings.Join(testLines(t, "claude/agentsessions__subagent-child-agent-a0ad4f44468bdf20d.jsonl"), ""))
	files := []string{s, rollout, parent, sub}
	ready(files)
	return files
}

// TestFollowParse: agt-parse -f on a folder shows each file's events as the
// file grows and as new files (in subfolders too) appear; an interrupt ends
// it with 0, and each file's events are then exactly those of the file read
// whole on its own.
func TestFollowParse(t *testing.T) {
	for _, name := range []string{"agt-parse", "agt-normalize"} {
		t.Run(name, func(t *testing.T) {
			app := apps[name]
			dir := t.TempDir()
			f := startFollow(t, app, "-f", dir)
			files := followScript(t, dir, func(files []string) {
				f.waitOut(t, "the events of "+strings.Join(files, ", "), func(out []byte) bool {
					for _, p := range files {
						if !covers(t, out, p) {
							return false
						}
					}
					return true
				})
			})
			if code := f.stop(t); code != ExitOK {
				t.Fatalf("exit %d after the interrupt, want 0; stderr:\n%s", code, f.err.Bytes())
			}
			got := byPath(t, f.out.Bytes())
			for _, p := range files {
				want := byPath(t, runApp(t, app, nil, p))[p]
				if !slices.Equal(got[p], want) {
					t.Errorf("%s: followed events differ from the whole file's:\n got %d events\nwant %d events\n%s", p, len(got[p]), len(want), firstDiff(got[p], want))
				}
			}
			if len(got) != len(files) {
				t.Errorf("events of %d paths, want %d", len(got), len(files))
			}
			if s := f.err.Bytes(); len(s) > 0 {
				t.Errorf("stderr: %s", s)
			}
		})
	}
}

func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return "first difference:\n got " + got[i] + "\nwant " + want[i]
		}
	}
	return ""
}

// TestFollowStreamlog: agt-streamlog -f writes the summary lines of what
// is written as it comes, and in the end the lines of the files read whole
// (in another order across files, each session's lines numbered once a
// second one shows), under a header line naming the file whenever the file
// changes, each session's closing line written when following ends.
func TestFollowStreamlog(t *testing.T) {
	dir := t.TempDir()
	f := startFollow(t, Streamlog, "-f", dir)
	// a followed session has no end; while followed, the usage of its last
	// model call is not final yet (the next call may correct it)
	kind := func(l string) string { return strings.TrimSpace(l[min(len(l), 25):min(len(l), 36)]) }
	without := func(lines []string, kinds ...string) []string {
		return slices.DeleteFunc(lines, func(l string) bool { return slices.Contains(kinds, kind(l)) })
	}
	whole := func(files ...string) []string {
		return sortedLines(untagged(runApp(t, Streamlog, nil, files...)))
	}
	files := followScript(t, dir, func(files []string) {
		want := without(whole(files...), "usage", "end")
		f.waitOut(t, "the summary of "+strings.Join(files, ", "), func(out []byte) bool {
			return slices.Equal(without(sortedLines(untagged(unheaded(out))), "usage"), want)
		})
	})
	if code := f.stop(t); code != ExitOK {
		t.Fatalf("exit %d after the interrupt, want 0; stderr:\n%s", code, f.err.Bytes())
	}
	for _, p := range files {
		if !bytes.Contains(f.out.Bytes(), []byte("==> "+p+" <==\n")) {
			t.Errorf("no header line for %s", p)
		}
	}
	got := sortedLines(untagged(unheaded(f.out.Bytes())))
	if want := whole(dir); !slices.Equal(got, want) {
		t.Errorf("the summary lines differ from those of the files read whole: got %d, want %d", len(got), len(want))
	}
}

// sortedLines are the lines of out, sorted.
func sortedLines(out []byte) []string {
	ls := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(out) == 0 {
		ls = nil
	}
	slices.Sort(ls)
	return ls
}

// TestFollowHostile: what following meets in a folder others write to. A
// followed file removed is left, and a new file of its name is read as a
// new file; a file truncated is read again from its start; a followed
// folder removed is said once, and read again when it is back. Each ends
// with 0 after the interrupt.
func TestFollowHostile(t *testing.T) {
	session := testLines(t, "claude/ccviewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")
	parent := strings.Join(testLines(t, "claude/agentsessions__subagent-parent-0a1b2c3d.jsonl"), "")
	rollout := strings.Join(testLines(t, "codex/agtrace__rollout-parent-019b88e0.jsonl"), "")
	has := func(path, text string) func([]byte) bool {
		return func(out []byte) bool {
			for _, l := range byPath(t, out)[path] {
				if strings.Contains(l, text) {
					return true
				}
			}
			return false
		}
	}
	start := func(t *testing.T, root string) (*followRun, string) {
		a := filepath.Join(root, "a.jsonl")
		appendFile(t, a, strings.Join(session[:10], ""))
		f := startFollow(t, Parse, "-f", root)
		f.waitOut(t, "the events of a.jsonl", func(out []byte) bool { return covers(t, out, a) })
		return f, a
	}
	end := func(t *testing.T, f *followRun) {
		if code := f.stop(t); code != ExitOK {
			t.Fatalf("exit %d after the interrupt, want 0; stderr:\n%s", code, f.err.Bytes())
		}
	}
	t.Run("removed", func(t *testing.T) {
		f, a := start(t, t.TempDir())
		if err := os.Remove(a); err != nil {
			t.Fatal(err)
		}
		f.waitErr(t, a+": removed: no longer followed")
		appendFile(t, a, rollout)
		f.waitOut(t, "the events of the new a.jsonl", has(a, `"provider":"codex"`))
		end(t, f)
	})
	t.Run("truncated", func(t *testing.T) {
		f, a := start(t, t.TempDir())
		if len(parent) >= len(strings.Join(session[:10], "")) {
			t.Fatal("the new content must be shorter than the old")
		}
		if err := os.WriteFile(a, []byte(parent), 0o644); err != nil {
			t.Fatal(err)
		}
		f.waitErr(t, a+": truncated: reading it again from its start")
		f.waitOut(t, "the events of the new content", has(a, `"native_session":"0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f"`))
		end(t, f)
	})
	t.Run("folder-removed", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "project")
		if err := os.Mkdir(root, 0o755); err != nil {
			t.Fatal(err)
		}
		f, a := start(t, root)
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
		f.waitErr(t, a+": removed: no longer followed")
		f.waitErr(t, root+": no such file or directory: followed again when it is back")
		if err := os.Mkdir(root, 0o755); err != nil {
			t.Fatal(err)
		}
		b := filepath.Join(root, "b.jsonl")
		appendFile(t, b, rollout)
		f.waitOut(t, "the events of b.jsonl", func(out []byte) bool { return covers(t, out, b) })
		end(t, f)
		if n := strings.Count(string(f.err.Bytes()), "followed again when it is back"); n != 1 {
			t.Errorf("the folder gone said %d times, want once", n)
		}
	})
}

// notifyWriter hands each write on to a channel.
type notifyWriter struct{ c chan []byte }

func (w notifyWriter) Write(p []byte) (int, error) {
	w.c <- bytes.Clone(p)
	return len(p), nil
}

// BenchmarkFollowLatency measures the delay between a line appended to a
// followed file and its output from the filter: one line per iteration,
// appended at a random moment over two poll intervals (so as not to keep step with the poll), its
// output awaited; median and p99 are reported. Run it with a fixed count:
//
//	go test ./cmd/internal/cli -run '^$' -bench FollowLatency -benchtime 300x
func BenchmarkFollowLatency(b *testing.B) {
	for _, f := range []struct {
		name string
		app  App
	}{{"agt-parse", Parse}, {"agt-streamlog", Streamlog}} {
		b.Run(f.name, func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "s.jsonl")
			if err := os.WriteFile(path, []byte(latencyLine(0)), 0o644); err != nil {
				b.Fatal(err)
			}
			out := notifyWriter{make(chan []byte, 1024)}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan int, 1)
			go func() {
				done <- Run(ctx, f.app(IO{In: strings.NewReader(""), Out: out, Err: io.Discard}), []string{"agt", "-f", dir})
			}()
			await := func(i int) time.Time { return awaitLine(b, out, i) }
			await(0)
			lat := make([]time.Duration, 0, b.N)
			rng := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			for i := 1; i <= b.N; i++ {
				time.Sleep(time.Duration(rng.Int64N(int64(2 * stage.DefaultPoll))))
				t0 := time.Now()
				fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					b.Fatal(err)
				}
				fh.WriteString(latencyLine(i))
				fh.Close()
				lat = append(lat, await(i).Sub(t0))
			}
			b.StopTimer()
			cancel()
			if code := <-done; code != ExitOK {
				b.Errorf("exit %d", code)
			}
			reportLatency(b, lat)
		})
	}
}

// latencyLine is the i-th line the latency benchmarks write: a Claude Code
// user record whose text marks it.
func latencyLine(i int) string {
	return fmt.Sprintf(`{"type":"user","sessionId":"s1","uuid":"u%d","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"line-%d-end"}}`+"\n", i, i)
}

// awaitLine waits until the output of latencyLine(i) is written to out,
// and returns when.
func awaitLine(b *testing.B, out notifyWriter, i int) time.Time {
	mark := []byte(fmt.Sprintf("line-%d-end", i))
	for {
		select {
		case p := <-out.c:
			if bytes.Contains(p, mark) {
				return time.Now()
			}
		case <-time.After(hangGuard):
			b.Fatalf("hang guard: line %d never came out", i)
		}
	}
}

// reportLatency reports the median, p99 and max of latencies.
func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
}

// BenchmarkPipeLatency times, for agt-parse and agt-streamlog reading a
// pipe, the delay between a line written to the pipe and its output: one
// line per iteration, written after a random pause of up to 20 ms, its
// output awaited; median and p99 are reported. Run it with a fixed count:
//
//	go test ./cmd/internal/cli -run '^$' -bench PipeLatency -benchtime 300x
func BenchmarkPipeLatency(b *testing.B) {
	for _, f := range []struct {
		name string
		app  App
	}{{"agt-parse", Parse}, {"agt-streamlog", Streamlog}} {
		b.Run(f.name, func(b *testing.B) {
			r, w, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			out := notifyWriter{make(chan []byte, 1024)}
			done := make(chan int, 1)
			go func() {
				done <- Run(context.Background(), f.app(IO{In: r, Out: out, Err: io.Discard}), []string{"agt"})
			}()
			await := func(i int) time.Time { return awaitLine(b, out, i) }
			w.WriteString(latencyLine(0))
			await(0)
			lat := make([]time.Duration, 0, b.N)
			rng := rand.New(rand.NewPCG(1, 2))
			b.ResetTimer()
			for i := 1; i <= b.N; i++ {
				time.Sleep(time.Duration(rng.Int64N(int64(20 * time.Millisecond))))
				t0 := time.Now()
				w.WriteString(latencyLine(i))
				lat = append(lat, await(i).Sub(t0))
			}
			b.StopTimer()
			w.Close()
			if code := <-done; code != ExitOK {
				b.Errorf("exit %d", code)
			}
			r.Close()
			reportLatency(b, lat)
		})
	}
}

// untagged is a followed summary without the session numbers its lines
// carry once a second session shows (a file read alone has one session).
func untagged(out []byte) []byte {
	return tagRe.ReplaceAll(out, []byte("$1"))
}

var tagRe = regexp.MustCompile(`(?m)^(.{24} )#\d+ `)

// TestFollowStdin: with -f, stdin is read as a stream as without it, and
// an interrupt is its normal end: exit 0 (130 without -f, TestInterrupted).
func TestFollowStdin(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- Run(ctx, Parse(IO{In: blockingReader{ctx}, Out: &out, Err: &errb}), []string{"agt-parse", "-f"})
	}()
	cancel()
	if code := <-done; code != ExitOK {
		t.Errorf("exit %d, want 0 (stderr %s)", code, errb.String())
	}
}

// TestFollowHelp: the four following filters document -f with an example.
func TestFollowHelp(t *testing.T) {
	for _, name := range []string{"agt-parse", "agt-normalize", "agt-streamlog", "agt-transcript"} {
		var out bytes.Buffer
		Run(context.Background(), apps[name](IO{In: strings.NewReader(""), Out: &out, Err: io.Discard}), []string{name, "--help"})
		for _, want := range []string{"--follow, -f", "--follow-timeout DURATION", name + " -f ", "With -f (--follow)"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s --help lacks %q", name, want)
			}
		}
	}
}

// unheaded is a followed summary without its "==> FILE <==" header lines
// and the blank lines before them.
func unheaded(out []byte) []byte {
	var b bytes.Buffer
	for _, l := range strings.SplitAfter(string(out), "\n") {
		if l != "\n" && !strings.HasPrefix(l, "==> ") {
			b.WriteString(l)
		}
	}
	return b.Bytes()
}
