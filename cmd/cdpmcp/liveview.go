package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/liveview"
	"github.com/urfave/cli/v2"
)

// handoffConfig is what the human handoff's flags say.
type handoffConfig struct {
	addr     string        // stdio: where the live view listens
	url      string        // the base URL people reach it at, when not the listener's
	timeout  time.Duration // how long a job or agent waits for a person
	disabled bool
}

func handoffFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "live-view-addr", EnvVars: env("LIVE_VIEW_ADDR"), Value: "127.0.0.1:0",
			Usage: "serving stdio, where the live view (a person taking over a tab) listens, `HOST:PORT` (port 0: any free one); over --http it is served there under /live/"},
		&cli.StringFlag{Name: "live-view-url", EnvVars: env("LIVE_VIEW_URL"),
			Usage: "the base `URL` people reach the live view at, when it is not the listener's own (a reverse proxy, a tunnel, this machine's address for a phone)"},
		&cli.DurationFlag{Name: "handoff-timeout", EnvVars: env("HANDOFF_TIMEOUT"), Value: 30 * time.Minute,
			Usage: "how long a job or run_browser_agent waits for a person to hand a tab back; the live view's link expires then"},
		&cli.BoolFlag{Name: "no-live-view", EnvVars: env("NO_LIVE_VIEW"),
			Usage: "serve no live view: a job that needs a person waits for browser.job.resume, and run_browser_agent cannot ask for one"},
	}
}

func handoffConfigFrom(c *cli.Context) (handoffConfig, error) {
	h := handoffConfig{addr: c.String("live-view-addr"), url: strings.TrimSuffix(c.String("live-view-url"), "/"),
		timeout: c.Duration("handoff-timeout"), disabled: c.Bool("no-live-view")}
	if h.url != "" {
		if u, err := url.Parse(h.url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return h, fmt.Errorf("--live-view-url %q: give a base URL like https://cdpmcp.example.com", h.url)
		}
	}
	if h.timeout <= 0 {
		return h, fmt.Errorf("--handoff-timeout %s: give a positive duration, e.g. 30m", h.timeout)
	}
	return h, nil
}

// openLiveView makes the live view. Over HTTP it is served on the MCP
// server's listener httpLn (serveHTTP mounts it); serving stdio, it gets a
// listener of its own, which the browser is kept from reaching like the MCP
// port. stop ends the offers and that listener.
func openLiveView(cfg *config, httpLn net.Listener) (lv *liveview.Server, stop func(), err error) {
	if cfg.handoff.disabled {
		return nil, func() {}, nil
	}
	ln := httpLn
	if ln == nil {
		if ln, err = net.Listen("tcp", cfg.handoff.addr); err != nil {
			return nil, nil, fmt.Errorf("--live-view-addr %s: %w", cfg.handoff.addr, err)
		}
		cfg.browser.Reserved = append(cfg.browser.Reserved, ln.Addr().String())
	}
	base := cfg.handoff.url
	if base == "" {
		base = "http://" + reachable(ln.Addr().(*net.TCPAddr))
	}
	if lv, err = liveview.New(base); err != nil {
		if ln != httpLn {
			ln.Close()
		}
		return nil, nil, err
	}
	if ln == httpLn {
		return lv, lv.Close, nil
	}
	mux := http.NewServeMux()
	mux.Handle("/live/", lv.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: defaultReadTimeout, IdleTimeout: idleConnTimeout, MaxHeaderBytes: maxHeaderBytes}
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Warn("the live view stopped", "err", err)
		}
	}()
	slog.Debug("live view listening", "url", base+"/live/")
	return lv, func() {
		lv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
	}, nil
}

// reachable is a listener's address as a URL host: an unspecified address
// (0.0.0.0, ::) is reached on loopback here; --live-view-url names it for
// other machines.
func reachable(a *net.TCPAddr) string {
	if a.IP.IsUnspecified() {
		slog.Info("the live view listens on every interface; its links name 127.0.0.1 unless --live-view-url gives the address others reach it at")
		return net.JoinHostPort("127.0.0.1", fmt.Sprint(a.Port))
	}
	return a.String()
}
