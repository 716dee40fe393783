package codex

import "path/filepath"

// Logs is where Codex writes its rollouts: sessions/ and archived_sessions/
// under CODEX_HOME, else ~/.codex.
func (Provider) Logs(getenv func(string) string, home string) []string {
	root := getenv("CODEX_HOME")
	if root == "" {
		if home == "" {
			return nil
		}
		root = filepath.Join(home, ".codex")
	}
	return []string{filepath.Join(root, "sessions"), filepath.Join(root, "archived_sessions")}
}
