//go:build !unix

package cli

import (
	"io"
	"os"
)

// termWidth is the number of columns of the terminal f: unknown here.
func termWidth(*os.File) int { return 0 }

// watchWidth has no resize signal to watch here: lines keep the width they
// started with.
func watchWidth(w io.Writer, set func(int)) func() { return func() {} }
