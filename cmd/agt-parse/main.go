// Command agt-parse reads AI coding agent logs and writes agt.event/1 JSONL.
package main

import (
	"os"

	"github.com/agt-project/agt/cmd/internal/cli"
)

func main() { os.Exit(cli.Main(cli.Parse)) }
