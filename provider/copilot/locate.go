package copilot

import "path/filepath"

// Logs is where Copilot CLI writes its sessions: session-state/ (and the
// legacy history-session-state/) under COPILOT_HOME, else ~/.copilot.
func (Provider) Logs(getenv func(string) string, home string) []string {
	root := getenv("COPILOT_HOME")
	if root == "" {
		if home == "" {
			return nil
		}
		root = filepath.Join(home, ".copilot")
	}
	return []string{filepath.Join(root, "session-state"), filepath.Join(root, "history-session-state")}
}
