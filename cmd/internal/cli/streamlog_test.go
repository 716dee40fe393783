package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt/provider/providertest"
)

// streamlogGolden are real sessions (licensed copies in testdata/) whose
// summary stream logs were read against the raw logs: a Claude Code session
// with its subagent's file, Codex and Gemini CLI sessions, four live
// captures (two name their session only on their last line), and two
// sessions in one output (numbered lines).
var streamlogGolden = []struct {
	name  string
	files []string
}{
	{"claude-subagent", []string{"claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl", "claude/agtrace__agent-0c4c3cf8.jsonl"}},
	{"codex", []string{"codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl"}},
	{"gemini", []string{"gemini/agtrace__session-2025-12-09T19-50-f0a689a6.json"}},
	{"claude-live", []string{"claude/live/gen__claude-2.1.197__subagent.jsonl"}},
	{"codex-live", []string{"codex/live/gen__codex-0.169.0__tools.jsonl"}},
	{"copilot-live", []string{"copilot/live/gen__copilot-1.0.102__tools.jsonl"}},
	{"pi-rpc", []string{"pi/live/gen__pi-0.73.1__rpc-stdout.jsonl"}},
	{"two-sessions", []string{"codex/agentsessions__codex-small-0.146.jsonl", "claude/live/gen__claude-2.1.197__tools.jsonl"}},
}

// TestStreamlogGolden compares agt-streamlog's summary of real sessions
// with testdata/streamlog/ (go test ./cmd/... -update rewrites them).
func TestStreamlogGolden(t *testing.T) {
	root := filepath.Join(providertest.RepoRoot(t), "testdata")
	t.Setenv("NO_COLOR", "")
	t.Setenv("COLUMNS", "40") // not a terminal: no effect
	for _, c := range streamlogGolden {
		t.Run(c.name, func(t *testing.T) {
			var args []string
			for _, f := range c.files {
				args = append(args, filepath.Join(root, f))
			}
			out, errs, code := runFilter(t, Streamlog, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			providertest.Golden(t, out, filepath.Join(root, "streamlog", c.name+".log"))
		})
	}
}

// runFilter runs app with args, its stdout a buffer (not a terminal).
func runFilter(t *testing.T, app App, args ...string) ([]byte, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), app(IO{In: strings.NewReader(""), Out: &out, Err: &errb}), append([]string{"agt"}, args...))
	return out.Bytes(), errb.String(), code
}

// TestStreamlogPipeWhole: in a pipe, a line is never cut, however long,
// and stays one line.
func TestStreamlogPipeWhole(t *testing.T) {
	t.Setenv("COLUMNS", "40")
	long := strings.Repeat("word ", 2000) + "end"
	in := fmt.Sprintf(`{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":%q}}`, long+"\nsecond line")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	var errb bytes.Buffer
	code := Run(context.Background(), Streamlog(IO{In: strings.NewReader(in + "\n"), Out: w, Err: &errb}), []string{"agt"})
	w.Close()
	out := string(<-got)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 { // header, user, end
		t.Fatalf("%d lines, want 3:\n%.300s", len(lines), out)
	}
	if !strings.HasSuffix(lines[1], " user       "+long+" second line") {
		t.Errorf("the user line is not whole: %d bytes, ends %q", len(lines[1]), lines[1][max(0, len(lines[1])-40):])
	}
}

// closing is a session's closing line as agt-transcript's figures give it:
// its tokens and cost, then its tool calls.
func closing(t *testing.T, line []byte) (figures, calls string) {
	var tr struct {
		Usage struct {
			Input       int64 `json:"input"`
			Output      int64 `json:"output"`
			CacheRead   int64 `json:"cache_read"`
			CacheWrite  int64 `json:"cache_write"`
			Provisional bool  `json:"provisional"`
		} `json:"usage"`
		CostUSD *float64 `json:"cost_usd"`
		Counts  struct {
			ToolCalls int `json:"tool_calls"`
		} `json:"counts"`
	}
	if err := json.Unmarshal(line, &tr); err != nil {
		t.Fatal(err)
	}
	u := tr.Usage
	if u.Input == 0 && u.Output == 0 && u.CacheRead == 0 && u.CacheWrite == 0 && tr.CostUSD == nil {
		figures = "no usage"
	} else {
		// the cost and the tokens in all first (what a narrow terminal
		// keeps), then the tokens by kind
		mark := ""
		if u.Provisional {
			mark = "~"
		}
		var parts []string
		if tr.CostUSD != nil {
			parts = append(parts, fmt.Sprintf("%s$%.4f", mark, *tr.CostUSD))
		}
		parts = append(parts, mark+commas(u.Input+u.Output+u.CacheRead+u.CacheWrite)+" tok", commas(u.Input)+" in", commas(u.Output)+" out")
		if u.CacheRead != 0 {
			parts = append(parts, commas(u.CacheRead)+" cache read")
		}
		if u.CacheWrite != 0 {
			parts = append(parts, commas(u.CacheWrite)+" cache write")
		}
		figures = strings.Join(parts, " · ")
	}
	calls = fmt.Sprintf("%d tool calls", tr.Counts.ToolCalls)
	if tr.Counts.ToolCalls == 1 {
		calls = "1 tool call"
	}
	return figures, calls
}

func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// endLine is a closing line: its time, the session's number, its label.
var endLine = regexp.MustCompile(`^(?: +-|\S+) (?:#\d+ )?end {8}(.*)$`)

// TestStreamlogTotals: for every corpus input, the closing line of each
// session agt-streamlog writes has the tokens and cost of the transcript
// agt-transcript writes for it, sessions in the same order.
func TestStreamlogTotals(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole corpus")
	}
	corpus := providertest.CorpusDir(t)
	var inputs []string
	for _, dir := range []string{"claude", "codex", "gemini", "copilot", "pi", "opencode", "other"} {
		entries, _ := os.ReadDir(filepath.Join(corpus, dir))
		for _, e := range entries {
			inputs = append(inputs, filepath.Join(corpus, dir, e.Name()))
		}
	}
	lives, _ := filepath.Glob(filepath.Join(corpus, "live", "*", "*"))
	inputs = append(inputs, lives...)
	sessions, priced := 0, 0
	for _, in := range inputs {
		if strings.HasSuffix(in, ".tsv") || strings.HasSuffix(in, ".md") {
			continue
		}
		rel, _ := filepath.Rel(corpus, in)
		t.Run(rel, func(t *testing.T) {
			trs, _, code1 := runFilter(t, Transcript, "-q", in)
			log, _, code2 := runFilter(t, Streamlog, "-q", in)
			if code1 != code2 {
				t.Fatalf("exit %d from agt-transcript, %d from agt-streamlog", code1, code2)
			}
			var ends []string
			for _, l := range strings.Split(string(log), "\n") {
				if m := endLine.FindStringSubmatch(l); m != nil {
					ends = append(ends, m[1])
				}
			}
			lines := bytes.Split(bytes.TrimSuffix(trs, []byte("\n")), []byte("\n"))
			if len(trs) == 0 {
				lines = nil
			}
			if len(ends) != len(lines) {
				t.Fatalf("%d closing lines, %d transcripts", len(ends), len(lines))
			}
			for i, l := range lines {
				figures, calls := closing(t, l)
				var tr struct {
					Provider      string `json:"provider"`
					NativeSession string `json:"native_session"`
				}
				json.Unmarshal(l, &tr)
				name := strings.TrimSpace(tr.Provider + " " + tr.NativeSession)
				if !strings.HasPrefix(ends[i], figures+" · "+name+" · ") || !strings.Contains(ends[i], " · "+calls) {
					t.Errorf("session %d: closing line %q, want %q … %q", i+1, ends[i], figures+" · "+name, calls)
				}
				sessions++
				if strings.Contains(figures, "$") {
					priced++
				}
			}
		})
	}
	if sessions < 50 || priced < 20 {
		t.Errorf("%d sessions, %d with a cost: the corpus is not read", sessions, priced)
	}
	t.Logf("%d inputs, %d sessions, %d with a cost", len(inputs), sessions, priced)
}

// TestStreamlogSummaryLive: agt-streamlog fed a live run one line at a time
// through a pipe writes the header and each line's lines before it is given
// the next line (but the usage and closing lines, which wait for the call or
// the session to end), and in the end what it writes for the whole input.
func TestStreamlogSummaryLive(t *testing.T) {
	root := filepath.Join(providertest.RepoRoot(t), "testdata")
	t.Setenv("NO_COLOR", "")
	for _, rel := range []string{"claude/live/gen__claude-2.1.197__subagent.jsonl", "claude/live/gen__claude-2.1.197__tools.jsonl", "codex/live/gen__codex-0.169.0__tools.jsonl"} {
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(root, rel))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
			// what must be out once line k is in: the lines a run over the
			// first k lines writes, but usage and closing lines
			want := make([][]string, len(lines))
			for k := range lines {
				out, errs, code := runStdin(t, strings.Join(lines[:k+1], ""))
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				want[k] = settled(out)
			}
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan int, 1)
			var errb bytes.Buffer
			go func() {
				c := Run(context.Background(), Streamlog(IO{In: inR, Out: outW, Err: &errb}), []string{"agt", "-q"})
				outW.Close()
				done <- c
			}()
			got := make(chan string, 1024)
			go func() {
				b := make([]byte, 0, 4096)
				buf := make([]byte, 4096)
				for {
					n, err := outR.Read(buf)
					b = append(b, buf[:n]...)
					if i := bytes.LastIndexByte(b, '\n'); i >= 0 && n > 0 {
						got <- string(b[:i+1])
					}
					if err != nil {
						close(got)
						return
					}
				}
			}()
			guard := time.NewTimer(hangGuard)
			defer guard.Stop()
			out := ""
			for k, l := range lines {
				if _, err := io.WriteString(inW, l); err != nil {
					t.Fatal(err)
				}
				for !prefixOf(want[k], settled(out)) {
					select {
					case s, ok := <-got:
						if !ok {
							t.Fatalf("output ended after line %d", k+1)
						}
						out = s
					case <-guard.C:
						inW.Close()
						t.Fatalf("line %d sent: its lines did not come out before the hang guard (%v); out so far:\n%s\nwant:\n%s", k+1, hangGuard, out, strings.Join(want[k], "\n"))
					}
				}
			}
			inW.Close()
			for s := range got {
				out = s
			}
			if c := <-done; c != 0 {
				t.Fatalf("exit %d: %s", c, errb.String())
			}
			whole, _, _ := runStdin(t, string(data))
			if out != string(whole) {
				t.Errorf("fed line by line:\n%s\nwhole:\n%s", out, whole)
			}
		})
	}
}

// runStdin runs agt-streamlog on input from stdin.
func runStdin(t *testing.T, in string) ([]byte, string, int) {
	var out, errb bytes.Buffer
	code := Run(context.Background(), Streamlog(IO{In: strings.NewReader(in), Out: &out, Err: &errb}), []string{"agt", "-q"})
	return out.Bytes(), errb.String(), code
}

// settled are the lines of a summary but its usage and closing lines, and
// a header with no line after it (a session closed before its first line
// gets its header then; a live one waits for its first line).
func settled[T []byte | string](out T) []string {
	var ls []string
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if l != "" && !strings.Contains(l, " usage      Σ ") && !endLine.MatchString(l) {
			ls = append(ls, l)
		}
	}
	if n := len(ls); n > 0 && strings.Contains(ls[n-1], " session    ") {
		ls = ls[:n-1]
	}
	return ls
}

// prefixOf tells whether want begins got.
func prefixOf(want, got []string) bool {
	return len(got) >= len(want) && slices.Equal(want, got[:len(want)])
}

// TestColorFlag: --color always colors lines in a pipe, even with NO_COLOR;
// auto and never do not; anything else is a usage error.
func TestColorFlag(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	for _, c := range []struct {
		arg   string
		code  int
		color bool
	}{{"always", 0, true}, {"auto", 0, false}, {"never", 0, false}, {"sometimes", ExitUsage, false}} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), Streamlog(IO{In: strings.NewReader(claudeLine + "\n"), Out: &out, Err: &errb}), []string{"agt-streamlog", "--color", c.arg})
		if code != c.code || strings.Contains(out.String(), "\x1b[") != c.color {
			t.Errorf("--color %s: exit %d, stdout %q, stderr %s", c.arg, code, out.String(), errb.String())
		}
	}
}

// TestStreamlogHeartbeat: agt-streamlog reading a live run from a pipe says
// that a tool call still runs while its result has not come ("Bash running
// …"), and stops once the result is in; reading the same run from a file
// writes no heartbeat line.
func TestStreamlogHeartbeat(t *testing.T) {
	path := filepath.Join(providertest.RepoRoot(t), "testdata", "claude", "live", "gen__claude-2.1.197__tools.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	call := -1
	for i, l := range lines {
		if strings.Contains(l, `"type":"tool_use"`) {
			call = i
			break
		}
	}
	if call < 0 {
		t.Fatal("no tool call")
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	var errb bytes.Buffer
	go func() {
		c := Run(context.Background(), Streamlog(IO{In: inR, Out: outW, Err: &errb}), []string{"agt", "-q", "--heartbeat", "20ms"})
		outW.Close()
		done <- c
	}()
	got := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			got <- sc.Text()
		}
		close(got)
	}()
	if _, err := io.WriteString(inW, strings.Join(lines[:call+1], "")); err != nil {
		t.Fatal(err)
	}
	guard := time.NewTimer(hangGuard)
	defer guard.Stop()
	var out []string
	for beat := false; !beat; {
		select {
		case l := <-got:
			out = append(out, l)
			beat = regexp.MustCompile(` running +Bash running [0-9]+s$`).MatchString(l)
		case <-guard.C:
			t.Fatalf("no heartbeat line before the hang guard; out so far:\n%s", strings.Join(out, "\n"))
		}
	}
	if _, err := io.WriteString(inW, strings.Join(lines[call+1:], "")); err != nil {
		t.Fatal(err)
	}
	inW.Close()
	var after []string
	for l := range got {
		after = append(after, l)
	}
	if c := <-done; c != 0 {
		t.Fatalf("exit %d: %s", c, errb.String())
	}
	// once the result is in, the call has no more heartbeat lines (the
	// next calls may have their own)
	result := slices.IndexFunc(after, func(l string) bool { return strings.Contains(l, " result ") })
	if result < 0 {
		t.Fatalf("no result line: %q", after)
	}
	for _, l := range after[result:] {
		if strings.Contains(l, "Bash running") {
			t.Errorf("a heartbeat after the call's result: %q", l)
		}
	}
	whole, _, _ := runFilter(t, Streamlog, "-q", path)
	if strings.Contains(string(whole), " running ") {
		t.Errorf("a file read afterwards has heartbeat lines:\n%s", whole)
	}
}

// TestStreamlogFollowHeartbeat: following a growing capture, agt-streamlog
// says that its last tool call runs while its result is not written, and
// writes the call's result when it comes.
func TestStreamlogFollowHeartbeat(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(providertest.RepoRoot(t), "testdata", "claude", "live", "gen__claude-2.1.197__tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	call := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"type":"tool_use"`) })
	if call < 0 {
		t.Fatal("no tool call")
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:call+1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFollow(t, Streamlog, "-q", "-f", "--heartbeat", "20ms", path)
	f.waitOut(t, "a heartbeat line", func(out []byte) bool {
		return regexp.MustCompile(`(?m) running +Bash running [0-9]+s$`).Match(out)
	})
	appendFile(t, path, strings.Join(lines[call+1:], ""))
	f.waitOut(t, "the call's result", func(out []byte) bool { return bytes.Contains(out, []byte(" result     Bash  ok")) })
	if code := f.stop(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
}
