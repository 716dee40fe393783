package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// TestDiscoverVSCodeChat finds the chat sessions of Copilot Chat in VS
// Code (chatSessions/ of a workspace's storage, on Linux and macOS, and
// the empty window's) in a fake home, and agt-transcript --discover reads
// them.
func TestDiscoverVSCodeChat(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".config/Code/User/workspaceStorage/1a2b/chatSessions/s1.json":                                    "gitai__copilot_session_simple.json",
		"Library/Application Support/Code - Insiders/User/globalStorage/emptyWindowChatSessions/s2.jsonl": "gitai__copilot_session_multiline.jsonl",
	}
	for to, from := range files {
		b, err := os.ReadFile(providertest.Testdata(t, "copilot", "vscode", from))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(root, to)), 0o755)
		if err := os.WriteFile(filepath.Join(root, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, names := discoveredIn(func(string) string { return "" }, root)
	want := []string{".config/Code/User/workspaceStorage/1a2b/chatSessions", "Library/Application Support/Code - Insiders/User/globalStorage/emptyWindowChatSessions"}
	if !slices.Equal(got, want) || strings.Join(names, " ") != "copilot copilot" {
		t.Errorf("got %q %q\nwant %q", got, names, want)
	}
	if m, stderr := transcribeDiscovered(t, root, "copilot"); len(m) != 2 {
		t.Errorf("copilot transcripts %v; stderr %s", m, stderr)
	}
}
