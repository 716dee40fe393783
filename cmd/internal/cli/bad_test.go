package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
)

// The bad-input suite: testdata/bad/*.case, one case a file. A case is a
// header of directives, then files in "-- name --" sections:
//
//	# what it checks
//	run: agt-parse --provider codex in.jsonl     (args naming a file get its path)
//	gen: bigline in.jsonl                         (a generated input, see gens)
//	exit: 0
//	stderr: in.jsonl:2: not JSON                  (a substring; may repeat)
//	nostderr
//	stdout: "kind":"error"                        (a substring; may repeat)
//	lines: 3                                      (stdout lines)
//	kinds: error=1 user=2                         (events by kind)
//	accounted: in.jsonl                           (every non-blank line in some src)
//	notmp: out                                    (no temporary file left in out/)
//	text                                          (stdout is text lines, not JSON)
//	noesc                                         (no control character in stdout or
//	                                               stderr but \n: C0, DEL, C1, bidi)
//	-- in.jsonl --
//	…
//
// Every case also checks that each stdout line is JSON (unless text) and
// that the run did not panic.
func TestBadInput(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join(providertest.RepoRoot(t), "testdata", "bad", "*.case"))
	if len(cases) < 20 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, file := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".case"), func(t *testing.T) { runBadCase(t, file) })
	}
}

var apps = map[string]App{"agt-parse": Parse, "agt-normalize": Normalize, "agt-transcript": Transcript, "agt-streamlog": Streamlog}

func runBadCase(t *testing.T, file string) {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	head, files := splitCase(raw)
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var args []string
	var stdin []byte
	want := map[string][]string{}
	for _, line := range strings.Split(head, "\n") {
		key, val, _ := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		switch key = strings.TrimSpace(key); {
		case key == "" || strings.HasPrefix(key, "#"):
		case key == "run":
			args = strings.Fields(val)
		case key == "gen":
			f := strings.Fields(val)
			gens[f[0]](t, dir, f[1:]...)
		default:
			want[key] = append(want[key], val)
		}
	}
	if s, ok := files["stdin"]; ok {
		stdin = s
	}
	app := apps[args[0]]
	if app == nil {
		t.Fatalf("unknown filter %q", args[0])
	}
	// arguments whose first path element names a file or folder of the
	// case are made paths into the case's folder
	for i, a := range args[1:] {
		first, _, _ := strings.Cut(a, "/")
		first, _, _ = strings.Cut(first, "!")
		if _, err := os.Lstat(filepath.Join(dir, first)); err == nil && !strings.HasPrefix(a, "-") {
			args[i+1] = filepath.Join(dir, a)
		}
	}
	var out, errb bytes.Buffer
	code := Run(context.Background(), app(IO{In: bytes.NewReader(stdin), Out: &out, Err: &errb}), args)
	stderr := errb.String()
	if w := want["exit"]; len(w) > 0 && strconv.Itoa(code) != w[0] {
		t.Errorf("exit %d, want %s; stderr:\n%s", code, w[0], stderr)
	}
	for _, s := range want["stderr"] {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
	if _, ok := want["nostderr"]; ok && stderr != "" {
		t.Errorf("stderr not empty:\n%s", stderr)
	}
	for _, s := range want["stdout"] {
		if !strings.Contains(out.String(), s) {
			t.Errorf("stdout lacks %q: %.1000s", s, out.String())
		}
	}
	lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
	if out.Len() == 0 {
		lines = nil
	}
	if w := want["lines"]; len(w) > 0 && strconv.Itoa(len(lines)) != w[0] {
		t.Errorf("%d stdout lines, want %s", len(lines), w[0])
	}
	kinds := map[string]int{}
	srcs := map[string]map[int64]bool{}
	for _, l := range lines {
		if _, text := want["text"]; !text && !json.Valid(l) {
			t.Fatalf("stdout line is not JSON: %.300q", l)
		}
		var ev agt.Event
		if agt.API.Unmarshal(l, &ev) == nil && ev.Schema == agt.Schema {
			kinds[ev.Kind]++
			if srcs[ev.Src.Path] == nil {
				srcs[ev.Src.Path] = map[int64]bool{}
			}
			srcs[ev.Src.Path][ev.Src.Line] = true
		}
	}
	for _, w := range want["kinds"] {
		for _, kv := range strings.Fields(w) {
			k, n, _ := strings.Cut(kv, "=")
			if strconv.Itoa(kinds[k]) != n {
				t.Errorf("%d %s events, want %s (%v)", kinds[k], k, n, kinds)
			}
		}
	}
	for _, d := range want["notmp"] { // no temporary or partial file left
		filepath.WalkDir(filepath.Join(dir, d), func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("left behind: %s", p)
			}
			return nil
		})
	}
	for _, name := range want["accounted"] {
		p := filepath.Join(dir, name)
		body, _ := os.ReadFile(p)
		for i, l := range strings.Split(string(body), "\n") {
			if strings.TrimSpace(strings.TrimPrefix(l, "\ufeff")) != "" && !srcs[p][int64(i+1)] {
				t.Errorf("%s:%d yields no event", name, i+1)
			}
		}
	}
	if _, ok := want["noesc"]; ok { // nothing from the input reaches a terminal raw
		for name, b := range map[string]string{"stdout": out.String(), "stderr": stderr} {
			for i, r := range b {
				if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
					t.Errorf("%s has control character %U at byte %d: %.300q", name, r, i, b)
					break
				}
			}
		}
	}
}

// splitCase cuts a case into its header and files.
func splitCase(raw []byte) (string, map[string][]byte) {
	files := map[string][]byte{}
	parts := bytes.Split(raw, []byte("\n-- "))
	head := string(parts[0])
	for _, p := range parts[1:] {
		name, body, _ := bytes.Cut(p, []byte(" --\n"))
		files[string(name)] = body
	}
	return head, files
}

// gens make inputs too large, too binary or too odd to keep in a file.
var gens = map[string]func(t *testing.T, dir string, args ...string){
	// bigline NAME: a Claude Code record with a 64 MB tool result, between
	// two ordinary lines
	"bigline": func(t *testing.T, dir string, args ...string) {
		var b bytes.Buffer
		b.WriteString(claudeLine + "\n")
		b.WriteString(`{"type":"user","uuid":"u2","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`)
		b.Write(bytes.Repeat([]byte("0123456789abcdef"), 4<<20))
		b.WriteString(`"}]}}` + "\n" + claudeLine + "\n")
		write(t, dir, args[0], b.Bytes())
	},
	// deep NAME: a record nested 10,000 deep, between two ordinary lines
	"deep": func(t *testing.T, dir string, args ...string) {
		write(t, dir, args[0], []byte(claudeLine+"\n"+`{"type":"user","x":`+strings.Repeat("[", 10000)+strings.Repeat("]", 10000)+"}\n"+claudeLine+"\n"))
	},
	// binary NAME: bytes of every value, NULs and line ends among them
	"binary": func(t *testing.T, dir string, args ...string) {
		b := make([]byte, 0, 8192)
		for i := 0; i < 8192; i++ {
			b = append(b, byte(i*7+i/256))
		}
		write(t, dir, args[0], b)
	},
	// badtar NAME: a .tar.gz with a good member, "../" and absolute ones
	"badtar": func(t *testing.T, dir string, args ...string) {
		var buf bytes.Buffer
		z := gzip.NewWriter(&buf)
		tw := tar.NewWriter(z)
		for _, m := range []string{"proj/ok.jsonl", "../escape.jsonl", "/etc/abs.jsonl"} {
			tw.WriteHeader(&tar.Header{Name: m, Mode: 0o644, Size: int64(len(claudeLine) + 1), Typeflag: tar.TypeReg})
			tw.Write([]byte(claudeLine + "\n"))
		}
		tw.WriteHeader(&tar.Header{Name: "proj/link.jsonl", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"})
		tw.Close()
		z.Close()
		write(t, dir, args[0], buf.Bytes())
	},
	// bomb NAME: a gzip file that expands past the limit
	"bomb": func(t *testing.T, dir string, args ...string) {
		var buf bytes.Buffer
		z := gzip.NewWriter(&buf)
		z.Write([]byte(claudeLine + "\n"))
		zeros := make([]byte, 1<<20)
		for i := 0; i < 300; i++ { // 300 MB of zeros: past 256 MiB
			z.Write(zeros)
		}
		z.Close()
		write(t, dir, args[0], buf.Bytes())
	},
	// loop DIR: a folder with one log and a link to itself
	"loop": func(t *testing.T, dir string, args ...string) {
		d := filepath.Join(dir, args[0])
		os.MkdirAll(d, 0o755)
		write(t, d, "s.jsonl", []byte(claudeLine+"\n"))
		if err := os.Symlink(d, filepath.Join(d, "again")); err != nil {
			t.Fatal(err)
		}
	},
	// dangling NAME: a link to nothing, an input that cannot be read
	"dangling": func(t *testing.T, dir string, args ...string) {
		os.Symlink(filepath.Join(dir, "nothing-here"), filepath.Join(dir, args[0]))
	},
	// fulldisk DIR: a 64 KiB file system mounted at DIR (skips when
	// mounting is not allowed)
	"fulldisk": func(t *testing.T, dir string, args ...string) {
		d := filepath.Join(dir, args[0])
		os.MkdirAll(d, 0o755)
		if b, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d).CombinedOutput(); err != nil {
			t.Skipf("cannot mount a small file system: %v %s", err, b)
		}
		t.Cleanup(func() { exec.Command("umount", d).Run() })
	},
	// oddnames DIR: Claude Code logs named with a line end and an escape
	// sequence ("new\nline\x1b[2J.jsonl") and with bytes that are not UTF-8
	// ("bad\xff\xfe.jsonl"), each an ordinary line then one that is not JSON
	"oddnames": func(t *testing.T, dir string, args ...string) {
		d := filepath.Join(dir, args[0])
		os.MkdirAll(d, 0o755)
		for _, name := range []string{"new\nline\x1b[2J.jsonl", "bad\xff\xfe.jsonl"} {
			write(t, d, name, []byte(claudeLine+"\nnot json\n"))
		}
	},
	// dir NAME: an empty folder (an output folder inside the case's)
	"dir": func(t *testing.T, dir string, args ...string) {
		if err := os.MkdirAll(filepath.Join(dir, args[0]), 0o755); err != nil {
			t.Fatal(err)
		}
	},
}

func write(t *testing.T, dir, name string, b []byte) {
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(fmt.Errorf("writing %s: %w", name, err))
	}
}
