package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"strings"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/cdpclient/egress"
	"github.com/cdpmcp/cdpmcp/cdpclient/initscript"
	"github.com/cdpmcp/cdpmcp/cdpclient/permissions"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/urfave/cli/v2"
)

// The browser flags of issue 37: browsers from elsewhere (the user's running
// Chrome, a browser service behind a token), a proxy, init scripts,
// permission grants, WebMCP, the clipboard and screenshot sizes.

// reachFlags say how the browser is reached and set up, for serve and call.
func reachFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.BoolFlag{Name: "auto-connect", EnvVars: env("AUTO_CONNECT"), Usage: "attach to your running Chrome or Chromium (found by the DevToolsActivePort in its profile folder; turn it on at chrome://inspect/#remote-debugging in Chrome 144+) instead of launching one"},
		&cli.StringSliceFlag{Name: "cdp-header", EnvVars: env("CDP_HEADER"), Usage: "send `NAME:VALUE` with every request to --cdp-endpoint (a browser service's token: Authorization: Bearer …); repeatable, the variable holds one; never logged"},
		&cli.IntFlag{Name: "screenshot-max-width", EnvVars: env("SCREENSHOT_MAX_WIDTH"), Usage: "the widest a screenshot may be, in `PIXELS`, when the call names no maxWidth (0: no cap)"},
		&cli.StringFlag{Name: "screenshot-scale", EnvVars: env("SCREENSHOT_SCALE"), Usage: "screenshots in css pixels (one per CSS pixel) or device pixels (default) when the call names no scale"},
		&cli.BoolFlag{Name: "allow-clipboard-read", EnvVars: env("ALLOW_CLIPBOARD_READ"), Usage: "let the clipboard tool read the system's clipboard (a browser with a window, your own Chrome) or one the HTTP sessions share; a headless browser cdpmcp launched for one client has its own and needs no flag"},
	}, setupFlags()...)
}

// setupFlags set up every browser a process connects, serve, call or worker.
func setupFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "proxy-server", EnvVars: env("PROXY_SERVER"), Usage: "send the browser's connections through the proxy at `URL` (http://host:port, socks5://…; user:password@ in it or --proxy-user); not with origin rules"},
		&cli.StringFlag{Name: "proxy-bypass", EnvVars: env("PROXY_BYPASS"), Usage: "hosts that go around --proxy-server (comma-separated `LIST`: example.com, *.internal, 10.0.0.0/8, <local>)"},
		&cli.StringFlag{Name: "proxy-user", EnvVars: env("PROXY_USER"), Usage: "the `USER` --proxy-server asks for"},
		&cli.StringFlag{Name: "proxy-password", EnvVars: env("PROXY_PASSWORD"), Usage: "the `PASSWORD` of --proxy-user (never logged; prefer the variable to the command line)"},
		&cli.StringSliceFlag{Name: "init-script", EnvVars: env("INIT_SCRIPT"), Usage: "run the JavaScript in `FILE` in every page and frame before the page's own scripts (repeatable; the variable holds one)"},
		&cli.StringFlag{Name: "grant-permissions", EnvVars: env("GRANT_PERMISSIONS"), Usage: "grant every page these permissions without a prompt (comma-separated `NAMES`: geolocation, notifications, clipboard-read, camera, …)"},
		&cli.BoolFlag{Name: "webmcp", EnvVars: env("WEBMCP"), Value: true, Usage: "turn Chromium's WebMCP on in browsers cdpmcp launches, so pages can offer their own tools (pageTools); --webmcp=false leaves it off"},
	}
}

// reachConfigFrom reads the flags of reachFlags and setupFlags into cfg
// (those a command lacks read as unset).
func reachConfigFrom(c *cli.Context, cfg *config) error {
	b := &cfg.browser
	b.AutoConnect = c.Bool("auto-connect")
	b.Launch.DisableWebMCP = c.IsSet("webmcp") && !c.Bool("webmcp")
	if b.AutoConnect && b.Endpoint != "" {
		return fmt.Errorf("--auto-connect finds your running Chrome; --cdp-endpoint names a browser: give one of them")
	}
	header, err := parseHeaders(c.StringSlice("cdp-header"), cfg.secrets)
	if err != nil {
		return err
	}
	b.Header = header
	if len(header) > 0 && b.Endpoint == "" && c.Command.Name != "worker" {
		return fmt.Errorf("--cdp-header goes with --cdp-endpoint: the headers are for a browser service at a ws(s):// or http(s):// URL")
	}
	proxy, err := browserproc.ParseProxy(c.String("proxy-server"), c.String("proxy-bypass"), c.String("proxy-user"), c.String("proxy-password"))
	if err != nil {
		return err
	}
	if proxy != nil {
		switch {
		case !b.Origins.Empty():
			return fmt.Errorf("--proxy-server cannot be used with --allowed-origins or --blocked-origins yet: cdpmcp sends every connection through its own proxy to enforce them")
		case cfg.http != "" && egress.Exposed(cfg.http):
			return fmt.Errorf("--proxy-server cannot be used with --http %s yet: listening beyond loopback, cdpmcp sends every connection of the browser through its own proxy", cfg.http)
		case b.AutoConnect || b.Endpoint != "":
			slog.Warn("--proxy-server applies to the browser contexts cdpmcp creates (one per HTTP session), not to an attached browser's own tabs")
		}
		if len([]rune(proxy.Password)) >= secrets.MinLen {
			cfg.secrets.Conceal(proxy.Password) // never logged or traced; no page sees it
		}
		b.Launch.Proxy = proxy
	}
	var setups []func(ctx context.Context, bc *cdpclient.BrowserContext) error
	if list := splitList(c.String("grant-permissions")); len(list) > 0 {
		types, err := permissions.Parse(list, false)
		if err != nil {
			return fmt.Errorf("--grant-permissions: %w", err)
		}
		setups = append(setups, permissions.Setup(types))
	}
	var scripts []string
	for _, path := range c.StringSlice("init-script") {
		src, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("--init-script: %w", err)
		}
		scripts = append(scripts, string(src))
	}
	if len(scripts) > 0 {
		setups = append(setups, initscript.Setup(scripts))
	}
	b.SetupContext = chainSetup(b.SetupContext, setups...)
	cfg.tools.Screenshot.MaxWidth, cfg.tools.Screenshot.Scale = c.Int("screenshot-max-width"), c.String("screenshot-scale")
	switch s := cfg.tools.Screenshot.Scale; {
	case s != "" && s != "css" && s != "device":
		return fmt.Errorf("--screenshot-scale %q: give css or device", s)
	case cfg.tools.Screenshot.MaxWidth < 0 || (cfg.tools.Screenshot.MaxWidth > 0 && cfg.tools.Screenshot.MaxWidth < 16):
		return fmt.Errorf("--screenshot-max-width %d: give a width in pixels, 16 or more (0: no cap)", cfg.tools.Screenshot.MaxWidth)
	}
	cfg.tools.ClipboardRead = c.Bool("allow-clipboard-read")
	return nil
}

// parseHeaders reads --cdp-header values ("Name: value"), and conceals each
// value: never logged or traced (no page sees it, so answers need no mask).
func parseHeaders(values []string, reg *secrets.Registry) (http.Header, error) {
	if len(values) == 0 {
		return nil, nil
	}
	h := http.Header{}
	for _, v := range values {
		name, value, ok := strings.Cut(v, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" || value == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("--cdp-header %q: give NAME:VALUE, e.g. --cdp-header 'Authorization: Bearer TOKEN'", redactHeader(v))
		}
		h.Add(textproto.CanonicalMIMEHeaderKey(name), value)
		if len([]rune(value)) >= secrets.MinLen {
			reg.Conceal(value)
		}
		if _, cred, found := strings.Cut(value, " "); found && len([]rune(cred)) >= secrets.MinLen {
			reg.Conceal(strings.TrimSpace(cred)) // the token of "Bearer TOKEN" alone
		}
	}
	return h, nil
}

// redactHeader shows a header the user gave without its value.
func redactHeader(v string) string {
	if name, _, ok := strings.Cut(v, ":"); ok {
		return name + ": ***"
	}
	if len(v) > 8 {
		return v[:4] + "…"
	}
	return v
}

// chainSetup runs first (it may be nil), then each of more, on every
// browser context cdpmcp sets up.
func chainSetup(first func(context.Context, *cdpclient.BrowserContext) error, more ...func(context.Context, *cdpclient.BrowserContext) error) func(context.Context, *cdpclient.BrowserContext) error {
	if len(more) == 0 {
		return first
	}
	return func(ctx context.Context, bc *cdpclient.BrowserContext) error {
		if first != nil {
			if err := first(ctx, bc); err != nil {
				return err
			}
		}
		for _, setup := range more {
			if err := setup(ctx, bc); err != nil {
				return err
			}
		}
		return nil
	}
}

// workerReachFlags are a worker's: a browser service to take each job's
// browser from, its headers, and the set-up of every browser.
func workerReachFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "browser-pool", EnvVars: env("BROWSER_POOL"), Usage: "take a fresh browser for each job from the browser service at `URL` (wss://… of Browserless, Browserbase, Steel or your own; each connection a new browser) instead of launching them; with --cdp-header for its token"},
		&cli.StringSliceFlag{Name: "cdp-header", EnvVars: env("CDP_HEADER"), Usage: "send `NAME:VALUE` with every connection to --browser-pool or --cdp-endpoint (a browser service's token); repeatable, the variable holds one; never logged"},
	}, setupFlags()...)
}

// workerPoolFrom points a worker's job browsers at --browser-pool, or at
// its --cdp-endpoint browsers.
func workerPoolFrom(c *cli.Context, cfg *config) error {
	pool := c.String("browser-pool")
	switch {
	case pool != "" && len(cfg.jobs.endpoints) > 0:
		return fmt.Errorf("--browser-pool hands out a browser per job; --cdp-endpoint names browsers jobs share: give one of them")
	case pool != "":
		cfg.browser.Endpoint, cfg.browser.Pool = pool, true
		if !cfg.browser.AllowRemote && !browserproc.IsLoopbackHost(hostOf(pool)) {
			return fmt.Errorf("--browser-pool %s is not on this machine: pass --allow-remote-cdp to allow it (anyone who can reach it with its token controls the browsers)", browserproc.DisplayEndpoint(pool))
		}
	case len(cfg.browser.Header) > 0 && len(cfg.jobs.endpoints) == 0:
		return fmt.Errorf("--cdp-header goes with --browser-pool or --cdp-endpoint: the headers are for a browser service")
	}
	return nil
}

// hostOf is the host of an endpoint URL, "" when it has none.
func hostOf(endpoint string) string {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		return ""
	}
	return u.Hostname()
}
