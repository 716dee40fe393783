package transcript

import (
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
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
