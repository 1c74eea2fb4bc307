// Command cdpmcp is an MCP server that gives AI clients a real browser through
// the Chrome DevTools Protocol. main only parses flags into a config and wires the
// packages together.
package main

import (
	"fmt"
	"os"

	"github.com/cdpmcp/cdpmcp/tools"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	tools.Version = version
	if err := newApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "cdpmcp:", err)
		os.Exit(1)
	}
}
