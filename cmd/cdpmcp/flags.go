package main

import (
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/tools"
	"github.com/urfave/cli/v2"
)

// config is everything the flags and environment say.
type config struct {
	browser   cdpclient.Options
	tools     tools.Config
	http      string
	authToken string
	logLevel  string
	trace     string
	jobs      jobsConfig
}

func env(name string) []string { return []string{"CDPMCP_" + name} }

func serverFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "http", EnvVars: env("HTTP"), Usage: "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8931; :8931 means 127.0.0.1) instead of stdio"},
		&cli.StringFlag{Name: "auth-token", EnvVars: env("AUTH_TOKEN"), Usage: "over HTTP, require `TOKEN` as \"Authorization: Bearer TOKEN\" (needed to listen beyond 127.0.0.1)"},
		logLevelFlag(),
		&cli.StringFlag{Name: "trace", EnvVars: env("TRACE"), Usage: "write every CDP message and tool call to `FILE` as JSON lines"},
	}
}

func logLevelFlag() cli.Flag {
	return &cli.StringFlag{Name: "log-level", EnvVars: env("LOG_LEVEL"), Value: "info", Usage: "debug, info, warn or error (logs go to stderr)"}
}

func policyFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "read-only", EnvVars: env("READ_ONLY"), Usage: "audit mode: no clicking or typing; evaluate refuses side effects"},
		&cli.StringFlag{Name: "tools", EnvVars: env("TOOLS"), Usage: "offer only these tools (comma-separated `NAMES`)"},
		&cli.DurationFlag{Name: "timeout", EnvVars: env("TIMEOUT"), Value: 30 * time.Second, Usage: "deadline of a tool call that names none"},
		&cli.StringFlag{Name: "allowed-origins", EnvVars: env("ALLOWED_ORIGINS"), Usage: "let the browser request only these origins (comma-separated `PATTERNS` like https://*.example.com, http://127.0.0.1:*)"},
		&cli.StringFlag{Name: "blocked-origins", EnvVars: env("BLOCKED_ORIGINS"), Usage: "never let the browser request these origins (comma-separated `PATTERNS`)"},
		&cli.BoolFlag{Name: "allow-file-urls", EnvVars: env("ALLOW_FILE_URLS"), Usage: "allow opening file: URLs"},
		&cli.BoolFlag{Name: "allow-browser-urls", EnvVars: env("ALLOW_BROWSER_URLS"), Usage: "allow opening chrome:, view-source: and other browser pages"},
	}
}

func browserFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "headless", EnvVars: env("HEADLESS"), Usage: "run the browser without a window (automatic when there is no display)"},
		&cli.StringFlag{Name: "browser-path", EnvVars: env("BROWSER_PATH"), Usage: "Chromium or Chrome executable (default: chromium, chromium-browser, google-chrome on PATH)"},
		&cli.StringFlag{Name: "user-data-dir", EnvVars: env("USER_DATA_DIR"), Usage: "browser profile `DIR` to use and keep (default: a fresh temporary one, removed on exit)"},
		&cli.StringSliceFlag{Name: "browser-arg", EnvVars: env("BROWSER_ARG"), Usage: "extra Chromium `FLAG` (repeatable; the variable holds one)"},
		&cli.StringFlag{Name: "cdp-endpoint", EnvVars: env("CDP_ENDPOINT"), Usage: "attach to a running browser at `URL` (http://127.0.0.1:9222 or ws://…) instead of launching one"},
		&cli.BoolFlag{Name: "allow-remote-cdp", EnvVars: env("ALLOW_REMOTE_CDP"), Usage: "allow a --cdp-endpoint that is not on this machine"},
		&cli.BoolFlag{Name: "allow-unsafe-browser-args", EnvVars: env("ALLOW_UNSAFE_BROWSER_ARGS"), Usage: "allow --browser-arg flags that weaken web security or take over the profile or debugging port"},
	}
}

func configFrom(c *cli.Context) (config, error) {
	cfg := config{
		http:      c.String("http"),
		authToken: c.String("auth-token"),
		logLevel:  c.String("log-level"),
		trace:     c.String("trace"),
		tools: tools.Config{
			ReadOnly:        c.Bool("read-only"),
			Tools:           splitList(c.String("tools")),
			Timeout:         c.Duration("timeout"),
			IsolateSessions: c.String("http") != "",
		},
		browser: cdpclient.Options{
			Launch: cdpclient.LaunchOptions{
				Path:        c.String("browser-path"),
				UserDataDir: c.String("user-data-dir"),
				Headless:    c.Bool("headless"),
				Args:        c.StringSlice("browser-arg"),
			},
			Endpoint:    c.String("cdp-endpoint"),
			AllowRemote: c.Bool("allow-remote-cdp"),
		},
	}
	if err := setupLogging(cfg.logLevel); err != nil {
		return cfg, err
	}
	policy, err := origins.NewList(splitList(c.String("allowed-origins")), splitList(c.String("blocked-origins")))
	if err != nil {
		return cfg, err
	}
	policy.AllowFile, policy.AllowBrowser = c.Bool("allow-file-urls"), c.Bool("allow-browser-urls")
	cfg.browser.Origins, cfg.tools.Origins = policy, policy
	if bad := cdpclient.UnsafeArgs(cfg.browser.Launch.Args); len(bad) > 0 && !c.Bool("allow-unsafe-browser-args") {
		return cfg, fmt.Errorf("--browser-arg %s weakens the browser's security or takes over what cdpmcp manages; pass --allow-unsafe-browser-args to use it anyway", strings.Join(bad, " "))
	}
	if len(cfg.tools.Tools) > 0 {
		known := tools.ToolNames()
		for _, name := range cfg.tools.Tools {
			if !slices.Contains(known, name) {
				return cfg, fmt.Errorf("--tools: unknown tool %q (tools: %s)", name, strings.Join(known, ", "))
			}
		}
	}
	return cfg, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// setupLogging sends slog output to stderr: stdout is the MCP channel.
func setupLogging(level string) error {
	var l slog.Level
	if level == "" {
		level = "info"
	}
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l})))
	return nil
}
