// Command agt-streamlog writes a stream log of events: raw JSONL or readable lines.
package main

import (
	"os"

	"github.com/agt-project/agt/cmd/internal/cli"
)

func main() { os.Exit(cli.Main(cli.Streamlog)) }
