package stage

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/iotest"
	"time"
)

// hangGuard only ends a test that would otherwise hang.
const hangGuard = 60 * time.Second

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

type readResult struct {
	text string
	err  error
}

// readAsync reads once from r in a goroutine.
func readAsync(r io.Reader) <-chan readResult {
	c := make(chan readResult, 1)
	go func() {
		buf := make([]byte, 1<<10)
		n, err := r.Read(buf)
		c <- readResult{string(buf[:n]), err}
	}()
	return c
}

func await(t *testing.T, c <-chan readResult) readResult {
	t.Helper()
	select {
	case r := <-c:
		return r
	case <-time.After(hangGuard):
		t.Fatal("hang guard: the read did not return")
	}
	return readResult{}
}

// waitSeen waits until the follower has seen a change after the activity
// time before.
func waitSeen(t *testing.T, fl *Follower, before int64) {
	t.Helper()
	guard := time.After(hangGuard)
	for fl.last.Load() == before {
		select {
		case <-guard:
			t.Fatal("hang guard: the change was not seen")
		case <-time.After(time.Millisecond):
		}
	}
}

// notedFollower is a follower polling every poll whose notes are kept,
// and a function that returns them.
func notedFollower(poll time.Duration) (*Follower, func() []string) {
	var mu sync.Mutex
	var notes []string
	fl := &Follower{Poll: poll, Note: func(m string) { mu.Lock(); notes = append(notes, m); mu.Unlock() }}
	return fl, func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(notes) }
}

// openRead opens path with fl and checks that its first read is want.
func openRead(t *testing.T, ctx context.Context, fl *Follower, path, want string) io.ReadCloser {
	t.Helper()
	r, err := fl.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if got := await(t, readAsync(r)); got.text != want || got.err != nil {
		t.Fatalf("first read %q, %v; want %q", got.text, got.err, want)
	}
	return r
}

// readAnew writes path anew with text while r follows it and checks that
// r ends, that the one note says why, and that the file, no longer known,
// is read again from its start: the new reader is returned.
func readAnew(t *testing.T, ctx context.Context, fl *Follower, notes func() []string, r io.Reader, path, text, why string) io.ReadCloser {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := await(t, readAsync(r)); got.text != "" || got.err != io.EOF {
		t.Fatalf("after the file was %s read %q, %v; want the end", why, got.text, got.err)
	}
	if n := notes(); len(n) != 1 || !strings.Contains(n[0], why) {
		t.Errorf("notes %q, want one saying %q", n, why)
	}
	if !fl.claim(path) {
		t.Errorf("the file %s is still known: Watch would not read it again", why)
	}
	return openRead(t, ctx, fl, path, text)
}

// TestTail: a followed file's reader hands on whole lines, holds a line
// being written until its end comes, ends at a truncation (the file is then
// found again as a new file, its lines numbered from 1), and when following
// ends reads what is left, a last line without its end included, then ends.
func TestTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendTo(t, path, "one\n")
	fl, notes := notedFollower(time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := openRead(t, ctx, fl, path, "one\n")
	if !IsStream(r) {
		t.Error("a followed file is not a stream")
	}

	// half a line: held until its end comes
	c := readAsync(r)
	before := fl.last.Load()
	appendTo(t, path, `{"half`)
	waitSeen(t, fl, before)
	select {
	case got := <-c:
		t.Fatalf("half a line read: %q", got.text)
	default:
	}
	appendTo(t, path, "\"}\ntwo\n")
	if got := await(t, c); got.text != "{\"half\"}\ntwo\n" || got.err != nil {
		t.Fatalf("completed line read as %q, %v", got.text, got.err)
	}

	// truncated: the reader ends; the file is a new one to Watch
	r = readAnew(t, ctx, fl, notes, r, path, "new\n", "truncated")

	// following ends: the last line without its end is read, then EOF
	c = readAsync(r)
	before = fl.last.Load()
	appendTo(t, path, "last")
	waitSeen(t, fl, before)
	cancel()
	if got := await(t, c); got.text != "last" || got.err != nil {
		t.Fatalf("at the end read %q, %v", got.text, got.err)
	}
	if got := await(t, readAsync(r)); got.text != "" || got.err != io.EOF {
		t.Fatalf("after the end read %q, %v; want EOF", got.text, got.err)
	}
}

// TestFollowerIdle: following ends once Idle has passed with nothing new;
// the reader of a file at its end then ends.
func TestFollowerIdle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendTo(t, path, "one\n")
	fl := &Follower{Poll: time.Millisecond, Idle: time.Millisecond}
	ctx, cancel := fl.Start(context.Background())
	defer cancel()
	r, err := fl.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := io.ReadAll(r)
	if string(got) != "one\n" || err != nil {
		t.Fatalf("read %q, %v", got, err)
	}
	if ctx.Err() == nil {
		t.Error("following has not ended")
	}
}

// TestWatch: new log files in a followed folder and its subfolders are
// found once; .json documents, archives, links to folders and files seen
// before are not.
func TestWatch(t *testing.T) {
	root := t.TempDir()
	other := t.TempDir()
	appendTo(t, filepath.Join(root, "old.jsonl"), "x\n")
	fl := &Follower{Scan: time.Millisecond}
	fl.Mark(filepath.Join(root, "old.jsonl"))
	ctx, cancel := context.WithCancel(context.Background())
	found := make(chan Input, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		fl.Watch(ctx, []string{root}, nil, func(ins []Input) {
			for _, in := range ins {
				found <- in
			}
		})
	}()
	os.MkdirAll(filepath.Join(root, "s", "subagents"), 0o755)
	appendTo(t, filepath.Join(other, "elsewhere.jsonl"), "x\n")
	if err := os.Symlink(other, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"doc.json", "a.tar.gz", "notes.txt"} {
		appendTo(t, filepath.Join(root, name), "x\n")
	}
	appendTo(t, filepath.Join(root, "new.jsonl"), "x\n")
	appendTo(t, filepath.Join(root, "s", "subagents", "agent-1.jsonl"), "x\n")
	var got []string
	guard := time.After(hangGuard)
	for len(got) < 2 {
		select {
		case in := <-found:
			if in.Walk != root || !in.File {
				t.Errorf("%s: walk %q, file %v", in.Path, in.Walk, in.File)
			}
			got = append(got, strings.TrimPrefix(in.Path, root+string(filepath.Separator)))
		case <-guard:
			t.Fatalf("hang guard: found only %q", got)
		}
	}
	// one more walk after both were found: nothing new
	before := len(found)
	appendTo(t, filepath.Join(root, "last.jsonl"), "x\n")
	in := <-found
	cancel()
	<-done
	if before != 0 || in.Path != filepath.Join(root, "last.jsonl") || len(found) != 0 {
		t.Errorf("found again or more: %v %q %d", before, in.Path, len(found))
	}
	slices.Sort(got)
	if want := []string{"new.jsonl", filepath.Join("s", "subagents", "agent-1.jsonl")}; !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}

func TestFollowable(t *testing.T) {
	AddEndings(nil, []string{".db"}) // as a provider whose sessions are in a database declares
	for path, want := range map[string]bool{
		"s.jsonl": true, "s.ndjson": true, "named-log": true,
		"s.json": false, "S.JSON": false, "a.tar.gz": false, "s.jsonl.gz": false, "store.db": false,
	} {
		if got := Followable(path); got != want {
			t.Errorf("Followable(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestTailWrittenAnew: a followed file truncated and written again past
// where it was read, between two looks (no read waited to see it shrink),
// is not read on from there: its reader ends, and the file is found again
// as a new file, read from its start.
func TestTailWrittenAnew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendTo(t, path, "one\n")
	fl, notes := notedFollower(time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := openRead(t, ctx, fl, path, "one\n")
	readAnew(t, ctx, fl, notes, r, path, "another\nsecond\n", "written anew")
}

// TestWholeLines: the head of a file being written is read up to its last
// line end (a line in parts is left out until its end is there), a line
// longer than heldLine passes as it is; HasLine tells whether a first line
// is whole.
func TestWholeLines(t *testing.T) {
	long := strings.Repeat("x", heldLine+10)
	cases := []struct {
		name, text, want string
		has              bool
	}{
		{"empty", "", "", false},
		{"a line in parts", `{"a":1`, "", false},
		{"a whole line", "{\"a\":1}\n", "{\"a\":1}\n", true},
		{"then a line in parts", "{\"a\":1}\n{\"b\":", "{\"a\":1}\n", true},
		{"blank lines", "\n\n", "\n\n", true},
		{"a line too long to hold", long, long, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "a.jsonl")
			if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			r := WholeLines(f)
			got, err := io.ReadAll(iotest.OneByteReader(r))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("read %.40q (%d bytes), want %.40q (%d)", got, len(got), c.want, len(c.want))
			}
			if err := r.Close(); err != nil {
				t.Error(err)
			}
			if got := HasLine(p); got != c.has {
				t.Errorf("HasLine = %v, want %v", got, c.has)
			}
		})
	}
	if !HasLine(filepath.Join(t.TempDir(), "gone.jsonl")) {
		t.Error("HasLine of a file not there = false, want true (its reader says why)")
	}
}

// TestHasLineFIFO: HasLine does not open a named pipe (its open would
// wait for a writer).
func TestHasLineFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo.jsonl")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if !HasLine(p) {
		t.Error("HasLine of a named pipe = false, want true (its reader reads it)")
	}
}
