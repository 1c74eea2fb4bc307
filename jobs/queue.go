package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// Config says how the queue runs its jobs.
type Config struct {
	// Dir is the data directory (taken with OpenDataDir); Store the job store
	// in it. The queue does not close either.
	Dir   *DataDir
	Store Store
	// Browser says how job browsers are launched (path, flags) or, with an
	// Endpoint, which browser jobs without a profile run in. Job browsers are
	// always headless.
	Browser cdpclient.Options
	// MaxTabs is how many tabs all jobs together may have open (default 4).
	MaxTabs int
	// JobTimeout bounds a job's run unless its task says otherwise (default 2 min).
	JobTimeout time.Duration
	// HandoffTimeout bounds a wait for a person (default 30 min).
	HandoffTimeout time.Duration
	// Agent runs custom jobs; without it they are refused at submit.
	Agent Agent
	// Model, if set, is asked for the schema fields an extraction's rules do
	// not find; only values the page's text states are kept.
	Model agentloop.Model
	// Handoff offers waiting jobs to a person; without it a waiting job's
	// status carries no handoffUrl.
	Handoff Handoff
	// ReadOnly refuses jobs that act on pages (message, login, custom).
	ReadOnly bool
	// Origins is the URL policy checked at submit.
	Origins *origins.List
	// Version names the program in HAR files.
	Version string

	// Worker names this process among those sharing the store (default
	// host:pid); status answers say which worker holds or held a job.
	Worker string
	// Lease is how long this process holds a job (and a profile) without
	// renewing it; it renews every third of it (default 15 s). A process
	// that stops renewing loses its jobs to others: see Open.
	Lease time.Duration
	// SubmitOnly takes jobs and answers for them but runs none here (serve
	// --max-tabs 0 beside workers on a shared store).
	SubmitOnly bool
	// LiveView is the base URL of this process's live view, told to the
	// other processes (empty without one).
	LiveView string
	// browserRetry says how often a job tries to have its browser and tab
	// before it fails (default defaultBrowserRetry; tests shorten it).
	browserRetry browserRetry
	// Endpoints are browsers (CDP endpoints) jobs without a profile run in,
	// each job in the least busy; without them, in the one Browser says.
	// Jobs in a named profile always run in a browser launched here: a
	// profile is a directory on this host.
	Endpoints []string
	// Artifacts is where jobs write their artifacts, a directory per job
	// (default: the data dir's artifacts/). In a fleet, a directory every
	// host mounts at the same path makes a status's paths good everywhere.
	Artifacts string
}

// DefaultLease is how long a job is held without a renewal by default.
const DefaultLease = 15 * time.Second

// Queue is the job horde: it takes jobs, keeps them in the store, runs them
// on tabs under the tab limit by priority, and answers for them.
type Queue struct {
	cfg   Config
	store Store
	fleet *fleet

	ctx    context.Context // the queue's own lifetime: jobs run on it
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	running  map[string]*run
	free     int // tab slots free
	urgent   []chan struct{}
	backlog  bool              // the last claim found a job: more may wait
	secrets  map[string]string // job id → password, in memory only
	lastFree time.Time
	stats    stats
	metrics  *metrics
	wake     chan struct{}
	closed   bool
	draining bool // stopping: no new claims (drain.go)
	door     bool // a front door only (OpenDoor)
	// unsaved are the jobs whose ends the store refused (a full disk), with
	// why, being written again (failure.go).
	unsaved map[string]error
	started time.Time
	// browserGone: on a fleet, this worker's browser could not be found for
	// good; it claims nothing until it is there again (nobrowser.go), and
	// the store hears why (Worker.Paused). renewNow asks keepLeases to
	// renew at once, so that it does.
	browserGone string
	renewNow    chan struct{}
}

// Open starts the queue on ctx, which must outlive every job (it is the
// server's, never a request's). Jobs whose holder went away are taken up, as
// after a restart: queued ones run, navigate and extract jobs that were
// running run again, and jobs that may have had effects (message, login,
// custom) or waited for a person end FAILED "interrupted". A store only this
// process uses (SQLite) has no other holder alive: all its jobs are taken
// up at once; on a shared store they are when their holder's lease ends.
func Open(ctx context.Context, cfg Config) (*Queue, error) {
	if cfg.Dir == nil || cfg.Store == nil {
		return nil, errors.New("jobs: Open needs a data dir and a store")
	}
	if cfg.MaxTabs <= 0 {
		cfg.MaxTabs = 4
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = 2 * time.Minute
	}
	if cfg.HandoffTimeout <= 0 {
		cfg.HandoffTimeout = 30 * time.Minute
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Worker == "" {
		cfg.Worker = DefaultWorker()
	}
	if cfg.Browser.Secrets == nil {
		// One registry for every job browser: what one learns (a password
		// typed, a person's typing in the live view) is redacted everywhere.
		cfg.Browser.Secrets = secrets.New()
	}
	qctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	// Failures of the store name it and say what to do; a local store keeps
	// a reserve on its disk for the ends of jobs (storeguard.go).
	guard := storeGuard{Store: cfg.Store, name: cfg.Dir.DBPath(), dir: cfg.Dir}
	if cfg.Store.Shared() {
		guard.name, guard.dir = "shared by the workers", nil
	}
	store := scrubStore{Store: guard, reg: cfg.Browser.Secrets}
	q := &Queue{
		cfg: cfg, store: store, ctx: qctx, cancel: cancel,
		running: map[string]*run{}, free: cfg.MaxTabs, secrets: map[string]string{},
		wake: make(chan struct{}, 1), renewNow: make(chan struct{}, 1), metrics: newMetrics(), started: time.Now(),
	}
	q.fleet = newFleet(cfg.Browser, cfg.Dir, cfg.MaxTabs, q.profileSync(), cfg.Endpoints)
	if err := q.takeOver(ctx); err != nil {
		cancel()
		return nil, err
	}
	events := cfg.Store.Watch(qctx)
	q.wg.Go(func() { q.watch(events) })
	q.renewSoon() // the fleet knows of this worker from its start, not a third of a lease later
	q.wg.Go(q.keepLeases)
	if !cfg.SubmitOnly {
		q.wg.Go(q.loop)
		q.poke()
	}
	return q, nil
}

// artifactDir is where the artifacts of job (or an extraction) go.
func (q *Queue) artifactDir(t, job string) string {
	if q.cfg.Artifacts != "" {
		if t != tenant.Local {
			return filepath.Join(q.cfg.Artifacts, "tenants", t, job)
		}
		return filepath.Join(q.cfg.Artifacts, job)
	}
	return q.cfg.Dir.ArtifactDir(t, job)
}

// DefaultWorker is this process's default worker name: host:pid.
func DefaultWorker() string {
	host, _ := os.Hostname()
	if host == "" {
		host = "localhost"
	}
	return host + ":" + strconv.Itoa(os.Getpid())
}

// Close stops dispatching, ends running jobs and shuts the job browsers down.
// Navigate and extract jobs that were running stay RUNNING and run again when a
// server next opens the store; the others end FAILED "interrupted". It blocks
// until all of that is done.
func (q *Queue) Close() error {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return nil
	}
	q.closed = true
	if q.door {
		q.mu.Unlock()
		q.cancel()
		return nil
	}
	var effectful, released []*run
	for _, r := range q.running {
		// One still waiting for its browser never started: it stays
		// DISPATCHED and is claimed again, here at the next start or elsewhere.
		// A job waiting for a person loses the tab they had: it ends, as
		// one that may have had effects.
		if t := r.job.Task.Type; (t != TaskNavigate && t != TaskExtract && r.started.Load()) || r.waiting.Load() {
			effectful = append(effectful, r)
		} else if !r.job.HasSecret {
			released = append(released, r)
		}
		r.shutdown.Store(true)
	}
	q.mu.Unlock()
	for _, r := range effectful {
		reason := q.stoppedReason(r)
		// Each write has its own bound: one slow write leaves the next its time.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _ = q.store.UpdateHeld(ctx, r.job.ID, q.cfg.Worker, jobstore.Unfinished, func(j *Job) {
			j.State, j.Error, j.Summary, j.Finished, j.HandoffURL, j.Lease = Failed, reason, reason, time.Now(), "", time.Time{}
		})
		cancel()
	}
	q.cancel()
	q.wg.Wait()
	// Before the browsers close (a profile's save may take seconds): the
	// other processes start these at once.
	for _, r := range released {
		q.handBack(r.job, r.started.Load())
	}
	if len(effectful)+len(released) > 0 {
		slog.Info("stopped with unfinished jobs", "handedBack", len(released), "failed", len(effectful), "worker", q.cfg.Worker)
	}
	q.fleet.close()
	// The jobs left (navigate and extract that ran, a queued job's secret)
	// are taken up at once by the other processes, or by the next start. The
	// bound starts now: waiting for the jobs and browsers above took what it
	// took, and must not eat the time of handing the jobs back.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := q.store.Leave(ctx, q.cfg.Worker); err != nil {
		slog.Warn("could not hand this process's jobs back", "err", err)
	}
	return nil
}

// WaitingTab returns the tab of a job that waits for a person, for the live
// view to show and drive.
func (q *Queue) WaitingTab(id string) (*cdpclient.Page, error) {
	q.mu.Lock()
	r := q.running[id]
	q.mu.Unlock()
	if r == nil {
		return nil, fmt.Errorf("job %s is not running here", id)
	}
	return r.mainTab(), nil
}

// List returns jobs of every tenant changed after revision since, oldest
// change first.
func (q *Queue) List(ctx context.Context, f jobstore.Filter) ([]*Job, error) {
	return q.store.List(ctx, f)
}

// Worker is this process's name among those sharing the store.
func (q *Queue) Worker() string { return q.cfg.Worker }
