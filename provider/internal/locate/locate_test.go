package locate

import (
	"os"
	"path/filepath"
	"slices"
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

func TestPlatformDirs(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": "/cfg", "APPDATA": "/roaming", "LOCALAPPDATA": "/local"}
	getenv := func(k string) string { return env[k] }
	mac := filepath.Join("/h", "Library", "Application Support")
	if got, want := ConfigDirs(getenv, "/h"), []string{"/cfg", mac, "/roaming"}; !slices.Equal(got, want) {
		t.Errorf("ConfigDirs = %q, want %q", got, want)
	}
	if got, want := DataDirs(getenv, "/h"), []string{filepath.Join("/h", ".local", "share"), mac, "/local"}; !slices.Equal(got, want) {
		t.Errorf("DataDirs = %q, want %q", got, want)
	}
	none := func(string) string { return "" }
	if got := ConfigDirs(none, ""); len(got) != 0 {
		t.Errorf("ConfigDirs without home or variables = %q", got)
	}
	if got, want := ConfigDirs(none, "/h"), []string{filepath.Join("/h", ".config"), mac}; !slices.Equal(got, want) {
		t.Errorf("ConfigDirs = %q, want %q", got, want)
	}
}
