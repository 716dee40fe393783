// Command agt-transcript consolidates sessions into agt.transcript/1 lines or files.
package main

import (
	"os"

	"github.com/agt-project/agt/cmd/internal/cli"
)

func main() { os.Exit(cli.Main(cli.Transcript)) }
