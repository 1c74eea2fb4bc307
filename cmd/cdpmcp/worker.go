package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/internal/prom"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/cdpmcp/cdpmcp/jobs/postgres"
	"github.com/cdpmcp/cdpmcp/tools"
	"github.com/urfave/cli/v2"
)

// workerCommand is `cdpmcp worker`: a process that only runs jobs from a
// fleet's PostgreSQL queue, no MCP.
func workerCommand() *cli.Command {
	flags := []cli.Flag{
		logLevelFlag(),
		secretEnvFlag(),
		&cli.IntFlag{Name: "max-tabs", EnvVars: env("MAX_TABS"), Value: 4, Usage: "how many tabs this worker's jobs may have open at once, all together"},
		&cli.StringFlag{Name: "metrics-addr", EnvVars: env("METRICS_ADDR"), Usage: "serve Prometheus metrics at http://`HOST:PORT`/metrics"},
		&cli.BoolFlag{Name: "headless", EnvVars: env("HEADLESS"), Usage: "ignored: job browsers never have a window"},
		&cli.StringFlag{Name: "browser-path", EnvVars: env("BROWSER_PATH"), Usage: "Chromium or Chrome executable (default: chromium, chromium-browser, google-chrome on PATH)"},
		&cli.StringSliceFlag{Name: "browser-arg", EnvVars: env("BROWSER_ARG"), Usage: "extra Chromium `FLAG` (repeatable; the variable holds one)"},
		&cli.StringSliceFlag{Name: "cdp-endpoint", EnvVars: env("CDP_ENDPOINT"), Usage: "run jobs without a profile in the browser at `URL` (repeatable: a pool, each job in the least busy; a browserless/chrome container or any --remote-debugging-port Chrome) instead of launching one; profile jobs run in a Chromium launched here"},
		&cli.BoolFlag{Name: "allow-remote-cdp", EnvVars: env("ALLOW_REMOTE_CDP"), Usage: "allow a --cdp-endpoint that is not on this machine"},
		&cli.BoolFlag{Name: "allow-unsafe-browser-args", EnvVars: env("ALLOW_UNSAFE_BROWSER_ARGS"), Usage: "allow --browser-arg flags that weaken web security or take over the profile or debugging port"},
	}
	flags = append(flags, workerReachFlags()...) // browserflags.go
	flags = append(flags, runFlags()...)
	flags = append(flags, policyFlags()...)
	flags = append(flags, agentFlags()...)
	flags = append(flags, handoffFlags()...)
	return &cli.Command{
		Name:  "worker",
		Usage: "run jobs from a fleet's queue (--jobs-db), no MCP: any number of workers and serves on any hosts share it",
		Flags: flags,
		Action: func(c *cli.Context) error {
			cfg, err := configFrom(c)
			if err != nil {
				return err
			}
			if cfg.jobs, err = jobsConfigFrom(c); err != nil {
				return err
			}
			if cfg.jobs.db == "" {
				return errors.New("cdpmcp worker needs --jobs-db (or CDPMCP_JOBS_DB): the PostgreSQL database the fleet shares, e.g. postgres://cdpmcp:secret@db.internal/cdpmcp")
			}
			if cfg.jobs.maxTabs < 1 {
				return fmt.Errorf("--max-tabs %d: a worker runs 1 or more tabs", cfg.jobs.maxTabs)
			}
			cfg.jobs.endpoints, cfg.browser.Endpoint = c.StringSlice("cdp-endpoint"), ""
			if err := workerPoolFrom(c, &cfg); err != nil {
				return err
			}
			if err := checkWorkerBrowser(cfg); err != nil {
				return err
			}
			if cfg.handoff, err = handoffConfigFrom(c); err != nil {
				return err
			}
			return runWorker(c.Context, cfg, c.String("metrics-addr"))
		},
	}
}

// runWorker runs jobs until ctx ends (SIGINT, SIGTERM), then lets the
// running ones finish within --job-grace and hands the rest back to the fleet.
func runWorker(ctx context.Context, cfg config, metricsAddr string) error {
	var metricsLn net.Listener
	if metricsAddr != "" {
		var err error
		if metricsLn, err = net.Listen("tcp", metricsAddr); err != nil {
			return fmt.Errorf("--metrics-addr %s: %w", metricsAddr, err)
		}
		defer metricsLn.Close()
		cfg.browser.Reserved = append(cfg.browser.Reserved, metricsLn.Addr().String())
	}
	lv, stopLive, err := openLiveView(&cfg, nil)
	if err != nil {
		return err
	}
	defer stopLive()
	cfg.live = lv
	var h *horde
	if lv != nil {
		// A job waiting for a person offers its tab in this worker's live view.
		cfg.tools.JobHandoff = tools.NewJobHandoff(lv, func(ctx context.Context) (*jobs.Queue, error) { return h.queue(ctx) })
	}
	store, err := waitForStore(ctx, cfg.jobs.db)
	if store == nil {
		return err // nil: stopped while waiting
	}
	h = startHorde(cfg)
	h.store = store
	defer h.close()
	q, err := h.queue(ctx)
	if err != nil {
		return err
	}
	if metricsLn != nil {
		hs := &http.Server{Handler: metricsMux(h.queue), ReadHeaderTimeout: defaultReadTimeout}
		go func() { _ = hs.Serve(metricsLn) }()
		defer hs.Close()
		slog.Info("serving metrics", "url", "http://"+metricsLn.Addr().String()+"/metrics")
	}
	liveView := ""
	if lv != nil {
		liveView = lv.BaseURL()
	}
	browsers := any(max(len(cfg.jobs.endpoints), 1))
	if cfg.browser.Pool {
		browsers = "one per job from " + browserproc.DisplayEndpoint(cfg.browser.Endpoint)
	}
	slog.Info("worker running jobs", "worker", q.Worker(), "maxTabs", cfg.jobs.maxTabs, "browsers", browsers, "liveView", liveView)
	<-ctx.Done()
	q.StopClaiming()
	slog.Info("worker stopping: it takes no new jobs; those it runs get --job-grace to finish, the rest go back to the fleet's queue", "grace", cfg.jobs.grace)
	return nil // the deferred h.close drains and hands back
}

// Backoff of a worker waiting for its database at start.
const (
	storeRetryFirst = time.Second
	storeRetryMost  = 15 * time.Second
)

// waitForStore opens the fleet's database, waiting for it while it cannot be
// reached (jobstore.Unreachable: down, starting up, a host not yet on the
// network), as a service started before its database expects; a refusal (a
// wrong password, no such database) ends it at once. It returns a nil store
// and a nil error when ctx ends first (SIGTERM while waiting).
func waitForStore(ctx context.Context, db string) (jobs.Store, error) {
	since := time.Now()
	for wait := storeRetryFirst; ; wait = min(wait*2, storeRetryMost) {
		octx, cancel := context.WithTimeout(ctx, 30*time.Second)
		store, err := postgres.Open(octx, db)
		cancel()
		switch {
		case err == nil:
			if wait > storeRetryFirst {
				slog.Info("the job database answers", "db", postgres.Where(db), "waited", time.Since(since).Round(time.Millisecond))
			}
			return store, nil
		case ctx.Err() != nil:
			slog.Info("worker stopping: it was still waiting for the job database", "db", postgres.Where(db))
			return nil, nil
		case !jobstore.Unreachable(err):
			return nil, err
		}
		slog.Warn("waiting for the job database to answer before running jobs", "db", postgres.Where(db),
			"waited", time.Since(since).Round(time.Second), "nextTryIn", wait, "err", err)
		select {
		case <-ctx.Done():
			slog.Info("worker stopping: it was still waiting for the job database", "db", postgres.Where(db))
			return nil, nil
		case <-time.After(wait):
		}
	}
}

// metricsMux serves the job queue's metrics at /metrics.
func metricsMux(queue func(context.Context) (*jobs.Queue, error)) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/metrics", metricsHandler(queue))
	return mux
}

// metricsHandler answers with the job queue's metrics in Prometheus's text
// format, and those more adds.
func metricsHandler(queue func(context.Context) (*jobs.Queue, error), more ...func(*prom.Writer)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		defer cancel()
		q, err := queue(ctx)
		if err != nil {
			http.Error(w, "the job queue is not available: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", prom.ContentType)
		if err := q.WriteMetrics(ctx, w); err != nil {
			slog.Warn("metrics", "err", err)
		}
		pw := prom.NewWriter(w)
		for _, m := range more {
			m(pw)
		}
	})
}
