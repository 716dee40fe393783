package gemini

import (
	"path/filepath"

	"github.com/agt-project/agt/provider/internal/locate"
)

// Logs is where Gemini CLI writes its chats: .gemini/tmp/<project>/chats
// under its home, GEMINI_CLI_HOME when set (it replaces the user's home
// folder), else the user's home. Only the chats folders are given: a
// project's folder also holds checkpoints (git repositories when
// checkpointing is on) and logs.json (prompts only).
func (Provider) Logs(getenv func(string) string, home string) []string {
	if v := getenv("GEMINI_CLI_HOME"); v != "" {
		home = v
	}
	if home == "" {
		return nil
	}
	return locate.Glob(filepath.Join(home, ".gemini", "tmp"), filepath.Join("*", "chats"))
}
