// Command agt-normalize gives agt.event/1 events canonical tool calls and costs.
package main

import (
	"os"

	"github.com/agt-project/agt/cmd/internal/cli"
)

func main() { os.Exit(cli.Main(cli.Normalize)) }
