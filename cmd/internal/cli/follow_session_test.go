package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// TestFollowSessionCorpus: a Claude Code project folder followed while two
// real sessions and their subagent files are written, line by line and
// interleaved (a 2.0 session with agent-*.jsonl files beside it, a 2.1
// session with <session>/subagents/agent-*.jsonl), gives at the end the
// transcripts of the finished folder, byte for byte: agt-transcript -f,
// and agt-parse -f piped into agt-transcript -f. agt-streamlog -f shows
// the sessions of the folder read whole, not one per file, and closes each
// with the totals of the folder read whole.
func TestFollowSessionCorpus(t *testing.T) {
	corpus := filepath.Join(providertest.CorpusDir(t), "claude")
	const legacy, current = "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9", "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f"
	files := []struct { // from the round start on, a line a round
		from, to string
		start    int
	}{
		{"agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl", legacy + ".jsonl", 0},
		{"agentsessions__subagent-parent-0a1b2c3d.jsonl", current + ".jsonl", 0},
		{"agtrace__agent-90fa40b6.jsonl", "agent-90fa40b6.jsonl", 3},
		{"agtrace__agent-0c4c3cf8.jsonl", "agent-0c4c3cf8.jsonl", 4},
		{"agentsessions__subagent-child-agent-a0ad4f44468bdf20d.jsonl", filepath.Join(current, "subagents", "agent-a0ad4f44468bdf20d.jsonl"), 3},
	}
	dir := t.TempDir()
	var lines [][]string
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(corpus, f.from))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n"))
	}
	parse := startFollow(t, Parse, "-q", "-f", dir)
	tr := startFollow(t, Transcript, "-q", "-f", dir)
	sl := startFollow(t, Streamlog, "-q", "--color", "never", "-f", dir)
	// round after round, a line of each file that has one left: the
	// subagent files appear while their sessions are written
	written := map[string]int{} // lines written to each path
	for round := 0; ; round++ {
		wrote := false
		for i, f := range files {
			if round < f.start || round-f.start >= len(lines[i]) {
				wrote = wrote || round < f.start
				continue
			}
			p := filepath.Join(dir, f.to)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			appendFile(t, p, lines[i][round-f.start])
			written[p]++
			wrote = true
		}
		if !wrote {
			break
		}
		if round%4 == 0 { // now and then, until the events of what is written are out
			parse.waitOut(t, "the events of the lines written", func(out []byte) bool {
				for p, n := range written {
					if n >= 5 && !covers(t, out, p) { // a head of fewer lines may wait for more
						return false
					}
				}
				return true
			})
		}
	}
	for _, f := range []*followRun{parse, tr, sl} {
		if code := f.stop(t); code != ExitOK {
			t.Fatalf("exit %d after the interrupt, want 0; stderr:\n%s", code, f.err.Bytes())
		}
	}
	want := runApp(t, Transcript, nil, "-q", dir)
	// 3: the 2.1 fixture's subagent records name a session of their own
	// (agent-<id>, its ids scrubbed), read whole as followed
	if n := bytes.Count(want, []byte("\n")); n != 3 {
		t.Fatalf("the finished folder gives %d transcripts, want 3:\n%s", n, want)
	}
	if got := tr.out.Bytes(); !bytes.Equal(got, want) {
		t.Errorf("agt-transcript -f: the transcripts differ from those of the finished folder:\n%s", lineDiff(got, want))
	}
	if got := runApp(t, Transcript, parse.out.Bytes(), "-q", "-f"); !bytes.Equal(got, want) {
		t.Errorf("agt-parse -f | agt-transcript -f: the transcripts differ from those of the finished folder:\n%s\nthe events' sessions by file:\n%s",
			lineDiff(got, want), sessionsByFile(t, parse.out.Bytes()))
	}
	// the streamlog: one header and one closing line per session, the
	// closing lines those of the finished folder (its transcripts' totals)
	kinds := func(out []byte, kind string) []string {
		var ls []string
		for _, l := range sortedLines(untagged(unheaded(out))) {
			if strings.TrimSpace(l[min(len(l), 25):min(len(l), 36)]) == kind {
				ls = append(ls, l)
			}
		}
		return ls
	}
	whole := runApp(t, Streamlog, nil, "-q", "--color", "never", dir)
	for _, kind := range []string{"session", "end"} {
		got, want := kinds(sl.out.Bytes(), kind), kinds(whole, kind)
		if len(want) != 3 || !slices.Equal(got, want) {
			t.Errorf("agt-streamlog -f: %s lines\n got %q\nwant %q (3)", kind, got, want)
		}
	}
}

// TestFollowOnceNote: a followed run says in one line which of its inputs
// are read once, not followed (databases, stores, archives), and names
// none of the files it follows (logs, JSON documents).
func TestFollowOnceNote(t *testing.T) {
	dir := t.TempDir()
	root := providertest.RepoRoot(t)
	for _, f := range []string{"crush/dbos-inc__dbos-transact-golang__crush.excerpt.db", "gemini/agtrace__session-2025-12-09T19-50-f0a689a6.json", "claude/agentsessions__subagent-parent-0a1b2c3d.jsonl"} {
		data, err := os.ReadFile(filepath.Join(root, "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := startFollow(t, Parse, "-f", dir)
	f.waitErr(t, "-f: not followed, read once as they are now")
	f.waitOut(t, "the events of the session file", func(out []byte) bool {
		return covers(t, out, filepath.Join(dir, "agentsessions__subagent-parent-0a1b2c3d.jsonl"))
	})
	if code := f.stop(t); code != ExitOK {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, f.err.Bytes())
	}
	errs := string(f.err.Bytes())
	if n := strings.Count(errs, "\n"); n != 1 {
		t.Errorf("stderr has %d lines, want the one note:\n%s", n, errs)
	}
	if !strings.Contains(errs, "crush.excerpt.db") {
		t.Errorf("the note does not name the database: %s", errs)
	}
	if strings.Contains(errs, ".json") {
		t.Errorf("the note names a followed file: %s", errs)
	}
}

// TestFollowDocument: a JSON document (a Gemini CLI session file, which
// the agent writes again whole at each message) is read again when it
// changes, and only the events of its new records are written: in the
// end, the events and the transcript of the finished document.
func TestFollowDocument(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(providertest.RepoRoot(t), "testdata", "gemini", "entirecli__b3-e18968a997-0.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	msgs := doc["messages"].([]any)
	dir := t.TempDir()
	a := filepath.Join(dir, "session.json")
	write := func(n int) { // as the agent writes it: whole, then renamed over
		doc["messages"] = msgs[:n]
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(a+".tmp", b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(a+".tmp", a); err != nil {
			t.Fatal(err)
		}
	}
	write(3)
	parse := startFollow(t, Parse, "-f", dir)
	tr := startFollow(t, Transcript, "-f", dir)
	count := func(out []byte) int { return bytes.Count(out, []byte("\n")) }
	parse.waitOut(t, "the events of the first messages", func(out []byte) bool { return count(out) > 0 })
	for _, n := range []int{6, len(msgs)} {
		before := count(parse.out.Bytes())
		write(n)
		parse.waitOut(t, "the events of the new messages", func(out []byte) bool { return count(out) > before })
	}
	for _, f := range []*followRun{parse, tr} {
		if code := f.stop(t); code != ExitOK {
			t.Fatalf("exit %d, want 0; stderr:\n%s", code, f.err.Bytes())
		}
	}
	if got, want := parse.out.Bytes(), runApp(t, Parse, nil, dir); !bytes.Equal(got, want) {
		t.Errorf("events of the followed document differ from those of the finished one: got %d, want %d\n%s",
			count(got), count(want), firstDiff(strings.Split(string(got), "\n"), strings.Split(string(want), "\n")))
	}
	if got, want := tr.out.Bytes(), runApp(t, Transcript, nil, dir); !bytes.Equal(got, want) {
		t.Errorf("the transcript of the followed document differs from the finished one's:\n got %.300s\nwant %.300s", got, want)
	}
	if s := parse.err.Bytes(); len(s) > 0 {
		t.Errorf("stderr: %s", s)
	}
}

// srcLines are the src.line of the events of path in out, in order.
func srcLines(t *testing.T, out []byte, path string) []int64 {
	var ls []int64
	for _, l := range byPath(t, out)[path] {
		var ev struct {
			Src struct {
				Line int64 `json:"line"`
			} `json:"src"`
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		ls = append(ls, ev.Src.Line)
	}
	return ls
}

// TestFollowRewritten: what following does with a file written again. A
// file truncated and written anew is read as a new file: its events name
// its lines from 1. A file replaced by a rename (an atomic rewrite) that
// goes on from what was read is read on from there: no event twice. A
// followed file renamed (log rotation) and found under its new name is not
// read again.
func TestFollowRewritten(t *testing.T) {
	session := testLines(t, "claude/ccviewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")
	parent := testLines(t, "claude/agentsessions__subagent-parent-0a1b2c3d.jsonl")
	t.Run("truncated", func(t *testing.T) {
		dir := t.TempDir()
		a := filepath.Join(dir, "a.jsonl")
		appendFile(t, a, strings.Join(session[:10], ""))
		f := startFollow(t, Parse, "-f", dir)
		f.waitOut(t, "the events of a.jsonl", func(out []byte) bool { return covers(t, out, a) })
		if err := os.WriteFile(a, []byte(strings.Join(parent, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		const newSession = `"native_session":"0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f"`
		f.waitOut(t, "the events of the new content", func(out []byte) bool {
			return bytes.Count(out, []byte(newSession)) >= len(parent)
		})
		if code := f.stop(t); code != ExitOK {
			t.Fatalf("exit %d, want 0", code)
		}
		var news []byte // the events of the new content
		for _, l := range bytes.SplitAfter(f.out.Bytes(), []byte("\n")) {
			if bytes.Contains(l, []byte(newSession)) {
				news = append(news, l...)
			}
		}
		got, want := srcLines(t, news, a), srcLines(t, runApp(t, Parse, nil, a), a)
		if !slices.Equal(got, want) {
			t.Errorf("src lines after the truncation: got %v, want those of the new file read whole %v", got, want)
		}
	})
	t.Run("atomic-rewrite", func(t *testing.T) {
		dir := t.TempDir()
		a := filepath.Join(dir, "a.jsonl")
		appendFile(t, a, strings.Join(session[:10], ""))
		f := startFollow(t, Parse, "-f", dir)
		f.waitOut(t, "the events of a.jsonl", func(out []byte) bool { return covers(t, out, a) })
		tmp := filepath.Join(dir, ".a.jsonl.tmp")
		if err := os.WriteFile(tmp, []byte(strings.Join(session[:20], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, a); err != nil {
			t.Fatal(err)
		}
		f.waitOut(t, "the events of the rewritten a.jsonl", func(out []byte) bool { return covers(t, out, a) })
		if code := f.stop(t); code != ExitOK {
			t.Fatalf("exit %d, want 0", code)
		}
		if got, want := byPath(t, f.out.Bytes())[a], byPath(t, runApp(t, Parse, nil, a))[a]; !slices.Equal(got, want) {
			t.Errorf("events of the rewritten file: got %d, want those of the file read whole (%d)\n%s", len(got), len(want), firstDiff(got, want))
		}
	})
	t.Run("rotated", func(t *testing.T) {
		dir := t.TempDir()
		a, old := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "a-1.jsonl")
		appendFile(t, a, strings.Join(session[:10], ""))
		f := startFollow(t, Parse, "-f", dir)
		f.waitOut(t, "the events of a.jsonl", func(out []byte) bool { return covers(t, out, a) })
		if err := os.Rename(a, old); err != nil {
			t.Fatal(err)
		}
		appendFile(t, a, strings.Join(parent, ""))
		f.waitErr(t, old+": a followed file under a new name: not read again")
		f.waitOut(t, "the events of the new a.jsonl", func(out []byte) bool {
			return bytes.Contains(out, []byte(`"native_session":"0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f"`))
		})
		if code := f.stop(t); code != ExitOK {
			t.Fatalf("exit %d, want 0", code)
		}
		if got := byPath(t, f.out.Bytes())[old]; len(got) > 0 {
			t.Errorf("the rotated file read again under its new name: %d events", len(got))
		}
	})
}

// TestFollowFromEnd: with --from-end, what a file holds when following
// starts is read but not shown: agt-parse writes the events of the lines
// written from then on, exactly those of the whole file from that line on;
// agt-streamlog gives the session's totals so far in its header, shows
// only the new lines, and closes with the totals of the whole file.
func TestFollowFromEnd(t *testing.T) {
	session := testLines(t, "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	const old = 12
	dir := t.TempDir()
	a := filepath.Join(dir, "s.jsonl")
	appendFile(t, a, strings.Join(session[:old], ""))
	parse := startFollow(t, Parse, "-f", "--from-end", dir)
	sl := startFollow(t, Streamlog, "--color", "never", "-f", "--from-end", dir)
	for _, f := range []*followRun{parse, sl} {
		f.waitErr(t, fmt.Sprintf("--from-end: %d lines already in 1 file, read for the totals, not shown", old))
	}
	appendFile(t, a, session[old])
	parse.waitOut(t, "the events of the first new line", func(out []byte) bool { return len(out) > 0 })
	appendFile(t, a, strings.Join(session[old+1:], ""))
	parse.waitOut(t, "the events of the new lines", func(out []byte) bool {
		ls := srcLines(t, out, a)
		return len(ls) > 0 && slices.Contains(ls, int64(len(session)))
	})
	for _, f := range []*followRun{parse, sl} {
		if code := f.stop(t); code != ExitOK {
			t.Fatalf("exit %d, want 0; stderr:\n%s", code, f.err.Bytes())
		}
	}
	var want []string
	for _, l := range byPath(t, runApp(t, Parse, nil, a))[a] {
		if ls := srcLines(t, []byte(l), a); ls[0] > old {
			want = append(want, l)
		}
	}
	if got := byPath(t, parse.out.Bytes())[a]; !slices.Equal(got, want) {
		t.Errorf("agt-parse -f --from-end: got %d events, want the %d of the lines after %d\n%s", len(got), len(want), old, firstDiff(got, want))
	}
	if !bytes.HasPrefix(sl.out.Bytes(), []byte("==> "+a+" <==\n")) {
		t.Errorf("the summary does not begin with the file's header line: %.200s", sl.out.Bytes())
	}
	out := strings.Split(strings.TrimSuffix(string(unheaded(sl.out.Bytes())), "\n"), "\n")
	whole := strings.Split(strings.TrimSuffix(string(runApp(t, Streamlog, nil, "--color", "never", a)), "\n"), "\n")
	if !strings.Contains(out[0], " session ") || !strings.Contains(out[0], "so far Σ ") {
		t.Errorf("first line %q: want the session's header with its totals so far", out[0])
	}
	if got, want := out[len(out)-1], whole[len(whole)-1]; got != want {
		t.Errorf("closing line\n got %q\nwant %q", got, want)
	}
	if len(out) >= len(whole) {
		t.Errorf("%d lines, want fewer than the %d of the whole file", len(out), len(whole))
	}
	for _, l := range out[1:] {
		if !slices.Contains(whole, l) && !strings.Contains(l, " usage ") {
			t.Errorf("line %q is not one of the whole file's", l)
		}
	}
}

// TestFollowOneSessionPipe: the events of one followed session and its
// subagent files (a real Claude Code 2.0 session, its agent-*.jsonl files
// appearing while it is written) make, through a plain pipe into
// agt-transcript, the transcript of the finished folder: one session.
func TestFollowOneSessionPipe(t *testing.T) {
	corpus := filepath.Join(providertest.CorpusDir(t), "claude")
	read := func(name string) []string {
		data, err := os.ReadFile(filepath.Join(corpus, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	main := read("agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	dir := t.TempDir()
	m := filepath.Join(dir, "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	f := startFollow(t, Parse, "-q", "-f", dir)
	steps := []func(){
		func() { appendFile(t, m, strings.Join(main[:6], "")) },
		func() {
			appendFile(t, filepath.Join(dir, "agent-90fa40b6.jsonl"), strings.Join(read("agtrace__agent-90fa40b6.jsonl"), ""))
			appendFile(t, m, strings.Join(main[6:14], ""))
		},
		func() {
			appendFile(t, filepath.Join(dir, "agent-0c4c3cf8.jsonl"), strings.Join(read("agtrace__agent-0c4c3cf8.jsonl"), ""))
			appendFile(t, m, strings.Join(main[14:], ""))
		},
	}
	for _, step := range steps {
		step()
		f.waitOut(t, "the events of the main file so far", func(out []byte) bool { return covers(t, out, m) })
	}
	if code := f.stop(t); code != ExitOK {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, f.err.Bytes())
	}
	want := runApp(t, Transcript, nil, "-q", dir)
	if n := bytes.Count(want, []byte("\n")); n != 1 {
		t.Fatalf("the finished folder gives %d transcripts, want 1", n)
	}
	if got := runApp(t, Transcript, f.out.Bytes(), "-q"); !bytes.Equal(got, want) {
		t.Errorf("agt-parse -f | agt-transcript: %d transcripts, not those of the finished folder:\n got %.400s\nwant %.400s", bytes.Count(got, []byte("\n")), got, want)
	}
}

// lineDiff tells where two outputs of JSON lines part: their line
// counts, and the first line that differs, around its first different
// byte.
func lineDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range min(len(g), len(w)) {
		if !bytes.Equal(g[i], w[i]) {
			at := 0
			for at < min(len(g[i]), len(w[i])) && g[i][at] == w[i][at] {
				at++
			}
			from := max(0, at-200)
			return fmt.Sprintf("%d lines, want %d; line %d parts at byte %d:\n got …%.400s\nwant …%.400s", len(g)-1, len(w)-1, i+1, at, g[i][from:], w[i][from:])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g)-1, len(w)-1)
}

// sessionsByFile lists, for each file the events name, the native
// sessions of its events and how many there are.
func sessionsByFile(t *testing.T, events []byte) string {
	counts := map[string]map[string]int{}
	for _, l := range bytes.Split(bytes.TrimSuffix(events, []byte("\n")), []byte("\n")) {
		var ev struct {
			NativeSession string `json:"native_session"`
			Src           struct {
				Path string `json:"path"`
			} `json:"src"`
		}
		if json.Unmarshal(l, &ev) != nil {
			continue
		}
		if counts[ev.Src.Path] == nil {
			counts[ev.Src.Path] = map[string]int{}
		}
		counts[ev.Src.Path][ev.NativeSession]++
	}
	var b strings.Builder
	for _, p := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&b, "%s: %v\n", filepath.Base(p), counts[p])
	}
	return b.String()
}

// TestFollowMemberEmptyAtStart: a member file there when following starts
// but not written yet (created empty) is read in its main file's unit once
// written, by its path or by its head, as when the folder is read whole:
// an empty file is not taken for a session of its own.
func TestFollowMemberEmptyAtStart(t *testing.T) {
	for _, c := range followCases {
		t.Run(c.name, func(t *testing.T) {
			dir, main, member := c.dir(t)
			appendFile(t, main, strings.Join(testLines(t, c.main), ""))
			appendFile(t, member, "") // created empty
			tr := startFollow(t, Transcript, "-q", "-f", dir)
			time.Sleep(stage.DefaultScan + 100*time.Millisecond) // the folder is read and looked at
			appendFile(t, member, strings.Join(testLines(t, c.member), ""))
			time.Sleep(stage.WatchedPoll + 100*time.Millisecond) // the member is seen written
			stopAsWhole(t, tr, dir)
		})
	}
}

// followCase is a session's main file and a member file of it (testdata
// names), and the names a follow test writes them under.
type followCase struct{ name, main, member, mainAs, memberAs string }

// dir makes a folder for c's files (the member's folder too) and returns
// it and the two files' paths there.
func (c followCase) dir(t *testing.T) (dir, main, member string) {
	dir = t.TempDir()
	main, member = filepath.Join(dir, c.mainAs), filepath.Join(dir, c.memberAs)
	if err := os.MkdirAll(filepath.Dir(member), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, main, member
}

// stopAsWhole interrupts tr, an agt-transcript -f of dir, and checks that
// it wrote the transcripts of the finished folder read whole.
func stopAsWhole(t *testing.T, tr *followRun, dir string) {
	t.Helper()
	if code := tr.stop(t); code != ExitOK {
		t.Fatalf("exit %d after the interrupt, want 0; stderr:\n%s", code, tr.err.Bytes())
	}
	want := runApp(t, Transcript, nil, "-q", dir)
	if got := tr.out.Bytes(); !bytes.Equal(got, want) {
		t.Errorf("the transcripts differ from those of the finished folder:\n%s", lineDiff(got, want))
	}
}

// followCases: a member by its path (Claude Code 2.1:
// <session>/subagents/) and by its head (2.0: a sidechain file beside the
// session file).
var followCases = []followCase{
	{"by path", "claude/agentsessions__subagent-parent-0a1b2c3d.jsonl", "claude/agentsessions__subagent-child-agent-a0ad4f44468bdf20d.jsonl",
		"0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl", filepath.Join("0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f", "subagents", "agent-a0ad4f44468bdf20d.jsonl")},
	{"by head", "claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl", "claude/agtrace__agent-0c4c3cf8.jsonl",
		"7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl", "agent-0c4c3cf8.jsonl"},
}

// TestFollowMainWrittenLate: a session's main file still empty (created,
// not written yet) keeps its member files: a 2.1 subagent file (a member
// by its path) and a 2.0 sidechain file (a member by its head) written
// whole before their main file is written at all are read in its unit, as
// when the folder is read whole, whether the main file is there when
// following starts (and the member too: an orphan at first) or found
// while following. A main file never written holds its member back only
// until following ends.
func TestFollowMainWrittenLate(t *testing.T) {
	// a look at the folder is taken every stage.DefaultScan: after look, a
	// look has found what was written before
	const look = stage.DefaultScan + 100*time.Millisecond
	for _, c := range followCases {
		for _, when := range []string{"main at start", "both at start", "found", "never written"} {
			t.Run(c.name+"/"+when, func(t *testing.T) { // not in parallel: see startFollowTo
				dir, main, member := c.dir(t)
				writeMember := func() { appendFile(t, member, strings.Join(testLines(t, c.member), "")) }
				if when != "found" {
					appendFile(t, main, "") // created empty
				}
				if when == "both at start" {
					writeMember()
				}
				tr := startFollow(t, Transcript, "-q", "-f", dir)
				if when == "found" {
					time.Sleep(look) // the folder's first reading is done
					appendFile(t, main, "")
				}
				if when != "both at start" {
					time.Sleep(look) // the main file is found empty
					writeMember()
				}
				time.Sleep(look)             // the member is found
				if when != "never written" { // else the member waits until following ends
					appendFile(t, main, strings.Join(testLines(t, c.main), "")) // and following ends at once
				}
				stopAsWhole(t, tr, dir)
			})
		}
	}
}
