// Command packages makes cdpmcp's install packages from a GoReleaser dist
// folder: the npm packages (dist/npm/*.tgz). `make packages` runs it after
// `make release-snapshot`; a release runs it after `goreleaser release`.
//
//	go run ./packaging/cmd/packages [-dist dist] [-npm-tools bin/npm-tools] [KIND...]
//
// KIND is npm; with none it makes them all. Each file
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
var allKinds = []string{"npm"}

func main() {
	distDir := flag.String("dist", "dist", "GoReleaser's dist folder; the packages are written into it")
	npmTools := flag.String("npm-tools", "bin/npm-tools", "where npm tools the packages need are installed")
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
