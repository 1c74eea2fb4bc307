// Command cdpmcp is an MCP server that gives AI clients a real browser through
// the Chrome DevTools Protocol. main only parses flags into a config and wires the
// packages together.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/cdpmcp/cdpmcp/tools"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	registerFeatures()
	tools.Version = version
	// SIGINT and SIGTERM cancel the command's context. They stay caught until the
	// command has returned, so a second signal cannot cut the browser's shutdown
	// short and leave it running with its temporary profile: it only ends the
	// running jobs' grace (secondSignal).
	ctx, stop := notifySignals()
	app := newApp()
	endProfile := startProfile()
	args, err := hoistFlags(app, os.Args)
	if err == nil {
		err = app.RunContext(ctx, args)
	}
	endProfile()
	stop()
	if err != nil {
		// Errors that name the command already start with "cdpmcp".
		if msg := err.Error(); strings.HasPrefix(msg, "cdpmcp") {
			fmt.Fprintln(os.Stderr, msg)
		} else {
			fmt.Fprintln(os.Stderr, "cdpmcp:", msg)
		}
		os.Exit(1)
	}
}
