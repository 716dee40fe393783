package goose

import (
	"path/filepath"

	"github.com/agt-project/agt/provider/internal/locate"
)

// Logs is where Goose keeps its sessions: sessions/ in its data folder
// ($XDG_DATA_HOME/goose, else ~/.local/share/goose; on Windows
// %APPDATA%\Block\goose\data), which holds sessions.db and the session
// files of earlier versions, and ~/.config/goose/sessions, where the
// first versions wrote theirs.
func (Provider) Logs(getenv func(string) string, home string) []string {
	var out []string
	if data := locate.DataHome(getenv, home); data != "" {
		out = append(out, filepath.Join(data, "goose", "sessions"))
	}
	if v := getenv("APPDATA"); v != "" {
		out = append(out, filepath.Join(v, "Block", "goose", "data", "sessions"))
	}
	if home != "" {
		out = append(out, filepath.Join(home, ".config", "goose", "sessions"))
	}
	return out
}
