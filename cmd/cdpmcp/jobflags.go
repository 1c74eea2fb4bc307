package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
	"github.com/cdpmcp/cdpmcp/tools"
	"github.com/urfave/cli/v2"
)

// jobsConfig is what the job horde's flags say.
type jobsConfig struct {
	dataDir  string
	maxTabs  int
	timeout  time.Duration
	disabled bool
}

func dataDirFlag() cli.Flag {
	return &cli.StringFlag{Name: "data-dir", EnvVars: env("DATA_DIR"), Value: jobs.DefaultDataDir(),
		Usage: "keep jobs (jobs.db), browser profiles and artifacts in `DIR`"}
}

func jobFlags() []cli.Flag {
	return []cli.Flag{
		dataDirFlag(),
		&cli.IntFlag{Name: "max-tabs", EnvVars: env("MAX_TABS"), Value: 4, Usage: "how many tabs jobs may have open at once, all together"},
		&cli.DurationFlag{Name: "job-timeout", EnvVars: env("JOB_TIMEOUT"), Value: 2 * time.Minute, Usage: "bound on a job's run unless its task.timeoutMs says otherwise"},
		&cli.BoolFlag{Name: "no-jobs", EnvVars: env("NO_JOBS"), Usage: "offer no job tools (browser.job.*, browser.snapshot.extract_structured)"},
	}
}

func jobsConfigFrom(c *cli.Context) jobsConfig {
	return jobsConfig{dataDir: c.String("data-dir"), maxTabs: c.Int("max-tabs"), timeout: c.Duration("job-timeout"), disabled: c.Bool("no-jobs")}
}

// horde is the job queue with its data dir and store. It opens at start when
// the data dir holds jobs (so unfinished ones are taken up at once), else on
// the first job tool call, so a server whose client never uses jobs touches
// no state.
type horde struct {
	cfg      jobsConfig
	browser  cdpclient.Options
	readOnly bool
	origins  *origins.List
	agent    jobs.Agent      // nil without a model endpoint: custom jobs refused
	model    agentloop.Model // the same endpoint, for extraction's missing fields
	handoff  jobs.Handoff
	waitFor  time.Duration // a person, at most

	once  sync.Once
	ready chan struct{}
	q     *jobs.Queue
	dir   *jobs.DataDir
	store *sqlite.Store
	err   error
}

func startHorde(cfg config) *horde {
	h := &horde{cfg: cfg.jobs, browser: cfg.browser, readOnly: cfg.tools.ReadOnly, origins: cfg.tools.Origins, ready: make(chan struct{}),
		waitFor: cfg.handoff.timeout}
	if cfg.tools.JobHandoff != nil {
		h.handoff = cfg.tools.JobHandoff
	}
	if llm := cfg.tools.Agent.LLM; llm.BaseURL != "" {
		h.agent = &jobs.LoopAgent{Model: &llm, Loop: cfg.tools.Agent.Loop, ReadOnly: cfg.tools.ReadOnly, Origins: cfg.tools.Origins}
		h.model = &llm
	}
	// A server offering the job tools opens the queue at start (build); one
	// that does not still takes up the unfinished jobs it finds.
	if _, err := os.Stat(jobs.DBPath(cfg.jobs.dataDir)); err == nil && !tools.OffersJobs(cfg.tools) {
		go func() {
			if err := h.open(); err != nil {
				slog.Warn("the unfinished jobs in the data dir are not taken up: " + err.Error())
			}
		}()
	}
	return h
}

// open opens the queue once and returns why it could not (the same error at
// every call).
func (h *horde) open() error {
	h.once.Do(func() {
		defer close(h.ready)
		h.err = h.openQueue()
	})
	<-h.ready
	return h.err
}

func (h *horde) openQueue() error {
	dir, err := jobs.OpenDataDir(h.cfg.dataDir)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store, err := sqlite.Open(ctx, dir.DBPath(), false)
	if err != nil {
		dir.Close()
		return err
	}
	// The queue lives as long as the server: its context is not a request's.
	q, err := jobs.Open(context.Background(), jobs.Config{
		Dir: dir, Store: store, Browser: h.browser, MaxTabs: h.cfg.maxTabs, JobTimeout: h.cfg.timeout,
		ReadOnly: h.readOnly, Origins: h.origins, Version: version, Agent: h.agent, Model: h.model,
		Handoff: h.handoff, HandoffTimeout: h.waitFor,
	})
	if err != nil {
		store.Close()
		dir.Close()
		return err
	}
	h.q, h.dir, h.store = q, dir, store
	slog.Info("job queue open", "dataDir", dir.Path, "maxTabs", h.cfg.maxTabs)
	return nil
}

// queue returns the open queue, opening it first if needed (within ctx).
func (h *horde) queue(ctx context.Context) (*jobs.Queue, error) {
	go func() { _ = h.open() }()
	select {
	case <-h.ready:
		if h.err != nil {
			return nil, h.err
		}
		return h.q, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("the job queue is still opening: %w", ctx.Err())
	}
}

// close stops the queue and its browsers, then releases the store and dir.
func (h *horde) close() {
	h.once.Do(func() { close(h.ready); h.err = errors.New("shutting down") })
	<-h.ready
	if h.q == nil {
		return
	}
	_ = h.q.Close()
	_ = h.store.Close()
	_ = h.dir.Close()
}

// notServing stands in for the job queue where cdpmcp only lists its tools.
func notServing(context.Context) (*jobs.Queue, error) {
	return nil, errors.New("jobs run only under cdpmcp serve")
}
