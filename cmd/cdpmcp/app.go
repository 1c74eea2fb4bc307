package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

func newApp() *cli.App {
	app := &cli.App{
		Name:                      "cdpmcp",
		Usage:                     "an MCP server that drives Chromium through the Chrome DevTools Protocol",
		Version:                   version,
		DisableSliceFlagSeparator: true,
		OnUsageError:              usageError,
		Action:                    rootAction,
		Commands: []*cli.Command{
			{
				Name:  "serve",
				Usage: "serve MCP over stdio (default) or streamable HTTP (--http)",
				Flags: append(append(append(append(append(serverFlags(), policyFlags()...), browserFlags()...), agentFlags()...), jobFlags()...), handoffFlags()...),
				Action: func(c *cli.Context) error {
					cfg, err := configFrom(c)
					if err != nil {
						return err
					}
					if cfg.jobs, err = jobsConfigFrom(c); err != nil {
						return err
					}
					if cfg.handoff, err = handoffConfigFrom(c); err != nil {
						return err
					}
					return serve(c.Context, cfg)
				},
			},
			{
				Name:      "call",
				Usage:     "run one tool from the shell and print its result",
				ArgsUsage: "TOOL ['{json arguments}']",
				Flags: append(append([]cli.Flag{
					&cli.StringFlag{Name: "out", Usage: "write an image result to this file"},
					logLevelFlag(),
					secretEnvFlag(),
				}, policyFlags()...), append(browserFlags(), agentFlags()...)...),
				Action: func(c *cli.Context) error {
					if c.NArg() < 1 || c.NArg() > 2 {
						return fmt.Errorf("usage: cdpmcp call TOOL '{\"arg\":\"value\"}'")
					}
					cfg, err := configFrom(c)
					if err != nil {
						return err
					}
					return call(c.Context, cfg, c.Args().Get(0), c.Args().Get(1), c.String("out"))
				},
			},
			{
				Name:  "tools",
				Usage: "print the tool catalogue",
				Flags: append([]cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the tools/list JSON"}}, policyFlags()...),
				Action: func(c *cli.Context) error {
					cfg, err := configFrom(c)
					if err != nil {
						return err
					}
					cfg.tools.Jobs = notServing // list the job tools too
					return listTools(c.Context, cfg, c.App.Writer, c.Bool("json"))
				},
			},
			jobsCommand(),
			workerCommand(),
			scriptCommand(),
			{
				Name:  "version",
				Usage: "print the version",
				Action: func(c *cli.Context) error {
					_, err := fmt.Fprintln(c.App.Writer, "cdpmcp", version)
					return err
				},
			},
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = usageError
	}
	return app
}
