package kiro

import (
	"path/filepath"

	"github.com/agt-project/agt/provider/internal/locate"
)

// Logs is where Kiro CLI writes its sessions: ~/.kiro/sessions, which
// holds the V2 engine's cli/<id>.jsonl (the CLI's sessions_dir; it reads
// no variable for users) and the KAS engine's <hash>/<id>/messages.jsonl;
// and the legacy chat's database, data.sqlite3 in its data folder,
// kiro-cli and (Amazon Q Developer CLI) amazon-q in the platform's local
// data folder ($XDG_DATA_HOME, else ~/.local/share; ~/Library/Application
// Support on macOS; %LOCALAPPDATA% on Windows): the database itself, as a
// folder walk reads only databases named *.db.
func (Provider) Logs(getenv func(string) string, home string) []string {
	var out []string
	if home != "" {
		out = append(out, filepath.Join(home, ".kiro", "sessions"))
	}
	for _, b := range locate.DataDirs(getenv, home) {
		for _, app := range []string{"kiro-cli", "amazon-q"} {
			out = append(out, filepath.Join(b, app, "data.sqlite3"))
		}
	}
	return out
}
