package amp

import (
	"path/filepath"

	"github.com/agt-project/agt/provider/internal/locate"
)

// Logs is where Amp kept its threads on disk: amp/threads under
// XDG_DATA_HOME, else ~/.local/share (newer Amp keeps threads on its
// servers; `amp threads export` prints the same document).
func (Provider) Logs(getenv func(string) string, home string) []string {
	root := locate.DataHome(getenv, home)
	if root == "" {
		return nil
	}
	return []string{filepath.Join(root, "amp", "threads")}
}
