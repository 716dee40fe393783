//go:build !linux

package cli

import "os"

func widenPipe(*os.File) {}
