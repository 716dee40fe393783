package crush

import (
	"os"
	"path/filepath"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/locate"
)

// Logs is where Crush keeps its databases: one per project, crush.db in
// the project's data folder, each listed in projects.json beside Crush's
// global data (CRUSH_GLOBAL_DATA, else $XDG_DATA_HOME/crush, else
// ~/.local/share/crush).
func (Provider) Logs(getenv func(string) string, home string) []string {
	root := getenv("CRUSH_GLOBAL_DATA")
	if root == "" {
		data := locate.DataHome(getenv, home)
		if data == "" {
			return nil
		}
		root = filepath.Join(data, "crush")
	}
	b, err := os.ReadFile(filepath.Join(root, "projects.json"))
	if err != nil {
		return nil
	}
	var list struct {
		Projects []struct {
			DataDir string `json:"data_dir"`
		} `json:"projects"`
	}
	if agt.API.Unmarshal(b, &list) != nil {
		return nil
	}
	var out []string
	for _, p := range list.Projects {
		if p.DataDir != "" {
			out = append(out, filepath.Join(p.DataDir, "crush.db"))
		}
	}
	return out
}
