package stage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
)

func TestBlockReader(t *testing.T) {
	long := strings.Repeat("x", 3<<20) // longer than a block
	cases := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"one line no end", "a", []string{"a"}},
		{"lines", "a\nb\n", []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"blank lines kept", "a\n\nb", []string{"a", "", "b"}},
		{"long line", "a\n" + long + "\nb", []string{"a", long, "b"}},
		{"bare cr inside", "a\rb\n", []string{"a\rb"}},
		{"many short lines", strings.Repeat("0123456789\n", 5000), strings.Split(strings.Repeat("0123456789\n", 5000), "\n")[:5000]},
	}
	for _, c := range cases {
		for _, size := range []int{7, 64 << 10} {
			t.Run(c.name, func(t *testing.T) {
				br := NewBlockReader(iotest.HalfReader(strings.NewReader(c.in)))
				var got []string
				for {
					lines, err := br.Next(size)
					for _, l := range lines {
						got = append(got, string(l))
					}
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				if len(got) != len(c.want) {
					t.Fatalf("block %d: got %d lines, want %d", size, len(got), len(c.want))
				}
				for i := range got {
					if got[i] != c.want[i] {
						t.Errorf("line %d: got %.20q, want %.20q", i+1, got[i], c.want[i])
					}
				}
				if br.Line() != int64(len(c.want)) {
					t.Errorf("Line() = %d", br.Line())
				}
			})
		}
	}
}

func TestBlockReaderRest(t *testing.T) {
	br := NewBlockReader(strings.NewReader("a\nbcdefgh\nij"))
	lines, err := br.Next(4)
	if err != nil || len(lines) != 1 || string(lines[0]) != "a" {
		t.Fatalf("first block %q %v", lines, err)
	}
	rest, _ := io.ReadAll(br.Rest())
	if string(rest) != "bcdefgh\nij" {
		t.Errorf("rest %q", rest)
	}
}

func TestMapKeepsOrder(t *testing.T) {
	in := make(chan int)
	go func() {
		for i := 0; i < 1000; i++ {
			in <- i
		}
		close(in)
	}()
	out := Map(context.Background(), in, 4, func(i int) int {
		if i%7 == 0 {
			for j := 0; j < 10000; j++ { // uneven work
				_ = j * j
			}
		}
		return i * 2
	})
	n := 0
	for v := range out {
		if v != n*2 {
			t.Fatalf("result %d is %d, want %d", n, v, n*2)
		}
		n++
	}
	if n != 1000 {
		t.Fatalf("got %d results", n)
	}
}

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b/2.jsonl", "a.jsonl", "b/1.json", "c/notes.txt", "c/d/3.ndjson"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("{}\n"), 0o644)
	}
	// a link loop must not trap the walk
	if err := os.Symlink(dir, filepath.Join(dir, "c", "loop")); err != nil {
		t.Fatal(err)
	}
	ins, errs := Expand([]string{dir, filepath.Join(dir, "c", "notes.txt"), "-", filepath.Join(dir, "missing")}, strings.NewReader(""), nil)
	var got []string
	for _, in := range ins {
		rel, _ := filepath.Rel(dir, in.Path)
		if in.Path == StdinPath {
			rel = "-"
		}
		got = append(got, rel)
	}
	want := "a.jsonl b/1.json b/2.jsonl c/d/3.ndjson c/notes.txt -"
	if strings.Join(got, " ") != want {
		t.Errorf("inputs %q, want %q", strings.Join(got, " "), want)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "missing") {
		t.Errorf("errors %v, want one naming the missing path", errs)
	}
}

func TestBlockReaderLimit(t *testing.T) {
	long := strings.Repeat("y", 200<<10)
	cases := []struct {
		name, in string
		want     []string
		long     map[int]int64 // line index → size
	}{
		{"none long", "0123456789\nab\n", []string{"0123456789", "ab"}, nil},
		{"one long", "a\n0123456789x\nb\n", []string{"a", "0123", "b"}, map[int]int64{1: 11}},
		{"long last no end", "a\n" + long, []string{"a", "yyyy"}, map[int]int64{1: int64(len(long))}},
		{"long first", long + "\nb", []string{"yyyy", "b"}, map[int]int64{0: int64(len(long))}},
		{"two long", long + "\n" + long + "\r\nc\n", []string{"yyyy", "yyyy", "c"}, map[int]int64{0: int64(len(long)), 1: int64(len(long)) + 1}},
	}
	for _, c := range cases {
		for _, size := range []int{7, 64 << 10} {
			t.Run(c.name, func(t *testing.T) {
				br := NewBlockReader(iotest.HalfReader(strings.NewReader(c.in)))
				br.SetLimit(10, 4)
				var got []string
				gotLong := map[int]int64{}
				for {
					lines, err := br.Next(size)
					for _, l := range br.Long() {
						gotLong[len(got)+l.Index] = l.Size
					}
					for _, l := range lines {
						got = append(got, string(l))
					}
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				if strings.Join(got, "|") != strings.Join(c.want, "|") {
					t.Errorf("block %d: lines %.100q, want %.100q", size, got, c.want)
				}
				if len(gotLong) != len(c.long) {
					t.Errorf("long lines %v, want %v", gotLong, c.long)
				}
				for i, n := range c.long {
					if gotLong[i] != n {
						t.Errorf("long line %d: size %d, want %d", i, gotLong[i], n)
					}
				}
			})
		}
	}
}

// A long line that a read error ends is returned (its head), and the error
// names it.
func TestBlockReaderLongCut(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("a\n"+strings.Repeat("z", 100)), iotest.ErrReader(boom))
	br := NewBlockReader(r)
	br.SetLimit(10, 3)
	var got []string
	var err error
	for err == nil {
		var lines [][]byte
		lines, err = br.Next(64)
		for _, l := range lines {
			got = append(got, string(l))
		}
	}
	if err != boom || strings.Join(got, "|") != "a|zzz" || br.Stopped() != 2 {
		t.Errorf("lines %q, err %v, stopped at %d", got, err, br.Stopped())
	}
}

// TestPrefetch: a stream read ahead hands out a line at once while its
// writer waits, keeps the order of everything else however it is cut, and
// ends with the stream's error.
func TestPrefetch(t *testing.T) {
	pr, pw := io.Pipe()
	br := NewBlockReader(pr)
	br.SetStream(true)
	defer br.Close()
	go pw.Write([]byte("one\n"))
	lines, err := br.Next(1 << 20)
	if err != nil || len(lines) != 1 || string(lines[0]) != "one" {
		t.Fatalf("first line alone: %q, %v", lines, err)
	}
	const n = 1 << 14
	go func() {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%d\n", i)
			if i%1000 == 999 { // writes of all sizes, some cutting lines
				pw.Write([]byte(b.String()[:b.Len()/2]))
				pw.Write([]byte(b.String()[b.Len()/2:]))
				b.Reset()
			}
		}
		pw.Write([]byte(b.String()))
		pw.CloseWithError(errors.New("boom"))
	}()
	var got []string
	for {
		lines, err := br.Next(1 << 20)
		for _, l := range lines {
			got = append(got, string(l))
		}
		if err != nil {
			if err.Error() != "boom" {
				t.Fatalf("end: %v, want boom", err)
			}
			break
		}
	}
	if len(got) != n {
		t.Fatalf("%d lines, want %d", len(got), n)
	}
	for i, l := range got {
		if l != strconv.Itoa(i) {
			t.Fatalf("line %d is %q", i, l)
		}
	}
}

// trickle is a stream that hands out its data a few bytes a read, yielding
// between reads, so that its reader often waits for the read ahead.
type trickle struct {
	data []byte
	n    int
}

func (t *trickle) Read(p []byte) (int, error) {
	if len(t.data) == 0 {
		return 0, io.EOF
	}
	runtime.Gosched()
	k := min(len(p), t.n, len(t.data))
	copy(p, t.data[:k])
	t.data = t.data[k:]
	return k, nil
}

// TestPrefetchWaits: a reader that waits for the read ahead while the
// read-ahead takes a spare buffer goes on (it drained the spare buffers
// with a receive that could block: both then waited for each other).
func TestPrefetchWaits(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "%d\n", i)
	}
	for range 300 {
		br := NewBlockReader(&trickle{data: []byte(b.String()), n: 7})
		br.SetStream(true)
		lines := 0
		for {
			ls, err := br.Next(64)
			lines += len(ls)
			if err != nil {
				break
			}
		}
		br.Close()
		if lines != 2000 {
			t.Fatalf("%d lines, want 2000", lines)
		}
	}
}

// TestLongLineEncodeBuffer: the output buffer of a batch is sized from the
// bytes it holds, not from the tail of an over-long line that was read
// and dropped (a 2 GB line of NULs under --max-line 1MiB took a 2.5 GB
// buffer).
func TestLongLineEncodeBuffer(t *testing.T) {
	br := NewBlockReader(io.MultiReader(strings.NewReader(strings.Repeat("\x00", 8<<20)), strings.NewReader("\n")))
	br.SetLimit(1<<20, 1<<20)
	lines, _ := br.Next(256 << 10)
	b := &Batch{Path: "zeros", First: 1}
	b.Add(br, lines, 1<<20)
	if b.Dropped < 7<<20 {
		t.Fatalf("bytes %d, dropped %d", b.Bytes, b.Dropped)
	}
	new(JSONL).Encode(b)
	if n := cap(b.Out); n > 4<<20 {
		t.Errorf("output buffer of %d bytes for a batch holding 1 MiB", n)
	}
}

// TestLocked: Locked of a Locked writer is the same writer, so that the
// CLI's lines and a run's goroutines' notes share one lock; writes from
// many goroutines (under -race) come through whole.
func TestLocked(t *testing.T) {
	var b bytes.Buffer
	l := Locked(&b)
	if Locked(l) != l {
		t.Fatal("Locked of a Locked writer is another lock")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				fmt.Fprintln(Locked(l), "note")
			}
		}()
	}
	wg.Wait()
	if n := strings.Count(b.String(), "note\n"); n != 800 {
		t.Errorf("%d whole lines, want 800", n)
	}
}
