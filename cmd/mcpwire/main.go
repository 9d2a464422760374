// Command mcpwire talks to Model Context Protocol servers from the shell:
// list and call tools, read resources, get prompts. The code lives in
// internal/cli (cmd/mcpwire/internal/cli); see docs/cli.md.
package main

import (
	"os"

	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:]))
}
