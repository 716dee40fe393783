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
