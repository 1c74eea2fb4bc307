package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/safefs"
	"github.com/cdpmcp/cdpmcp/learned"
	"github.com/cdpmcp/cdpmcp/learned/playwright"
	"github.com/cdpmcp/cdpmcp/learned/replay"
	"github.com/urfave/cli/v2"
)

// Exit codes of cdpmcp script run.
const (
	exitStepFailed = 1 // a step did not go as learned (the report says which)
	exitCannotRun  = 2 // the script, a param or the browser was not usable
)

// repairSteps bounds the model calls of the agent's redo of one step.
const repairSteps = 6

func scriptCommand() *cli.Command {
	return &cli.Command{
		Name:  "script",
		Usage: "replay a learned script.json without a model, or export it as a Playwright test",
		Subcommands: []*cli.Command{
			{
				Name:      "run",
				Usage:     "replay a learned script in a browser (launched, or --cdp-endpoint) and print its report as JSON; exit 1 when a step fails, 2 when it cannot run",
				ArgsUsage: "FILE",
				Flags: append(append([]cli.Flag{
					&cli.StringSliceFlag{Name: "param", Usage: "a param's value, `NAME=VALUE` (repeatable)"},
					&cli.StringSliceFlag{Name: "param-env", Usage: "a param's value from the environment, `NAME=VARIABLE` (repeatable; for secrets: never on the command line)"},
					&cli.StringFlag{Name: "url", Usage: "replay on another copy of the site: the script starts at `URL` and its addresses move with it"},
					&cli.StringFlag{Name: "out", Usage: "where to write the script updated by the agent's redone steps (default: FILE with .updated.json)"},
					logLevelFlag(),
					secretEnvFlag(),
				}, policyFlags()...), append(browserFlags(), agentFlags()...)...),
				Action: scriptRun,
			},
			{
				Name:      "export",
				Usage:     "write a learned script as a Playwright test (getByRole/getByLabel) to stdout or --out",
				ArgsUsage: "FILE",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "format", Value: "playwright", Usage: "the test's `FORMAT`: playwright"},
					&cli.StringFlag{Name: "out", Usage: "write the test to `FILE` (e.g. tests/learned.spec.ts)"},
				},
				Action: scriptExport,
			},
		},
	}
}

// cannotRun ends the command with exitCannotRun.
func cannotRun(format string, args ...any) error {
	return cli.Exit("cdpmcp script run: "+fmt.Sprintf(format, args...), exitCannotRun)
}

func scriptRun(c *cli.Context) error {
	if c.NArg() != 1 {
		return cannotRun("give one script file, e.g. cdpmcp script run script.json --param-env password=SHOP_PASSWORD")
	}
	file := c.Args().First()
	cfg, err := configFrom(c)
	if err != nil {
		return cannotRun("%v", err)
	}
	s, err := learned.Read(file)
	if err != nil {
		return cannotRun("%v", err)
	}
	given, err := scriptParams(c.StringSlice("param"), c.StringSlice("param-env"))
	if err != nil {
		return cannotRun("%v", err)
	}
	values, err := s.Bind(given)
	if err != nil {
		return cannotRun("%v (--param NAME=VALUE, --param-env NAME=VARIABLE)", err)
	}
	for _, v := range s.Secrets(values) {
		cfg.secrets.Add(v) // never in the report, the logs or the updated script
	}
	if u := c.String("url"); u != "" {
		if err := s.Rebase(u); err != nil {
			return cannotRun("--url: %v", err)
		}
	}
	endOrphans()
	mgr := cdpclient.NewManager(cfg.browser)
	defer mgr.Close()
	b, err := mgr.Browser(c.Context)
	if err != nil {
		return cannotRun("%s", cdpclient.Classify(err).Msg)
	}
	bc := b.Default()
	env := &actions.Env{Context: func(context.Context) (*cdpclient.BrowserContext, error) { return bc, nil },
		ReadOnly: cfg.tools.ReadOnly, Origins: cfg.tools.Origins, Secrets: cfg.secrets, NavTimeout: cfg.tools.Timeout}
	rep, err := replay.Run(c.Context, env, s, values, replay.Options{Repair: repairWith(env, cfg)})
	if err != nil {
		return cannotRun("%v", err)
	}
	out := struct {
		*replay.Report
		Script string `json:"script,omitempty"`
	}{Report: rep}
	if rep.Changed {
		path := c.String("out")
		if path == "" {
			path = strings.TrimSuffix(file, ".json") + ".updated.json"
		}
		b, err := rep.Script.Encode(cfg.secrets.Redact)
		if err == nil {
			err = safefs.WriteUserFile(path, b, 0o600)
		}
		if err != nil {
			return cannotRun("the updated script: %v", err)
		}
		out.Script = path
	}
	j, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintln(c.App.Writer, cfg.secrets.Redact(string(j)))
	if !rep.OK {
		return cli.Exit("cdpmcp script run: "+cfg.secrets.Redact(rep.Failed.Error()), exitStepFailed)
	}
	return nil
}

// repairWith hands a step that no longer matches to the agent when a model
// is configured (--llm-base-url); nil otherwise.
func repairWith(env *actions.Env, cfg config) func(context.Context, string) (*replay.Repaired, error) {
	agent := cfg.tools.Agent
	if agent.LLM.BaseURL == "" {
		return nil
	}
	model := agent.LLM
	loop := agent.Loop
	if loop.MaxSteps <= 0 || loop.MaxSteps > repairSteps {
		loop.MaxSteps = repairSteps
	}
	return func(ctx context.Context, task string) (*replay.Repaired, error) {
		out, err := agentloop.Run(ctx, env, &model, loop, agentloop.Task{Task: task})
		if err != nil {
			return nil, err
		}
		return &replay.Repaired{Script: out.Learned, OK: out.Success, Summary: out.Result, ModelCalls: out.Steps}, nil
	}
}

// scriptParams reads --param NAME=VALUE and --param-env NAME=VARIABLE.
func scriptParams(pairs, fromEnv []string) (map[string]string, error) {
	out := map[string]string{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--param %q: give NAME=VALUE", p)
		}
		out[k] = v
	}
	for _, p := range fromEnv {
		k, name, ok := strings.Cut(p, "=")
		if !ok || k == "" || name == "" {
			return nil, fmt.Errorf("--param-env %q: give NAME=VARIABLE", p)
		}
		v, set := os.LookupEnv(name)
		if !set {
			return nil, fmt.Errorf("--param-env %s: the environment has no %s", p, name)
		}
		out[k] = v
	}
	return out, nil
}

func scriptExport(c *cli.Context) error {
	if c.NArg() != 1 {
		return fmt.Errorf("cdpmcp script export: give one script file, e.g. cdpmcp script export --format playwright script.json")
	}
	if f := c.String("format"); f != "playwright" {
		return fmt.Errorf("cdpmcp script export: --format %q: the format is playwright", f)
	}
	s, err := learned.Read(c.Args().First())
	if err != nil {
		return fmt.Errorf("cdpmcp script export: %w", err)
	}
	b, err := playwright.Export(s)
	if err != nil {
		return fmt.Errorf("cdpmcp script export: %w", err)
	}
	if out := c.String("out"); out != "" {
		if err := safefs.WriteUserFile(out, b, 0o644); err != nil {
			return fmt.Errorf("cdpmcp script export: %w", err)
		}
		fmt.Fprintf(c.App.ErrWriter, "wrote %s: run it with npx playwright test (set PARAM_<NAME> for its secrets)\n", out)
		return nil
	}
	_, err = c.App.Writer.Write(b)
	return err
}
