package main

import (
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/actions"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/egress"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/liveview"
	"github.com/cdpmcp/cdpmcp/tools"
	"github.com/urfave/cli/v2"
)

// config is everything the flags and environment say.
type config struct {
	browser cdpclient.Options
	tools   tools.Config
	http    string
	// principals are the bearer tokens HTTP requests need, each with its
	// tenant (authtokens.go).
	principals principals
	logLevel   string
	trace      string
	sessions   sessionLimits
	requests   requestLimits
	// secrets are redacted from results, logs and traces: what goes into
	// password fields, and the values of --secret-env.
	secrets *secrets.Registry
	jobs    jobsConfig
	handoff handoffConfig
	// live is the live view, made by serve (nil elsewhere).
	live *liveview.Server
}

func env(name string) []string { return []string{"CDPMCP_" + name} }

func serverFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "http", EnvVars: env("HTTP"), Usage: "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8931; :8931 means 127.0.0.1) instead of stdio"},
		&cli.StringSliceFlag{Name: "auth-token", EnvVars: env("AUTH_TOKEN"), Usage: "over HTTP, require `TOKEN` as \"Authorization: Bearer TOKEN\" (needed to listen beyond 127.0.0.1); NAME=TOKEN gives the token a tenant of its own: its jobs, profiles and artifacts are its alone (repeatable; the variable holds one)"},
		&cli.StringFlag{Name: "auth-tokens-file", EnvVars: env("AUTH_TOKENS_FILE"), Usage: "over HTTP, take the named tokens in `FILE` too: one \"NAME TOKEN\" a line, each its own tenant (the file must be yours, mode 600)"},
		&cli.DurationFlag{Name: "session-idle-timeout", EnvVars: env("SESSION_IDLE_TIMEOUT"), Value: 30 * time.Minute, Usage: "over HTTP, end a session (and close its tabs) after this long without a request; 0 never"},
		&cli.IntFlag{Name: "max-sessions", EnvVars: env("MAX_SESSIONS"), Value: 32, Usage: "over HTTP, the most sessions open at once (each has its own browser context); 0 no limit"},
		&cli.IntFlag{Name: "max-session-streams", EnvVars: env("MAX_SESSION_STREAMS"), Value: 16, Usage: "over HTTP, the most requests one session may have open at once; 0 no limit"},
		&cli.Int64Flag{Name: "http-max-body", EnvVars: env("HTTP_MAX_BODY"), Value: defaultMaxBody, Usage: "over HTTP, the largest request body in `BYTES`"},
		&cli.DurationFlag{Name: "http-read-timeout", EnvVars: env("HTTP_READ_TIMEOUT"), Value: defaultReadTimeout, Usage: "over HTTP, how long a client may take to send a request's header, then its body"},
		logLevelFlag(),
		secretEnvFlag(),
		&cli.StringFlag{Name: "trace", EnvVars: env("TRACE"), Usage: "write every CDP message and tool call to `FILE` as JSON lines"},
	}
}

func secretEnvFlag() cli.Flag {
	return &cli.StringFlag{Name: "secret-env", EnvVars: env("SECRET_ENV"), Usage: "treat the values of these environment variables as secrets (comma-separated `NAMES`): never shown in results, logs or traces"}
}

func logLevelFlag() cli.Flag {
	return &cli.StringFlag{Name: "log-level", EnvVars: env("LOG_LEVEL"), Value: "info", Usage: "debug, info, warn or error (logs go to stderr)"}
}

func policyFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.BoolFlag{Name: "read-only", EnvVars: env("READ_ONLY"), Usage: "audit mode: no clicking or typing; evaluate refuses side effects"},
		&cli.StringFlag{Name: "tools", EnvVars: env("TOOLS"), Usage: "offer only these tools (comma-separated `NAMES`)"},
		&cli.DurationFlag{Name: "timeout", EnvVars: env("TIMEOUT"), Value: 30 * time.Second, Usage: "deadline of a tool call that names none"},
		&cli.StringFlag{Name: "allowed-origins", EnvVars: env("ALLOWED_ORIGINS"), Usage: "let the browser request only these origins (comma-separated `PATTERNS` like https://*.example.com, http://127.0.0.1:*)"},
		&cli.StringFlag{Name: "blocked-origins", EnvVars: env("BLOCKED_ORIGINS"), Usage: "never let the browser request these origins (comma-separated `PATTERNS`)"},
		&cli.BoolFlag{Name: "allow-file-urls", EnvVars: env("ALLOW_FILE_URLS"), Usage: "allow opening file: URLs"},
		&cli.BoolFlag{Name: "allow-browser-urls", EnvVars: env("ALLOW_BROWSER_URLS"), Usage: "allow opening chrome:, view-source: and other browser pages"},
		&cli.StringFlag{Name: "artifacts-dir", EnvVars: env("ARTIFACTS_DIR"), Usage: "`DIR` where audits and record write reports, traces, recordings and full data (default " + actions.DefaultArtifactsDir() + ")"},
		&cli.StringFlag{Name: "dialogs", EnvVars: env("DIALOGS"), Value: "report", Usage: "what happens to a JavaScript dialog no one answered when the next call meets it: report, accept or dismiss (a navigation always leaves past it)"},
	}, parityFlags()...)
}

func browserFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.BoolFlag{Name: "headless", EnvVars: env("HEADLESS"), Usage: "run the browser without a window (automatic when there is no display)"},
		&cli.StringFlag{Name: "browser-path", EnvVars: env("BROWSER_PATH"), Usage: "Chromium or Chrome executable (default: chromium, chromium-browser or google-chrome on PATH, then Chrome, Chromium or Edge where they install on macOS and Windows)"},
		&cli.StringFlag{Name: "user-data-dir", EnvVars: env("USER_DATA_DIR"), Usage: "browser profile `DIR` to use and keep (default: a fresh temporary one, removed on exit)"},
		&cli.StringSliceFlag{Name: "browser-arg", EnvVars: env("BROWSER_ARG"), Usage: "extra Chromium `FLAG` (repeatable; the variable holds one)"},
		&cli.StringFlag{Name: "cdp-endpoint", EnvVars: env("CDP_ENDPOINT"), Usage: "attach to a running browser at `URL` (http://127.0.0.1:9222 or ws://…) instead of launching one"},
		&cli.BoolFlag{Name: "allow-remote-cdp", EnvVars: env("ALLOW_REMOTE_CDP"), Usage: "allow a --cdp-endpoint that is not on this machine"},
		&cli.BoolFlag{Name: "allow-unsafe-browser-args", EnvVars: env("ALLOW_UNSAFE_BROWSER_ARGS"), Usage: "allow --browser-arg flags that weaken web security or take over the profile or debugging port"},
	}, reachFlags()...) // browserflags.go
}

func configFrom(c *cli.Context) (config, error) {
	if err := applyConfigFile(c); err != nil {
		return config{}, err
	}
	cfg := config{
		http:     c.String("http"),
		logLevel: c.String("log-level"),
		trace:    c.String("trace"),
		sessions: sessionLimits{
			Idle:    c.Duration("session-idle-timeout"),
			Max:     c.Int("max-sessions"),
			Streams: c.Int("max-session-streams"),
		},
		requests: requestLimits{MaxBody: c.Int64("http-max-body"), ReadTimeout: c.Duration("http-read-timeout")},
		tools: tools.Config{
			ReadOnly:        c.Bool("read-only"),
			Tools:           splitList(c.String("tools")),
			Timeout:         c.Duration("timeout"),
			IsolateSessions: c.String("http") != "",
			Artifacts:       c.String("artifacts-dir"),
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
	cfg.secrets = secrets.New()
	for _, name := range splitList(c.String("secret-env")) {
		v, ok := os.LookupEnv(name)
		if !ok {
			return cfg, fmt.Errorf("--secret-env: the environment has no %s", name)
		}
		if len([]rune(v)) < secrets.MinLen {
			return cfg, fmt.Errorf("--secret-env: %s is shorter than %d characters, too short to redact by value", name, secrets.MinLen)
		}
		addSecretEnv(cfg.secrets, name, v)
	}
	var (
		tokens []string
		err    error
	)
	if cfg.principals, tokens, err = parseAuthTokens(c.StringSlice("auth-token"), c.String("auth-tokens-file")); err != nil {
		return cfg, err
	}
	for _, t := range tokens {
		cfg.secrets.Conceal(t) // a token is never logged or traced (secretsetup.go)
	}
	cfg.browser.Secrets, cfg.tools.Secrets = cfg.secrets, cfg.secrets
	if err := setupLogging(cfg.logLevel, cfg.secrets); err != nil {
		return cfg, err
	}
	cfg.principals.warnShort()
	agent, err := agentConfigFrom(c)
	if err != nil {
		return cfg, err
	}
	cfg.tools.Agent = agent
	if cfg.requests.MaxBody <= 0 {
		cfg.requests.MaxBody = defaultMaxBody
	}
	if cfg.requests.ReadTimeout <= 0 {
		cfg.requests.ReadTimeout = defaultReadTimeout
	}
	policy, err := origins.NewList(splitList(c.String("allowed-origins")), splitList(c.String("blocked-origins")))
	if err != nil {
		return cfg, err
	}
	policy.AllowFile, policy.AllowBrowser = c.Bool("allow-file-urls"), c.Bool("allow-browser-urls")
	cfg.browser.Origins, cfg.tools.Origins = policy, policy
	if cfg.browser.Dialogs, err = cdpclient.ParseDialogPolicy(c.String("dialogs")); err != nil {
		return cfg, fmt.Errorf("--dialogs: %w", err)
	}
	if bad := browserproc.UnsafeArgs(cfg.browser.Launch.Args); len(bad) > 0 && !c.Bool("allow-unsafe-browser-args") {
		return cfg, fmt.Errorf("--browser-arg %s weakens the browser's security, takes over what cdpmcp manages or is not a flag (a URL opened before cdpmcp's guards); pass --allow-unsafe-browser-args to use it anyway", strings.Join(bad, " "))
	}
	if bad := browserproc.NetworkArgs(cfg.browser.Launch.Args); len(bad) > 0 && !policy.Empty() {
		return cfg, fmt.Errorf("--browser-arg %s cannot be used with --allowed-origins or --blocked-origins: cdpmcp routes every connection of the browser through its own proxy to enforce them", strings.Join(bad, " "))
	}
	if bad := browserproc.NetworkArgs(cfg.browser.Launch.Args); len(bad) > 0 && cfg.http != "" && egress.Exposed(cfg.http) {
		return cfg, fmt.Errorf("--browser-arg %s cannot be used with --http %s: listening beyond loopback, cdpmcp routes every connection of the browser through its own proxy so pages never reach its port through this machine's addresses", strings.Join(bad, " "), cfg.http)
	}
	if err := parityConfigFrom(c, &cfg); err != nil {
		return cfg, err
	}
	if err := reachConfigFrom(c, &cfg); err != nil { // browserflags.go
		return cfg, err
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

// setupLogging sends slog output to stderr (stdout is the MCP channel), with
// secrets redacted.
func setupLogging(level string, reg *secrets.Registry) error {
	var l slog.Level
	if level == "" {
		level = "info"
	}
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	slog.SetDefault(slog.New(redactingHandler{next: slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l}), reg: reg}))
	return nil
}
