package cli

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
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
//	stderrlines: 1                                (stderr lines)
//	stdout: "kind":"error"                        (a substring; may repeat)
//	lines: 3                                      (stdout lines)
//	kinds: error=1 user=2                         (events by kind)
//	accounted: in.jsonl                           (every non-blank line in some src)
//	notmp: out                                    (no temporary file left in out/)
//	long                                          (left out with -short)
//	env: AGT_STREAM_LOG=raw                       (set for the run; $DIR is the
//	                                               case's folder)
//	umask: 027                                    (the process umask for the run)
//	before: agt-transcript -o out in.jsonl        (a run first, its outcome not checked)
//	fullout                                       (stdout fails: no space left on device)
//	files: out 3                                  (files under out/, dot files left out)
//	file: out/claude/s1.transcript.jsonl          (a regular file exists)
//	nofile: out/claude                            (nothing there)
//	contains: out/claude/s1.transcript.jsonl TEXT (a file holds TEXT)
//	nocontains: out/.agt-index.json TEXT          (a file that does not hold TEXT)
//	mode: out/claude/s1.transcript.jsonl 0640     (permission bits)
//	outside: out                                  (the run wrote nothing but under out/)
//	notstderr: no provider recognises this input  (a substring stderr lacks; may repeat)
//	notstdout: "secret"                             (a substring stdout lacks; may repeat)
//	stable                                        (a second run writes the same stdout)
//	text                                          (stdout is text lines, not JSON)
//	noesc                                         (no control character in stdout or
//	                                               stderr but \n: C0, DEL, C1, bidi)
//	stdin-file: in.bin                            (stdin is that file, made by a gen)
//	-- in.jsonl --                                (a name may hold folders: logs/a.jsonl)
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

// directives are the checks and run settings a case header may give
// (run, gen, before, stdin-file and long are read first).
var directives = map[string]bool{
	"accounted": true, "contains": true, "env": true, "exit": true, "file": true, "files": true, "fullout": true,
	"kinds": true, "lines": true, "mode": true, "nocontains": true, "noesc": true, "nofile": true, "nostderr": true,
	"notmp": true, "notstderr": true, "notstdout": true, "outside": true, "stable": true, "stderr": true, "stderrlines": true,
	"stdout": true, "text": true, "umask": true,
}

var apps = map[string]App{"agt-parse": Parse, "agt-normalize": Normalize, "agt-transcript": Transcript, "agt-streamlog": Streamlog, "agt-report": Report}

func runBadCase(t *testing.T, file string) {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	head, files := splitCase(raw)
	for name, body := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
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
		case key == "long": // left out of -short runs (the race detector's)
			if testing.Short() {
				t.Skip("a long case, left out with -short")
			}
		case key == "run":
			args = strings.Fields(val)
		case key == "gen":
			f := strings.Fields(val)
			gens[f[0]](t, dir, f[1:]...)
		case key == "before":
			before(t, dir, strings.Fields(val))
		case key == "stdin-file": // stdin is a file a gen made
			b, err := os.ReadFile(filepath.Join(dir, val))
			if err != nil {
				t.Fatal(err)
			}
			stdin = b
		case !directives[key]: // a misspelt check would pass unseen
			t.Fatalf("unknown directive %q", key)
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
	caseArgs(dir, args)
	// set-up directives of the run
	for _, kv := range want["env"] {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, strings.ReplaceAll(v, "$DIR", dir))
	}
	if w := want["umask"]; len(w) > 0 {
		m, err := strconv.ParseUint(w[0], 8, 32)
		if err != nil {
			t.Fatal(err)
		}
		old := syscall.Umask(int(m))
		defer syscall.Umask(old)
	}
	var stdout io.Writer
	var out bytes.Buffer
	var errb syncBuffer // a run's goroutine may still write once Run has returned (a followed run's reader, left behind)
	stdout = &out
	if _, ok := want["fullout"]; ok {
		stdout = fullWriter{}
	}
	snap := map[string]bool{}
	if _, ok := want["outside"]; ok {
		snap = tree(filepath.Dir(dir))
	}
	code := Run(context.Background(), app(IO{In: bytes.NewReader(stdin), Out: stdout, Err: &errb}), args)
	stderr := string(errb.Bytes())
	if w := want["exit"]; len(w) > 0 && strconv.Itoa(code) != w[0] {
		t.Errorf("exit %d, want %s; stderr:\n%s", code, w[0], stderr)
	}
	for _, s := range want["stderr"] {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
	if w := want["stderrlines"]; len(w) > 0 && strconv.Itoa(strings.Count(stderr, "\n")) != w[0] {
		t.Errorf("%d stderr lines, want %s:\n%s", strings.Count(stderr, "\n"), w[0], stderr)
	}
	if _, ok := want["nostderr"]; ok && stderr != "" {
		t.Errorf("stderr not empty:\n%s", stderr)
	}
	for _, s := range want["stdout"] {
		if !strings.Contains(out.String(), s) {
			t.Errorf("stdout lacks %q: %.1000s", s, out.String())
		}
	}
	for _, s := range want["notstdout"] {
		if strings.Contains(out.String(), s) {
			t.Errorf("stdout holds %q: %.1000s", s, out.String())
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
	// checks of the output folder
	for _, w := range want["files"] {
		d, n, _ := strings.Cut(w, " ")
		count := 0
		filepath.WalkDir(filepath.Join(dir, d), func(p string, e os.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
				count++
			}
			return nil
		})
		if strconv.Itoa(count) != strings.TrimSpace(n) {
			t.Errorf("%d files under %s, want %s: %v", count, d, n, keysOf(tree(filepath.Join(dir, d))))
		}
	}
	for _, f := range want["file"] {
		if st, err := os.Lstat(filepath.Join(dir, f)); err != nil || !st.Mode().IsRegular() {
			t.Errorf("%s: want a file: %v; have %v", f, err, keysOf(tree(dir)))
		}
	}
	for _, f := range want["nofile"] {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s exists", f)
		}
	}
	for _, w := range want["contains"] {
		f, text, _ := strings.Cut(w, " ")
		if b, err := os.ReadFile(filepath.Join(dir, f)); err != nil || !strings.Contains(string(b), text) {
			t.Errorf("%s lacks %q (%v): %.500s", f, text, err, b)
		}
	}
	for _, w := range want["nocontains"] {
		f, text, _ := strings.Cut(w, " ")
		if b, err := os.ReadFile(filepath.Join(dir, f)); err != nil || strings.Contains(string(b), text) {
			t.Errorf("%s holds %q (%v): %.500s", f, text, err, b)
		}
	}
	for _, w := range want["mode"] {
		f, m, _ := strings.Cut(w, " ")
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
		} else if fmt.Sprintf("%04o", st.Mode().Perm()) != m {
			t.Errorf("%s: mode %04o, want %s", f, st.Mode().Perm(), m)
		}
	}
	for _, d := range want["outside"] {
		inside := filepath.Join(dir, d) + string(filepath.Separator)
		for p := range tree(filepath.Dir(dir)) {
			if !snap[p] && !strings.HasPrefix(p+string(filepath.Separator), inside) {
				t.Errorf("written outside %s: %s", d, p)
			}
		}
	}
	for _, s := range want["notstderr"] {
		if strings.Contains(stderr, s) {
			t.Errorf("stderr has %q:\n%s", s, stderr)
		}
	}
	if _, ok := want["stable"]; ok {
		var again bytes.Buffer
		Run(context.Background(), app(IO{In: bytes.NewReader(stdin), Out: &again, Err: io.Discard}), args)
		if !bytes.Equal(again.Bytes(), out.Bytes()) {
			t.Errorf("a second run writes another stdout")
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

// caseArgs makes arguments whose first path element names a file or
// folder of the case, and the folder of -o, paths into the case's folder.
func caseArgs(dir string, args []string) {
	for i, a := range args[1:] {
		first, _, _ := strings.Cut(a, "/")
		first, _, _ = strings.Cut(first, "!")
		_, err := os.Lstat(filepath.Join(dir, first))
		if err == nil && !strings.HasPrefix(a, "-") || args[i] == "-o" || args[i] == "--output" {
			args[i+1] = filepath.Join(dir, a)
		}
	}
}

// before runs a filter in dir before the case's run.
func before(t *testing.T, dir string, args []string) {
	caseArgs(dir, args)
	var out, errb bytes.Buffer
	Run(context.Background(), apps[args[0]](IO{In: strings.NewReader(""), Out: &out, Err: &errb}), args)
}

// fullWriter is a standard output on a full disk.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// tree is the set of paths below root.
func tree(root string) map[string]bool {
	m := map[string]bool{}
	filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
		if err == nil {
			m[p] = true
		}
		return nil
	})
	return m
}

func keysOf(m map[string]bool) []string {
	var k []string
	for p := range m {
		k = append(k, p)
	}
	sort.Strings(k)
	return k
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
	// packed CODEC BOX NAME [half|bomb]: claudeLine as s.jsonl, in a BOX
	// (log: the file itself, tar, zip), through CODEC (none, gz, zst, xz),
	// as NAME; half: cut to its first half; bomb: 300 MB of zeros follow
	// the line (past the 256 MiB floor of the expansion limit); crc: a gzip
	// stream whose trailer's CRC-32 is wrong (its data intact)
	"packed": func(t *testing.T, dir string, args ...string) {
		body := []byte(claudeLine + "\n")
		if len(args) > 3 && args[3] == "bomb" {
			body = append(body, make([]byte, 300<<20)...)
		}
		switch args[1] {
		case "tar":
			var buf bytes.Buffer
			tw := tar.NewWriter(&buf)
			tw.WriteHeader(&tar.Header{Name: "s.jsonl", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg, Format: tar.FormatUSTAR})
			tw.Write(body)
			tw.Close()
			body = buf.Bytes()
		case "zip":
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			w, _ := zw.Create("s.jsonl")
			w.Write(body)
			zw.Close()
			body = buf.Bytes()
		}
		var buf bytes.Buffer
		var w io.WriteCloser
		switch args[0] {
		case "gz":
			w = gzip.NewWriter(&buf)
		case "zst":
			w, _ = zstd.NewWriter(&buf)
		case "xz":
			w, _ = xz.NewWriter(&buf)
		}
		if w != nil {
			w.Write(body)
			w.Close()
			body = buf.Bytes()
		}
		if len(args) > 3 && args[3] == "half" {
			body = body[:len(body)/2]
		}
		if len(args) > 3 && args[3] == "crc" {
			body[len(body)-8] ^= 0xff
		}
		write(t, dir, args[2], body)
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
	// symlink NAME TARGET: a link NAME to TARGET (both in the case's
	// folder; a link to itself is a loop)
	"symlink": func(t *testing.T, dir string, args ...string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, args[0])), 0o755)
		if err := os.Symlink(filepath.Join(dir, args[1]), filepath.Join(dir, args[0])); err != nil {
			t.Fatal(err)
		}
	},
	// pack FORMAT DIR NAME: the case's folder DIR (made by the gens before)
	// packed as NAME, a tar.gz (FORMAT tgz) or a zip (zip), its members
	// named DIR/…
	"pack": func(t *testing.T, dir string, args ...string) {
		var buf bytes.Buffer
		var add func(name string, b []byte)
		var done func()
		switch args[0] {
		case "tgz":
			z := gzip.NewWriter(&buf)
			tw := tar.NewWriter(z)
			add = func(name string, b []byte) {
				tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg})
				tw.Write(b)
			}
			done = func() { tw.Close(); z.Close() }
		case "zip":
			zw := zip.NewWriter(&buf)
			add = func(name string, b []byte) { w, _ := zw.Create(name); w.Write(b) }
			done = func() { zw.Close() }
		}
		root := filepath.Join(dir, args[1])
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, p)
			add(filepath.ToSlash(rel), b)
			return nil
		})
		done()
		write(t, dir, args[2], buf.Bytes())
	},
	// damagedsqlite NAME: the first page of a real SQLite database and no
	// more (a damaged file)
	"damagedsqlite": func(t *testing.T, dir string, args ...string) {
		var buf bytes.Buffer
		buf.WriteString("SQLite format 3\x00")
		buf.Write([]byte{0x10, 0x00, 0x01, 0x01, 0x00, 0x40, 0x20, 0x20})
		buf.Write(bytes.Repeat([]byte{0xab}, 4096-buf.Len()))
		os.MkdirAll(filepath.Dir(filepath.Join(dir, args[0])), 0o755)
		write(t, dir, args[0], buf.Bytes())
	},
	// mkfifo NAME: a named pipe nobody writes (its folder made)
	"mkfifo": func(t *testing.T, dir string, args ...string) {
		p := filepath.Join(dir, args[0])
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	},
	// zero NAME: a link to /dev/zero, a file that never ends
	"zero": func(t *testing.T, dir string, args ...string) {
		if err := os.Symlink("/dev/zero", filepath.Join(dir, args[0])); err != nil {
			t.Skipf("no /dev/zero link: %v", err)
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
	// longid NAME BYTES: an agt.event/1 line whose native session id is
	// BYTES long
	"longid": func(t *testing.T, dir string, args ...string) {
		n, _ := strconv.Atoi(args[1])
		write(t, dir, args[0], []byte(`{"schema":"agt.event/1","id":"e1","session":"s","native_session":"`+strings.Repeat("x", n)+`","provider":"claude","format":"claude-session","seq":0,"stream":"main","kind":"user","text":"long","src":{"path":"a.jsonl","line":1}}`+"\n"))
	},
	// linkout DIR NAME TARGET: DIR/NAME is a link to the case's folder
	// TARGET (made), outside DIR
	"linkout": func(t *testing.T, dir string, args ...string) {
		os.MkdirAll(filepath.Join(dir, args[0]), 0o755)
		os.MkdirAll(filepath.Join(dir, args[2]), 0o755)
		if err := os.Symlink(filepath.Join(dir, args[2]), filepath.Join(dir, args[0], args[1])); err != nil {
			t.Fatal(err)
		}
	},
	// truncgz NAME: a gzip file of a Claude Code session cut in its middle
	"truncgz": func(t *testing.T, dir string, args ...string) {
		var buf bytes.Buffer
		z := gzip.NewWriter(&buf)
		for i := 0; i < 2000; i++ {
			fmt.Fprintf(z, `{"type":"user","uuid":"u%d","sessionId":"s1","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"hello %d %x"}}`+"\n", i, i, i*7919)
		}
		z.Close()
		write(t, dir, args[0], buf.Bytes()[:buf.Len()/2])
	},
	// locked DIR: DIR made, and its lock held by the test, as by another
	// run
	"locked": func(t *testing.T, dir string, args ...string) {
		d := filepath.Join(dir, args[0])
		os.MkdirAll(d, 0o755)
		f, err := os.OpenFile(filepath.Join(d, ".agt-lock"), os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
	},
	// rm NAME: NAME removed (after a before: run, an input gone)
	"rm": func(t *testing.T, dir string, args ...string) {
		if err := os.Remove(filepath.Join(dir, args[0])); err != nil {
			t.Fatal(err)
		}
	},
	// touch NAME: NAME's modification time a minute later
	"touch": func(t *testing.T, dir string, args ...string) {
		later := time.Now().Add(time.Minute)
		if err := os.Chtimes(filepath.Join(dir, args[0]), later, later); err != nil {
			t.Fatal(err)
		}
	},
	// longtext NAME: a user line, then 20,000 assistant lines of one model
	// call (about 7 MB of text), each a text block
	"longtext": func(t *testing.T, dir string, args ...string) {
		var b bytes.Buffer
		b.WriteString(claudeLine + "\n")
		text := strings.Repeat("some words of a long answer ", 8)
		for i := range 20000 {
			fmt.Fprintf(&b, `{"type":"assistant","uuid":"a%d","sessionId":"s1","timestamp":"2026-01-15T10:00:01Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"%d %s"}],"usage":{"input_tokens":3,"output_tokens":%d}}}`+"\n", i, i, text, i)
		}
		write(t, dir, args[0], b.Bytes())
	},
	// cdchain NAME: a Claude Code Bash call whose command is 80,000
	// "cd x &&" (640 KB) before a cat
	"cdchain": func(t *testing.T, dir string, args ...string) {
		cmd := strings.Repeat("cd x && ", 80000) + "cat f"
		write(t, dir, args[0], []byte(claudeLine+"\n"+`{"type":"assistant","uuid":"a1","sessionId":"s1","timestamp":"2026-01-15T10:00:01Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"`+cmd+`"}}],"usage":{"input_tokens":3,"output_tokens":5}}}`+"\n"))
	},
	// duptar NAME: a tar with two members named s.jsonl (sessions s1, s2)
	"duptar": func(t *testing.T, dir string, args ...string) {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for _, sess := range []string{"s1", "s2"} {
			body := ownSessionLine(sess) + "\n"
			tw.WriteHeader(&tar.Header{Name: "s.jsonl", Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
			tw.Write([]byte(body))
		}
		tw.Close()
		write(t, dir, args[0], buf.Bytes())
	},
	// dupzip NAME: a zip with two members named s.jsonl (sessions s1, s2)
	"dupzip": func(t *testing.T, dir string, args ...string) {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, sess := range []string{"s1", "s2"} {
			w, _ := zw.Create("s.jsonl")
			w.Write([]byte(ownSessionLine(sess) + "\n"))
		}
		zw.Close()
		write(t, dir, args[0], buf.Bytes())
	},
	// fifo NAME: a named pipe a goroutine writes 1000 records to, once
	"fifo": func(t *testing.T, dir string, args ...string) {
		p := filepath.Join(dir, args[0])
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		go func() {
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			defer f.Close()
			w := bufio.NewWriter(f)
			for i := 0; i < 1000; i++ {
				fmt.Fprintln(w, strings.Replace(claudeLine, `"u1"`, fmt.Sprintf(`"u%d"`, i), 1))
			}
			w.Flush()
		}()
		t.Cleanup(func() { // a writer still waiting for a reader is let go
			if f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		})
	},
	// linebomb NAME: a gzip file of one record, then 300 MB without a line
	// end (past the 256 MiB expansion floor)
	"linebomb": func(t *testing.T, dir string, args ...string) {
		var buf bytes.Buffer
		z, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		z.Write([]byte(claudeLine + "\n"))
		xs := bytes.Repeat([]byte("x"), 1<<20)
		for i := 0; i < 300; i++ {
			z.Write(xs)
		}
		z.Close()
		write(t, dir, args[0], buf.Bytes())
	},
	// nested NAME: a tar holding a gzip-compressed log (session s1), a
	// .tar.gz holding a log (session s2), and a zip
	"nested": func(t *testing.T, dir string, args ...string) {
		type file struct {
			name string
			body []byte
		}
		tarOf := func(gz bool, fs ...file) []byte {
			var buf bytes.Buffer
			var w io.Writer = &buf
			z := gzip.NewWriter(&buf)
			if gz {
				w = z
			}
			tw := tar.NewWriter(w)
			for _, f := range fs {
				tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.body)), Typeflag: tar.TypeReg})
				tw.Write(f.body)
			}
			tw.Close()
			if gz {
				z.Close()
			}
			return buf.Bytes()
		}
		var gz bytes.Buffer
		z := gzip.NewWriter(&gz)
		z.Write([]byte(claudeLine + "\n"))
		z.Close()
		inner := tarOf(true, file{"s2.jsonl", []byte(ownSessionLine("s2") + "\n")})
		write(t, dir, args[0], tarOf(false, file{"logs/s.jsonl.gz", gz.Bytes()}, file{"logs/inner.tar.gz", inner}, file{"logs/x.zip", []byte("PK")}))
	},
	// foreign DIR: a folder with a Claude Code log, settings.json,
	// package.json and a SQLite database that is not OpenCode's
	"foreign": func(t *testing.T, dir string, args ...string) {
		d := filepath.Join(dir, args[0])
		os.MkdirAll(filepath.Join(d, "sub"), 0o755)
		write(t, d, "s.jsonl", []byte(claudeLine+"\n"))
		write(t, d, "settings.json", []byte(`{"permissions":{"allow":[]}}`+"\n"))
		write(t, d, "sub/package.json", []byte("{\n  \"name\": \"x\",\n  \"version\": \"1.0.0\"\n}\n"))
		db, err := sql.Open("sqlite", filepath.Join(d, "app.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes(text) VALUES ('hello')`); err != nil {
			t.Fatal(err)
		}
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
	// opencodedb DIR: DIR/opencode.db as OpenCode leaves it while it runs
	// (walDB), hostile: a session id that climbs out of a folder, a part
	// whose JSON has a raw control character inside a string
	// opencodelong DIR: an OpenCode database whose first session holds a
	// 64 KiB part (past a small --max-line) and whose second is short
	"opencodelong": func(t *testing.T, dir string, args ...string) {
		long := strings.Repeat("x", 64<<10)
		walDB(t, filepath.Join(dir, args[0]), "opencode.db",
			"CREATE TABLE session (id text PRIMARY KEY, project_id text, slug text, directory text, title text, version text, time_created integer, time_updated integer)",
			"CREATE TABLE message (id text PRIMARY KEY, session_id text, time_created integer, time_updated integer, data text)",
			"CREATE TABLE part (id text PRIMARY KEY, message_id text, session_id text, time_created integer, time_updated integer, data text)",
			"INSERT INTO session VALUES ('ses_a', 'p', 's', '/w', 'long', '1.0.0', 1700000000000, 1700000000000)",
			"INSERT INTO session VALUES ('ses_b', 'p', 's', '/w', 'short', '1.0.0', 1700000001000, 1700000001000)",
			`INSERT INTO message VALUES ('msg_a', 'ses_a', 1700000000000, 1700000000000, '{"role":"user","time":{"created":1700000000000}}')`,
			`INSERT INTO part VALUES ('prt_a', 'msg_a', 'ses_a', 1700000000000, 1700000000000, '{"type":"text","text":"`+long+`"}')`,
			`INSERT INTO message VALUES ('msg_b', 'ses_b', 1700000001000, 1700000001000, '{"role":"user","time":{"created":1700000001000}}')`,
			`INSERT INTO part VALUES ('prt_b', 'msg_b', 'ses_b', 1700000001000, 1700000001000, '{"type":"text","text":"hello"}')`,
		)
	},
	// opencodebig DIR: an OpenCode database whose first session holds 40
	// messages of 64 KiB each (2.5 MiB in all) and whose second is short
	"opencodebig": func(t *testing.T, dir string, args ...string) {
		long := strings.Repeat("x", 64<<10)
		stmts := []string{
			"CREATE TABLE session (id text PRIMARY KEY, project_id text, slug text, directory text, title text, version text, time_created integer, time_updated integer)",
			"CREATE TABLE message (id text PRIMARY KEY, session_id text, time_created integer, time_updated integer, data text)",
			"CREATE TABLE part (id text PRIMARY KEY, message_id text, session_id text, time_created integer, time_updated integer, data text)",
			"INSERT INTO session VALUES ('ses_a', 'p', 's', '/w', 'big', '1.0.0', 1700000000000, 1700000000000)",
			"INSERT INTO session VALUES ('ses_b', 'p', 's', '/w', 'short', '1.0.0', 1700000001000, 1700000001000)",
			`INSERT INTO message VALUES ('msg_b', 'ses_b', 1700000001000, 1700000001000, '{"role":"user","time":{"created":1700000001000}}')`,
			`INSERT INTO part VALUES ('prt_b', 'msg_b', 'ses_b', 1700000001000, 1700000001000, '{"type":"text","text":"hello"}')`,
		}
		for i := range 40 {
			ms := 1700000000000 + i
			stmts = append(stmts,
				fmt.Sprintf(`INSERT INTO message VALUES ('msg_a%02d', 'ses_a', %d, %d, '{"role":"user","time":{"created":%d}}')`, i, ms, ms, ms),
				fmt.Sprintf(`INSERT INTO part VALUES ('prt_a%02d', 'msg_a%02d', 'ses_a', %d, %d, '{"type":"text","text":"%s"}')`, i, i, ms, ms, long))
		}
		walDB(t, filepath.Join(dir, args[0]), "opencode.db", stmts...)
	},
	"opencodedb": func(t *testing.T, dir string, args ...string) {
		walDB(t, filepath.Join(dir, args[0]), "opencode.db",
			"CREATE TABLE session (id text PRIMARY KEY, project_id text, slug text, directory text, title text, version text, time_created integer, time_updated integer)",
			"CREATE TABLE message (id text PRIMARY KEY, session_id text, time_created integer, time_updated integer, data text)",
			"CREATE TABLE part (id text PRIMARY KEY, message_id text, session_id text, time_created integer, time_updated integer, data text)",
			"INSERT INTO session VALUES ('ses_/../../evil', 'p', 's', '/w', 't', '1.0.0', 1700000000000, 1700000000000)",
			`INSERT INTO message VALUES ('msg_1', 'ses_/../../evil', 1700000000000, 1700000000000, '{"role":"assistant","modelID":"m","time":{"created":1700000000000}}')`,
			"INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_/../../evil', 1700000000000, 1700000000000, '{\"type\":\"tool\",\"callID\":\"c1\",\"tool\":\"bash\",\"state\":{\"status\":\"completed\",\"input\":{\"command\":\"ls\"},\"output\":\"a\bb\",\"metadata\":\"{\\\"x\\\":\\\"\x08\\\"}\"}}')",
		)
	},
	// crushdb DIR: DIR/crush.db as Crush leaves it while it runs (walDB),
	// hostile: a session id that climbs out of a folder, a message whose
	// parts are not JSON (a raw control character), one whose parts are
	// not an array, a negative token count
	// crushchild DIR: a Crush database with a session and a sub-agent's
	// session that names it as its parent
	"crushchild": func(t *testing.T, dir string, args ...string) {
		walDB(t, filepath.Join(dir, args[0]), "crush.db",
			"CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT, message_count INTEGER, prompt_tokens INTEGER, completion_tokens INTEGER, cost REAL, updated_at INTEGER, created_at INTEGER, summary_message_id TEXT)",
			"CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts TEXT, model TEXT, created_at INTEGER, updated_at INTEGER, finished_at INTEGER, provider TEXT)",
			"INSERT INTO sessions VALUES ('main-1', NULL, 'main', 1, 10, 5, 0, 1700000000, 1700000000, NULL)",
			"INSERT INTO sessions VALUES ('task-1', 'main-1', 'a task', 1, 10, 5, 0, 1700000001, 1700000001, NULL)",
			`INSERT INTO messages VALUES ('m1', 'main-1', 'user', '[{"type":"text","data":{"text":"hi"}}]', NULL, 1700000000, 1700000000, NULL, NULL)`,
			`INSERT INTO messages VALUES ('m2', 'task-1', 'user', '[{"type":"text","data":{"text":"look"}}]', NULL, 1700000001, 1700000001, NULL, NULL)`,
		)
	},
	"crushdb": func(t *testing.T, dir string, args ...string) {
		walDB(t, filepath.Join(dir, args[0]), "crush.db",
			"CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT, message_count INTEGER, prompt_tokens INTEGER, completion_tokens INTEGER, cost REAL, updated_at INTEGER, created_at INTEGER, summary_message_id TEXT)",
			"CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts TEXT, model TEXT, created_at INTEGER, updated_at INTEGER, finished_at INTEGER, provider TEXT)",
			"INSERT INTO sessions VALUES ('../../evil', NULL, 't', 3, -5, 7, 0.5, 1700000000, 1700000000, NULL)",
			`INSERT INTO messages VALUES ('m1', '../../evil', 'user', '[{"type":"text","data":{"text":"hi"}}]', NULL, 1700000000, 1700000000, NULL, NULL)`,
			"INSERT INTO messages VALUES ('m2', '../../evil', 'assistant', '[{\"type\":\"text\",\"data\":{\"text\":\"\x08\"}}]', 'm', 1700000001, 1700000001, 1700000001, 'p')",
			`INSERT INTO messages VALUES ('m3', '../../evil', 'assistant', '{"type":"text"}', 'm', 1700000002, 1700000002, 1700000002, 'p')`,
		)
	},
	// crushtypes DIR: a Crush database whose tool call part names its tool
	// with a number and writes input that is not JSON
	"crushtypes": func(t *testing.T, dir string, args ...string) {
		walDB(t, filepath.Join(dir, args[0]), "crush.db",
			"CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT, message_count INTEGER, prompt_tokens INTEGER, completion_tokens INTEGER, cost REAL, updated_at INTEGER, created_at INTEGER, summary_message_id TEXT)",
			"CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts TEXT, model TEXT, created_at INTEGER, updated_at INTEGER, finished_at INTEGER, provider TEXT)",
			"INSERT INTO sessions VALUES ('s1', NULL, 't', 2, 10, 5, 0, 1700000000, 1700000000, NULL)",
			`INSERT INTO messages VALUES ('m1', 's1', 'user', '[{"type":"text","data":{"text":"hi"}}]', NULL, 1700000000, 1700000000, NULL, NULL)`,
			`INSERT INTO messages VALUES ('m2', 's1', 'assistant', '[{"type":"tool_call","data":{"id":"c1","name":5,"input":"ls -la"}}]', 'm', 1700000001, 1700000001, 1700000001, 'p')`,
		)
	},
	// sql DB FILE: a SQLite database at DB (in WAL mode, its rows still in
	// the -wal) made by the statements of the case's FILE, one a line
	"sql": func(t *testing.T, dir string, args ...string) {
		b, err := os.ReadFile(filepath.Join(dir, args[1]))
		if err != nil {
			t.Fatal(err)
		}
		var stmts []string
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				stmts = append(stmts, l)
			}
		}
		walDB(t, filepath.Join(dir, filepath.Dir(args[0])), filepath.Base(args[0]), stmts...)
	},
	// dir NAME: an empty folder (an output folder inside the case's)
	"dir": func(t *testing.T, dir string, args ...string) {
		if err := os.MkdirAll(filepath.Join(dir, args[0]), 0o755); err != nil {
			t.Fatal(err)
		}
	},
}

// walDB writes dir/name, a SQLite database in WAL mode made by stmts, as
// its agent leaves it while it runs: copied while the writer still holds
// the schema and rows in the -wal beside it.
func walDB(t *testing.T, dir, name string, stmts ...string) {
	os.MkdirAll(dir, 0o755)
	live := filepath.Join(t.TempDir(), name)
	db, err := sql.Open("sqlite", "file:"+live+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(live + suffix)
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, name+suffix, b)
	}
}

func write(t *testing.T, dir, name string, b []byte) {
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(fmt.Errorf("writing %s: %w", name, err))
	}
}

// ownSessionLine is claudeLine in session sess, with a uuid of its own: two
// sessions whose first records share uuid and timestamp are one lineage (a
// resumed session and its original), whose second counts nothing again.
func ownSessionLine(sess string) string {
	if sess == "s1" {
		return claudeLine
	}
	return strings.Replace(strings.Replace(claudeLine, `"s1"`, `"`+sess+`"`, 1), `"u1"`, `"u-`+sess+`"`, 1)
}
