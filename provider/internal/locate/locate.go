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

// ConfigDirs are the user's configuration folders, where editors keep
// their extensions' storage: $XDG_CONFIG_HOME (else ~/.config),
// ~/Library/Application Support (macOS) and %APPDATA% (Windows), those
// known.
func ConfigDirs(getenv func(string) string, home string) []string {
	first := getenv("XDG_CONFIG_HOME")
	if first == "" && home != "" {
		first = filepath.Join(home, ".config")
	}
	return platformDirs(first, getenv("APPDATA"), home)
}

// DataDirs are the user's local data folders: DataHome, ~/Library/
// Application Support (macOS) and %LOCALAPPDATA% (Windows), those known.
func DataDirs(getenv func(string) string, home string) []string {
	return platformDirs(DataHome(getenv, home), getenv("LOCALAPPDATA"), home)
}

// platformDirs are unix, macOS's Application Support under home, and
// windows, leaving out those not known ("").
func platformDirs(unix, windows, home string) []string {
	var dirs []string
	if unix != "" {
		dirs = append(dirs, unix)
	}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, "Library", "Application Support"))
	}
	if windows != "" {
		dirs = append(dirs, windows)
	}
	return dirs
}
