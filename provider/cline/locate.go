package cline

import (
	"path/filepath"

	"github.com/agt-project/agt/provider/internal/locate"
)

// editors are the user-data folders of the editors that host the
// extension: VS Code (and its Insiders build), Cursor, VSCodium and
// Windsurf, under the user's configuration folder.
var editors = []string{"Code", "Code - Insiders", "Cursor", "VSCodium", "Windsurf"}

// Logs is where Cline keeps its sessions and the extensions their tasks.
// The SDK's sessions: CLINE_SESSION_DATA_DIR when set, else sessions/
// under CLINE_DATA_DIR, else data/sessions under CLINE_DIR, else under
// ~/.cline. The tasks: tasks/ in the global storage folder of each
// extension (Cline, Roo Code, Kilo Code) of each editor, under
// $XDG_CONFIG_HOME (else ~/.config), ~/Library/Application Support (macOS)
// and %APPDATA% (Windows).
func (Provider) Logs(getenv func(string) string, home string) []string {
	return append(sessionLogs(getenv, home), taskLogs(getenv, home)...)
}

func sessionLogs(getenv func(string) string, home string) []string {
	if v := getenv("CLINE_SESSION_DATA_DIR"); v != "" {
		return []string{v}
	}
	if v := getenv("CLINE_DATA_DIR"); v != "" {
		return []string{filepath.Join(v, "sessions")}
	}
	dir := getenv("CLINE_DIR")
	if dir == "" {
		if home == "" {
			return nil
		}
		dir = filepath.Join(home, ".cline")
	}
	return []string{filepath.Join(dir, "data", "sessions")}
}

// taskLogs lists the extensions' task folders.
func taskLogs(getenv func(string) string, home string) []string {
	bases := locate.ConfigDirs(getenv, home)
	ids := []string{"saoudrizwan.claude-dev", "rooveterinaryinc.roo-cline", "kilocode.kilo-code"}
	var out []string
	for _, b := range bases {
		for _, e := range editors {
			for _, id := range ids {
				out = append(out, filepath.Join(b, e, "User", "globalStorage", id, "tasks"))
			}
		}
	}
	return out
}
