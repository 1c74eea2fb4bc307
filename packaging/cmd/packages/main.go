// Command packages makes cdpmcp's install packages from a GoReleaser dist
// folder: the npm packages (dist/npm/*.tgz), the MCP bundles (dist/*.mcpb) and
// server.json (dist/server.json). `make packages` runs it after
// `make release-snapshot`; a release runs it after `goreleaser release`.
//
//	go run ./packaging/cmd/packages [-dist dist] [-npm-tools bin/npm-tools] [KIND...]
//
// KIND is npm, mcpb or server-json; with none it makes them all. Each file
// made is printed with its size.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/cdpmcp/cdpmcp/packaging"
)

// allKinds are the kinds of package the command makes, in order.
var allKinds = []string{"npm", "mcpb", "server-json"}

func main() {
	distDir := flag.String("dist", "dist", "GoReleaser's dist folder; the packages are written into it")
	npmTools := flag.String("npm-tools", "bin/npm-tools", "where the mcpb CLI is installed (with npm ci, once)")
	flag.Parse()
	kinds := flag.Args()
	if len(kinds) == 0 {
		kinds = allKinds
	}
	for _, k := range kinds {
		if !slices.Contains(allKinds, k) {
			fmt.Fprintf(os.Stderr, "packages: unknown kind %q (%s)\n", k, strings.Join(allKinds, ", "))
			os.Exit(2)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *distDir, *npmTools, kinds); err != nil {
		fmt.Fprintln(os.Stderr, "packages:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, distDir, npmTools string, kinds []string) error {
	d, err := packaging.ReadDist(distDir)
	if err != nil {
		return err
	}
	var made []string
	for _, kind := range kinds {
		var files []string
		switch kind {
		case "npm":
			files, err = packaging.NPM(ctx, d, d.Dir)
		case "mcpb":
			files, err = bundles(ctx, d, npmTools)
		case "server-json":
			var path string
			path, err = packaging.WriteServerJSON(d, d.Dir)
			files = []string{path}
		}
		if err != nil {
			return err
		}
		made = append(made, files...)
	}
	for _, path := range made {
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		fmt.Printf("%8.1f MB  %s\n", float64(fi.Size())/1e6, path)
	}
	return nil
}

// bundles makes the MCP bundles, which list the tools that the binary for
// this machine offers.
func bundles(ctx context.Context, d *packaging.Dist, npmTools string) ([]string, error) {
	host, err := d.Host()
	if err != nil {
		return nil, fmt.Errorf("the bundles list the tools the binary for this machine offers: %w", err)
	}
	tools, err := packaging.ToolCatalogue(ctx, host.Path)
	if err != nil {
		return nil, err
	}
	mcpb, err := packaging.MCPBCLI(ctx, npmTools)
	if err != nil {
		return nil, err
	}
	return packaging.Bundles(ctx, d, d.Dir, tools, mcpb)
}
