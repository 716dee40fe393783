//go:build !unix

package cli

import "os"

// termWidth is the number of columns of the terminal f: unknown here.
func termWidth(*os.File) int { return 0 }
