package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/cdpmcp/cdpmcp/liveview"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/postgres"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
	"github.com/urfave/cli/v2"
)

// jobsConfig is what the job horde's flags say.
type jobsConfig struct {
	dataDir  string
	maxTabs  int
	timeout  time.Duration
	disabled bool
	// db is a PostgreSQL URL shared by a fleet (empty: SQLite in dataDir);
	// the rest only matter with it.
	db        string
	lease     time.Duration
	worker    string
	endpoints []string // a worker's browser pool
	artifacts string
	// grace is how long running jobs may finish when the process stops
	// (--job-grace).
	grace time.Duration
}

func dataDirFlag() cli.Flag {
	return &cli.StringFlag{Name: "data-dir", EnvVars: env("DATA_DIR"), Value: jobs.DefaultDataDir(),
		Usage: "keep jobs (jobs.db), browser profiles and artifacts in `DIR`"}
}

func jobsDBFlag() cli.Flag {
	return &cli.StringFlag{Name: "jobs-db", EnvVars: env("JOBS_DB"),
		Usage: "keep the job queue in the PostgreSQL database at `URL` (postgres://user:password@host/db, or postgres:///db?host=/var/run/postgresql), shared by every serve and worker of a fleet; default: SQLite in --data-dir"}
}

func jobFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.IntFlag{Name: "max-tabs", EnvVars: env("MAX_TABS"), Value: 4, Usage: "how many tabs jobs may have open at once, all together (with --jobs-db, 0 runs no jobs here: workers do)"},
		&cli.BoolFlag{Name: "no-jobs", EnvVars: env("NO_JOBS"), Usage: "offer no job tools (browser.job.*, browser.snapshot.extract_structured)"},
	}, runFlags()...)
}

// runFlags are what a process that runs jobs is told, serve or worker.
func runFlags() []cli.Flag {
	return []cli.Flag{
		dataDirFlag(),
		jobsDBFlag(),
		&cli.DurationFlag{Name: "job-timeout", EnvVars: env("JOB_TIMEOUT"), Value: 2 * time.Minute, Usage: "bound on a job's run unless its task.timeoutMs says otherwise"},
		&cli.DurationFlag{Name: "lease", EnvVars: env("LEASE"), Value: jobs.DefaultLease, Usage: "with --jobs-db, how long this process holds a job without renewing it (renewed every third); a process that dies loses its jobs to others after it"},
		&cli.StringFlag{Name: "worker-id", EnvVars: env("WORKER_ID"), Usage: "with --jobs-db, this process's `NAME` in the fleet (default host:pid); give a stable one to take back its jobs at once after a restart"},
		&cli.DurationFlag{Name: "job-grace", EnvVars: env("JOB_GRACE"), Value: jobs.DefaultDrainGrace, Usage: "on SIGTERM or SIGINT, how long running jobs may take to finish before the unfinished are handed back to the queue, for another worker or the next start (0: at once; a second signal stops waiting)"},
		&cli.StringFlag{Name: "job-artifacts", EnvVars: env("JOB_ARTIFACTS"), Usage: "`DIR` where jobs write their artifacts (default: --data-dir's artifacts/); in a fleet, one every host mounts at the same path"},
	}
}

func jobsConfigFrom(c *cli.Context) (jobsConfig, error) {
	cfg := jobsConfig{dataDir: c.String("data-dir"), maxTabs: c.Int("max-tabs"), timeout: c.Duration("job-timeout"), disabled: c.Bool("no-jobs"),
		db: c.String("jobs-db"), lease: c.Duration("lease"), worker: c.String("worker-id"), artifacts: c.String("job-artifacts"), grace: c.Duration("job-grace")}
	switch {
	case cfg.grace < 0 || cfg.grace > time.Hour:
		return cfg, fmt.Errorf("--job-grace %s: give 0 (hand running jobs back at once) to 1h (default %s)", cfg.grace, jobs.DefaultDrainGrace)
	case cfg.maxTabs < 0 || (cfg.maxTabs == 0 && cfg.db == ""):
		return cfg, fmt.Errorf("--max-tabs %d: give 1 or more (0, running no jobs here, only with --jobs-db, where workers run them)", cfg.maxTabs)
	case cfg.lease < 3*time.Second || cfg.lease > 10*time.Minute:
		return cfg, fmt.Errorf("--lease %s: give 3s to 10m (default %s)", cfg.lease, jobs.DefaultLease)
	case cfg.db != "" && !strings.HasPrefix(cfg.db, "postgres://") && !strings.HasPrefix(cfg.db, "postgresql://") && !strings.Contains(cfg.db, "="):
		return cfg, fmt.Errorf("--jobs-db %q: give a PostgreSQL URL (postgres://user:password@host:5432/db) or libpq key=value settings (host=/var/run/postgresql dbname=cdpmcp)", redactURL(cfg.db))
	}
	return cfg, nil
}

// redactURL hides a connection string's password for an error message.
func redactURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			return u.String()
		}
	}
	return s
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
	// store is the queue's store: set before the first open when the
	// caller opened it (a worker that waited for its database), else by it.
	store jobs.Store
	err   error
	// liveView is the base URL of the live view, told to the fleet.
	liveView string
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
	if cfg.live != nil {
		h.liveView = cfg.live.BaseURL()
	}
	return h
}

// hasWork reports whether the queue has jobs to take up or run at start, job
// tools or not: the data dir holds a job store, or a fleet's database is
// named (its jobs come to every process that runs jobs).
func (h *horde) hasWork() bool {
	_, err := os.Stat(jobs.DBPath(h.cfg.dataDir))
	return err == nil || h.cfg.db != ""
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
		if h.store != nil {
			_ = h.store.Close()
		}
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var store jobs.Store
	switch {
	case h.store != nil: // opened already: a worker waited for its database
		store = h.store
	case h.cfg.db != "":
		store, err = postgres.Open(ctx, h.cfg.db)
	default:
		store, err = sqlite.Open(ctx, dir.DBPath(), false)
	}
	if err != nil {
		dir.Close()
		return explainStore(dir.DBPath(), err)
	}
	// The queue lives as long as the server: its context is not a request's.
	q, err := jobs.Open(context.Background(), jobs.Config{
		Dir: dir, Store: store, Browser: h.browser, MaxTabs: h.cfg.maxTabs, JobTimeout: h.cfg.timeout,
		ReadOnly: h.readOnly, Origins: h.origins, Version: version, Agent: h.agent, Model: h.model,
		Handoff: h.handoff, HandoffTimeout: h.waitFor,
		Worker: h.cfg.worker, Lease: h.cfg.lease, SubmitOnly: h.cfg.maxTabs == 0, LiveView: h.liveView,
		Endpoints: h.cfg.endpoints, Artifacts: h.cfg.artifacts,
	})
	if err != nil {
		store.Close()
		dir.Close()
		return err
	}
	h.q, h.dir, h.store = q, dir, store
	if h.cfg.db != "" {
		slog.Info("job queue open in PostgreSQL", "worker", q.Worker(), "maxTabs", h.cfg.maxTabs, "dataDir", dir.Path)
	} else {
		slog.Info("job queue open", "dataDir", dir.Path, "maxTabs", h.cfg.maxTabs)
	}
	return nil
}

// waitingLink finds the live view link of the job that waits for a person
// under token, whichever worker of the fleet holds it.
func waitingLink(queue func(context.Context) (*jobs.Queue, error)) liveview.Elsewhere {
	return func(ctx context.Context, token string) string {
		q, err := queue(ctx)
		if err != nil {
			return ""
		}
		waiting, err := q.List(ctx, jobstore.Filter{States: []jobstore.State{jobs.WaitingForHuman}})
		if err != nil {
			return ""
		}
		for _, j := range waiting {
			if strings.HasSuffix(j.HandoffURL, "/live/"+token) {
				return j.HandoffURL
			}
		}
		return ""
	}
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

// stopClaiming has an open queue claim no more jobs (the process stops).
func (h *horde) stopClaiming() {
	select {
	case <-h.ready:
		if h.q != nil {
			h.q.StopClaiming()
		}
	default: // not open: nothing claims
	}
}

// close stops the queue and its browsers, then releases the store and dir.
// Running jobs first get --job-grace to finish, or until a second signal;
// the queue hands back the unfinished ones.
func (h *horde) close() {
	h.once.Do(func() { close(h.ready); h.err = errors.New("shutting down") })
	<-h.ready
	if h.q == nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	stop := hurry()
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	h.q.Drain(ctx, h.cfg.grace)
	cancel()
	_ = h.q.Close()
	_ = h.store.Close()
	_ = h.dir.Close()
}

// notServing stands in for the job queue where cdpmcp only lists its tools.
func notServing(context.Context) (*jobs.Queue, error) {
	return nil, errors.New("jobs run only under cdpmcp serve")
}

// explainStore says what to do about a job store that cannot be opened or
// read: a file that is not one (damaged, or another program's) is left as it
// is, and the user decides.
func explainStore(path string, err error) error {
	msg := err.Error()
	if strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed") || strings.Contains(msg, "corrupt") {
		return fmt.Errorf("%w; %s is not a job store cdpmcp can read (damaged, or another program's file), and was left untouched: "+
			"move it aside to start with an empty store, or pass another --data-dir", err, path)
	}
	return err
}
