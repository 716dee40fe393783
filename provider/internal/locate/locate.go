// Package locate helps providers list the folders their agents write logs
// to.
package locate

import "path/filepath"

// Glob returns the paths under dir matching pattern; dir is taken as it
// is, its pattern characters (a folder named "a[1]") included.
func Glob(dir, pattern string) []string {
	esc := make([]byte, 0, len(dir))
	for i := 0; i < len(dir); i++ {
		if c := dir[i]; c == '*' || c == '?' || c == '[' || c == '\\' {
			esc = append(esc, '\\')
		}
		esc = append(esc, dir[i])
	}
	m, _ := filepath.Glob(filepath.Join(string(esc), pattern))
	return m
}

// DataHome is the user's data folder of the XDG convention: $XDG_DATA_HOME,
// else ~/.local/share; "" when neither is known.
func DataHome(getenv func(string) string, home string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return d
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share")
}
