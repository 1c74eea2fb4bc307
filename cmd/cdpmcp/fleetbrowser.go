package main

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
)

// A process of a fleet that has no browser to launch (no file at
// --browser-path, no Chromium on PATH) and took the fleet's jobs would fail
// each at once, as fast as it can claim them, draining the queue that the
// other workers could run. So it takes none: a worker does not start, a
// serve on --jobs-db runs no jobs here (as with --max-tabs 0). A lone serve
// on its SQLite file runs its jobs as before: each fails saying what to fix.
// (A browser that goes away later: jobs/nobrowser.go.)

// checkWorkerBrowser refuses to start a worker that launches its jobs'
// browsers and has none to launch. A worker whose jobs use --cdp-endpoint
// or --browser-pool launches one only for profile jobs: it starts, saying
// that those will fail.
func checkWorkerBrowser(cfg config) error {
	err := localBrowser(cfg)
	switch {
	case err == nil:
		return nil
	case len(cfg.jobs.endpoints) > 0 || cfg.browser.Pool:
		slog.Warn("no browser to launch here: jobs with a profile, which run in a browser launched here, will fail", "err", err)
		return nil
	}
	return fmt.Errorf("cdpmcp worker: %w; a worker without a browser would fail every job it claims, so it does not start", err)
}

// fleetServeBrowser makes a serve on a fleet's queue that would launch its
// jobs' browsers, and has none to launch, run no jobs: the fleet's workers
// run them. Its own tools still answer, each saying what to fix.
func fleetServeBrowser(cfg *config) {
	if cfg.jobs.db == "" || cfg.jobs.disabled || cfg.jobs.maxTabs == 0 || cfg.browser.Endpoint != "" || cfg.browser.AutoConnect {
		return
	}
	if err := localBrowser(*cfg); err != nil {
		slog.Error("no browser to launch here: this server runs none of the fleet's jobs (as --max-tabs 0); the workers run them", "err", err)
		cfg.jobs.maxTabs = 0
	}
}

// localBrowser says why no browser could be launched here for a job, with
// the hint to fix it; nil when there is one.
func localBrowser(cfg config) error {
	_, err := browserproc.FindHeadlessAt(cfg.browser.Launch.Path)
	var le *browserproc.LaunchError
	if errors.As(err, &le) && le.Hint != "" {
		return fmt.Errorf("%w (%s)", err, le.Hint)
	}
	return err
}
