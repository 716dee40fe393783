package transcript

import (
	"errors"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agt-project/agt/provider/providertest"

	"github.com/agt-project/agt/stage"
)

func TestSafeName(t *testing.T) {
	cases := map[string]string{
		"7f2abd2d-7cfc":   "7f2abd2d-7cfc",
		"../../x":         "_._.._x",
		"..":              "__",
		".":               "_",
		"/":               "_",
		"a\\b":            "a_b",
		"a\x00b":          "a_b",
		"x\u202ey":        "x_y",
		".agt-index.json": "_agt-index.json",
		"CON":             "_CON",
		"nul.txt":         "_nul.txt",
		"com1":            "_com1",
		"LPT9.x.y":        "_LPT9.x.y",
		"aux. ":           "aux__",
		"console":         "console",
		"":                "",
		"\xff\xfe":        "__",
	}
	for in, want := range cases {
		if got := SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("é", 5000)
	a, b := SafeName(long), SafeName(long+"x")
	if len(a) > maxName || !utf8.ValidString(a) || a == b {
		t.Errorf("long ids: %d bytes, valid %v, distinct %v", len(a), utf8.ValidString(a), a != b)
	}
	if FileName("", "") != "session" || FileName("", "../s") != "_._s" || ProviderDir("") != "unknown" {
		t.Errorf("fallbacks: %q %q %q", FileName("", ""), FileName("", "../s"), ProviderDir(""))
	}
}

// TestSafeNameRandom: whatever the id, the name is one local path element
// of bounded length that is neither hidden nor reserved.
func TestSafeNameRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{".", "/", "\\", "\x00", "\n", "a", "C", "O", "N", "1", " ", "~", ":", "é", "\u202e", "\xff"}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := rng.Intn(300); n > 0; n-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		id := b.String()
		n := FileName(id, id)
		stem, _, _ := strings.Cut(n, ".")
		if !filepath.IsLocal(n) || strings.ContainsAny(n, "/\\\x00\n") || strings.HasPrefix(n, ".") ||
			strings.HasSuffix(n, ".") || strings.HasSuffix(n, " ") || len(n) > maxName || n == "" ||
			reserved[strings.ToUpper(stem)] || !utf8.ValidString(n) {
			t.Fatalf("FileName(%q) = %q", id, n)
		}
	}
}

// TestDirRecords: a unit is recorded as done only when every one of its
// files is in place; a unit with a failed write or a read error keeps its
// names but no fingerprint, so that it is never up to date.
func TestDirRecords(t *testing.T) {
	in := t.TempDir()
	inputs := map[string]stage.Input{}
	for _, u := range []string{"good", "badwrite", "badread"} {
		p := filepath.Join(in, u+".jsonl")
		os.WriteFile(p, []byte("{}\n"), 0o644)
		inputs[u] = stage.FileInput(p)
	}
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "blocked"), nil, 0o644) // a file where a provider folder would go
	ix, err := LoadIndex(out, "salt")
	if err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(out, LogOff, ix)
	if err != nil {
		t.Fatal(err)
	}
	d.Failed = func(unit string) bool { return unit == inputs["badread"].Path }
	session := func(provider, id string) *Transcript {
		return &Transcript{Schema: Schema, Session: id, NativeSession: id, Provider: provider}
	}
	for _, u := range []string{"good", "badwrite", "badread"} {
		if ix.Fresh(inputs[u].Path, []stage.Input{inputs[u]}) {
			t.Fatalf("%s fresh before any run", u)
		}
		if err := d.Flush(inputs[u].Path, session(providertest.Stub, u), nil); err != nil {
			t.Fatal(err)
		}
		if u == "badwrite" {
			if err := d.Flush(inputs[u].Path, session("blocked", "x"), nil); err == nil {
				t.Fatal("a write under a file did not fail")
			}
		}
	}
	d.Close()
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	ix.Close()

	again, err := LoadIndex(out, "salt")
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	for u, want := range map[string]bool{"good": true, "badwrite": false, "badread": false} {
		e := again.Units[inputs[u].Path]
		if len(e.Files) == 0 || (e.Fingerprint != "") != want {
			t.Errorf("%s: recorded %+v, want done %v", u, e, want)
		}
		if got := again.Fresh(inputs[u].Path, []stage.Input{inputs[u]}); got != want {
			t.Errorf("%s: fresh %v, want %v", u, got, want)
		}
	}
	if o := again.Owner(providertest.Stub + "/badwrite.transcript.jsonl"); o != inputs["badwrite"].Path {
		t.Errorf("owner of a failed unit's file: %q", o)
	}
}

// TestDirWritesBehind: Flush hands a session's files to the writers and
// returns before they are written, so that the run goes on while a slow
// disk creates them; a unit is recorded only once its files are in place,
// in input order; a file that fails is reported by a later Flush or by
// Close, leaves no temporary file, and its unit is not recorded as done.
func TestDirWritesBehind(t *testing.T) {
	in := t.TempDir()
	inputs := map[string]stage.Input{}
	for _, u := range []string{"slow", "next", "failing"} {
		p := filepath.Join(in, u+".jsonl")
		os.WriteFile(p, []byte("{}\n"), 0o644)
		inputs[u] = stage.FileInput(p)
	}
	out := t.TempDir()
	ix, err := LoadIndex(out, "salt")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		ix.Fresh(in.Path, []stage.Input{in})
	}
	d, err := OpenDir(out, LogOff, ix)
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	d.Exports = []Export{{Ext: ".x.json", Write: func(w io.Writer, tr *Transcript) error {
		switch tr.Session {
		case "slow":
			<-release // a disk that takes its time
		case "failing":
			return errors.New("no room")
		}
		_, err := io.WriteString(w, tr.Session)
		return err
	}}}
	flush := func(u string) error {
		return d.Flush(inputs[u].Path, &Transcript{Schema: Schema, Session: u, NativeSession: u, Provider: providertest.Stub}, nil)
	}
	returned := make(chan error, 1)
	go func() { returned <- flush("slow") }()
	select {
	case err := <-returned:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Flush waited for its files to be written")
	}
	if err := flush("next"); err != nil {
		t.Fatal(err)
	}
	if e := ix.Units[inputs["slow"].Path]; len(e.Files) > 0 {
		t.Errorf("a unit recorded before its files are written: %+v", e)
	}
	close(release)
	if err := flush("failing"); err != nil {
		t.Fatal(err) // its export is written behind: the failure comes later
	}
	err = d.Close()
	if err == nil || !strings.Contains(err.Error(), filepath.Join(out, providertest.Stub, "failing.x.json")) || !strings.Contains(err.Error(), "no room") {
		t.Fatalf("Close: %v, want the failing file named", err)
	}
	if err := ix.Save(); err != nil {
		t.Fatal(err)
	}
	for u, want := range map[string]bool{"slow": true, "next": true, "failing": false} {
		e := ix.Units[inputs[u].Path]
		if len(e.Files) == 0 || (e.Fingerprint != "") != want {
			t.Errorf("%s: recorded %+v, want done %v", u, e, want)
		}
	}
	names, _ := filepath.Glob(filepath.Join(out, providertest.Stub, "*"))
	var got []string
	for _, n := range names {
		got = append(got, filepath.Base(n))
	}
	want := "failing.transcript.jsonl next.transcript.jsonl next.x.json slow.transcript.jsonl slow.x.json"
	if strings.Join(got, " ") != want {
		t.Errorf("files %q, want %q (no temporary file left)", strings.Join(got, " "), want)
	}
	if b, _ := os.ReadFile(filepath.Join(out, providertest.Stub, "slow.x.json")); string(b) != "slow" {
		t.Errorf("slow.x.json holds %q", b)
	}
	if d.Transcripts() != 3 {
		t.Errorf("%d transcripts counted, want 3", d.Transcripts())
	}
	ix.Close()
}
