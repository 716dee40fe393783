package stage

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
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
