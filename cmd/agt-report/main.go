// Command agt-report reports the token usage and cost of AI coding agents'
// sessions per day, week, month, session, model, provider, project or block.
package main

import (
	"os"

	"github.com/agt-project/agt/cmd/internal/cli"
)

func main() { os.Exit(cli.Main(cli.Report)) }
