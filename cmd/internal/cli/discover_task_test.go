package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// TestDiscoverTasks finds the task folders of Cline, Roo Code and Kilo
// Code in a fake home laid out as VS Code, Cursor, VSCodium and Windsurf
// lay out their global storage, on Linux and macOS, and under %APPDATA%.
func TestDiscoverTasks(t *testing.T) {
	dirs := []string{
		".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1760534080239",
		".config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks/0b5c6f0e",
		".config/VSCodium/User/globalStorage/kilocode.kilo-code/tasks/5e6f7a8b",
		"Library/Application Support/Windsurf/User/globalStorage/saoudrizwan.claude-dev/tasks/1",
		"AppData/Roaming/Code/User/globalStorage/kilocode.kilo-code/tasks/2",
		".config/Code/User/globalStorage/some.other-extension/tasks/3",
	}
	root := t.TempDir()
	mkdirs(t, root, dirs...)
	env := map[string]string{"APPDATA": filepath.Join(root, "AppData", "Roaming")}
	got, names := discoveredIn(func(k string) string { return env[k] }, root)
	want := []string{
		".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks",
		".config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks",
		".config/VSCodium/User/globalStorage/kilocode.kilo-code/tasks",
		"Library/Application Support/Windsurf/User/globalStorage/saoudrizwan.claude-dev/tasks",
		"AppData/Roaming/Code/User/globalStorage/kilocode.kilo-code/tasks",
	}
	if !slices.Equal(got, want) || strings.Join(names, " ") != "cline cline cline cline cline" {
		t.Errorf("got %q %q\nwant %q", got, names, want)
	}
}

// TestDiscoverGoose finds Goose's sessions folder (sessions.db and the
// session files of earlier versions) in a fake home, and its earliest
// folder under ~/.config; agt-transcript --discover reads the database.
func TestDiscoverGoose(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, ".local/share/goose/sessions", ".config/goose/sessions")
	b, err := os.ReadFile(providertest.Testdata(t, "goose", "sessions.db"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, ".local/share/goose/sessions/sessions.db"), b, 0o644)
	got, names := discoveredIn(func(string) string { return "" }, root)
	if want := []string{".local/share/goose/sessions", ".config/goose/sessions"}; !slices.Equal(got, want) || strings.Join(names, " ") != "goose goose" {
		t.Errorf("got %q %q, want %q", got, names, want)
	}
	if m, stderr := transcribeDiscovered(t, root, "goose"); len(m) != 2 {
		t.Errorf("goose transcripts %v; stderr %s", m, stderr)
	}
}
