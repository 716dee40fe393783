package locate

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGlob(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a[1]*")
	for _, p := range []string{"x/chats", "y/chats", "z/other"} {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := Glob(dir, "*/chats")
	if len(got) != 2 || got[0] != filepath.Join(dir, "x", "chats") {
		t.Errorf("got %q", got)
	}
}

func TestDataHome(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "XDG_DATA_HOME" {
				return v
			}
			return ""
		}
	}
	for _, c := range []struct{ xdg, home, want string }{
		{"/x", "/h", "/x"},
		{"", "/h", filepath.Join("/h", ".local", "share")},
		{"", "", ""},
	} {
		if got := DataHome(env(c.xdg), c.home); got != c.want {
			t.Errorf("DataHome(%q, %q) = %q, want %q", c.xdg, c.home, got, c.want)
		}
	}
}
