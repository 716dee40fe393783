package pi

import "path/filepath"

// Logs is where Pi writes its sessions: PI_CODING_AGENT_SESSION_DIR when
// set, else sessions/ under PI_CODING_AGENT_DIR, else under ~/.pi/agent.
func (Provider) Logs(getenv func(string) string, home string) []string {
	if v := getenv("PI_CODING_AGENT_SESSION_DIR"); v != "" {
		return []string{v}
	}
	root := getenv("PI_CODING_AGENT_DIR")
	if root == "" {
		if home == "" {
			return nil
		}
		root = filepath.Join(home, ".pi", "agent")
	}
	return []string{filepath.Join(root, "sessions")}
}
