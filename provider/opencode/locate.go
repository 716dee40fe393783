package opencode

import (
	"path/filepath"

	"github.com/agt-project/agt/provider/internal/locate"
)

// Logs is where OpenCode keeps its sessions, under its data folder
// ($XDG_DATA_HOME/opencode, else ~/.local/share/opencode): the SQLite
// database (v1.2 on; other release channels write opencode-<channel>.db)
// and the JSON storage/ of older versions. The data folder is not given
// whole: it also holds snapshot/, git repositories of the user's files.
func (Provider) Logs(getenv func(string) string, home string) []string {
	data := locate.DataHome(getenv, home)
	if data == "" {
		return nil
	}
	root := filepath.Join(data, "opencode")
	out := []string{filepath.Join(root, "opencode.db")}
	out = append(out, locate.Glob(root, "opencode-*.db")...)
	return append(out, filepath.Join(root, "storage"))
}
