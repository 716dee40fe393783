package claude

import (
	"os"
	"path/filepath"
	"strings"
)

// Logs is where Claude Code writes its sessions: projects/ under its
// configuration folder, CLAUDE_CONFIG_DIR when set, else ~/.config/claude
// (newer builds) and ~/.claude. A CLAUDE_CONFIG_DIR that is no folder but
// holds commas is read as a list of folders (as ccusage reads it).
func (Provider) Logs(getenv func(string) string, home string) []string {
	var roots []string
	if v := getenv("CLAUDE_CONFIG_DIR"); v != "" {
		roots = []string{v}
		if st, err := os.Stat(v); (err != nil || !st.IsDir()) && strings.Contains(v, ",") {
			roots = nil
			for _, r := range strings.Split(v, ",") {
				if r = strings.TrimSpace(r); r != "" {
					roots = append(roots, r)
				}
			}
		}
	} else if home != "" {
		roots = []string{filepath.Join(home, ".config", "claude"), filepath.Join(home, ".claude")}
	}
	var out []string
	for _, r := range roots {
		out = append(out, filepath.Join(r, "projects"))
	}
	return out
}
