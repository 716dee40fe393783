package copilot

import (
	"path/filepath"

	"github.com/agt-project/agt/provider/internal/locate"
)

// Logs is where Copilot CLI writes its sessions: session-state/ (and the
// legacy history-session-state/) under COPILOT_HOME, else ~/.copilot; and
// where VS Code keeps Copilot Chat's sessions (vscode.go): chatSessions/
// in each workspace's storage folder and emptyWindowChatSessions/ in its
// global storage, for VS Code and its Insiders build, under
// $XDG_CONFIG_HOME (else ~/.config), ~/Library/Application Support
// (macOS) and %APPDATA% (Windows).
func (Provider) Logs(getenv func(string) string, home string) []string {
	var out []string
	root := getenv("COPILOT_HOME")
	if root == "" && home != "" {
		root = filepath.Join(home, ".copilot")
	}
	if root != "" {
		out = append(out, filepath.Join(root, "session-state"), filepath.Join(root, "history-session-state"))
	}
	bases := locate.ConfigDirs(getenv, home)
	for _, b := range bases {
		for _, editor := range []string{"Code", "Code - Insiders"} {
			user := filepath.Join(b, editor, "User")
			out = append(out, locate.Glob(filepath.Join(user, "workspaceStorage"), "*/chatSessions")...)
			out = append(out, filepath.Join(user, "globalStorage", "emptyWindowChatSessions"))
		}
	}
	return out
}
