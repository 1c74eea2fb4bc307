package main

import (
	"fmt"
	"net/url"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/tools"
	"github.com/urfave/cli/v2"
)

// agentFlags configure run_browser_agent: the model it asks and its limits.
func agentFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "llm-base-url", EnvVars: env("LLM_BASE_URL"), Usage: "OpenAI-compatible API root for run_browser_agent, custom jobs and the fields extraction rules miss, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (default: the MCP client's own model through sampling)"},
		&cli.StringFlag{Name: "llm-model", EnvVars: env("LLM_MODEL"), Usage: "model `NAME` to ask at --llm-base-url"},
		&cli.StringFlag{Name: "llm-api-key", EnvVars: env("LLM_API_KEY"), Usage: "API `KEY` for --llm-base-url (sent as a bearer token; prefer the variable)"},
		&cli.DurationFlag{Name: "llm-timeout", EnvVars: env("LLM_TIMEOUT"), Value: 2 * time.Minute, Usage: "abandon (and retry) a model call after this long; also bounds a wait for the client's model"},
		&cli.IntFlag{Name: "agent-max-steps", EnvVars: env("AGENT_MAX_STEPS"), Value: 30, Usage: "model calls a run_browser_agent run may make"},
		&cli.IntFlag{Name: "agent-max-actions", EnvVars: env("AGENT_MAX_ACTIONS"), Value: 10, Usage: "actions the model may chain in one step"},
		&cli.IntFlag{Name: "agent-max-failures", EnvVars: env("AGENT_MAX_FAILURES"), Value: 3, Usage: "failed steps in a row that end a run"},
		&cli.BoolFlag{Name: "agent-vision", EnvVars: env("AGENT_VISION"), Value: true, Usage: "send the model an annotated screenshot each step (--agent-vision=false for text-only models)"},
		&cli.StringFlag{Name: "agent-run-dir", EnvVars: env("AGENT_RUN_DIR"), Usage: "`DIR` where each run leaves its record and HTML report (default " + agentloop.DefaultRunDir() + ")"},
	}
}

// agentConfigFrom reads the agent flags; commands without them get the
// defaults.
func agentConfigFrom(c *cli.Context) (tools.AgentConfig, error) {
	cfg := tools.AgentConfig{
		LLM: agentloop.OpenAI{BaseURL: c.String("llm-base-url"), Model: c.String("llm-model"),
			APIKey: c.String("llm-api-key"), Timeout: c.Duration("llm-timeout")},
		Loop: agentloop.Config{MaxSteps: c.Int("agent-max-steps"), MaxActions: c.Int("agent-max-actions"),
			MaxFailures: c.Int("agent-max-failures"), Vision: c.Bool("agent-vision"), RunDir: c.String("agent-run-dir")},
	}
	if u := cfg.LLM.BaseURL; u != "" {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return cfg, fmt.Errorf("--llm-base-url %q: give an http(s) URL such as http://127.0.0.1:11434/v1", u)
		}
	}
	for _, f := range []string{"agent-max-steps", "agent-max-actions", "agent-max-failures"} {
		if c.Int(f) < 0 {
			return cfg, fmt.Errorf("--%s must be a positive number (0 means the default)", f)
		}
	}
	return cfg, nil
}
