package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
	var got, names []string
	for _, f := range discover(func(k string) string { return env[k] }, root) {
		rel, _ := filepath.Rel(root, f.path)
		got, names = append(got, filepath.ToSlash(rel)), append(names, f.provider)
	}
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
