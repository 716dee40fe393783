package cli

import (
	"io"
	"os"
	"strconv"
)

// lineWidth is the width summary lines are cut to on w: 0 (lines whole)
// when w is not a terminal; on a terminal, $COLUMNS when it is set to a
// width, else the terminal's own width, else 80.
func lineWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(w) {
		return 0
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if n := termWidth(f); n > 0 {
		return n
	}
	return 80
}
