package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/internal/tenant"
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
}

// Queue is the job horde: it takes jobs, keeps them in the store, runs them
// on tabs under the tab limit by priority, and answers for them.
type Queue struct {
	cfg   Config
	store Store
	fleet *fleet
	key   []byte // keys idempotency hashes

	ctx    context.Context // the queue's own lifetime: jobs run on it
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	pending  pendingHeap
	running  map[string]*run
	free     int // tab slots free
	urgent   []chan struct{}
	secrets  map[string]string // job id → password, in memory only
	lastFree time.Time
	stats    stats
	wake     chan struct{}
	closed   bool
}

// Open starts the queue on ctx, which must outlive every job (it is the
// server's, never a request's). Jobs that a previous server left unfinished are
// taken up: queued ones run, navigate and extract jobs that were running run
// again, and jobs that may have had effects (message, login, custom) end
// FAILED "interrupted".
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
	if cfg.Browser.Secrets == nil {
		// One registry for every job browser: what one learns (a password
		// typed, a person's typing in the live view) is redacted everywhere.
		cfg.Browser.Secrets = secrets.New()
	}
	key, err := cfg.Dir.secretKey()
	if err != nil {
		return nil, err
	}
	qctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	q := &Queue{
		cfg: cfg, store: scrubStore{Store: cfg.Store, reg: cfg.Browser.Secrets}, fleet: newFleet(cfg.Browser, cfg.Dir, cfg.MaxTabs), key: key,
		ctx: qctx, cancel: cancel,
		running: map[string]*run{}, free: cfg.MaxTabs, secrets: map[string]string{},
		wake: make(chan struct{}, 1),
	}
	if err := q.recover(ctx); err != nil {
		cancel()
		return nil, err
	}
	q.wg.Go(q.loop)
	q.poke()
	return q, nil
}

// recover takes up the jobs a previous server left unfinished.
func (q *Queue) recover(ctx context.Context) error {
	left, err := q.store.List(ctx, Filter{States: Unfinished})
	if err != nil {
		return err
	}
	for _, j := range left {
		rerun := j.State == Queued || j.State == Dispatched ||
			(j.State == Running && !j.Effects && (j.Task.Type == TaskNavigate || j.Task.Type == TaskExtract))
		if rerun && j.HasSecret {
			rerun = false // its password was in the dead server's memory
		}
		if rerun {
			slog.Info("job taken up after a restart", "job", j.ID, "state", j.State)
			q.pending.push(j)
			continue
		}
		reason := "interrupted: the server stopped while the job ran; a " + j.Task.Type + " job is not run twice because it may already have had effects; submit it again with a new correlationId if it should"
		if j.HasSecret && (j.State == Queued || j.State == Dispatched) {
			reason = "interrupted: the server restarted and the job's password, held in memory only, is gone; submit it again"
		}
		slog.Info("job failed after a restart", "job", j.ID, "state", j.State)
		if _, err := q.store.Update(ctx, j.ID, []State{j.State}, func(j *Job) {
			j.State, j.Error, j.Summary, j.Finished, j.HandoffURL = Failed, reason, reason, time.Now(), ""
		}); err != nil {
			return err
		}
	}
	return nil
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
	var effectful []*run
	for _, r := range q.running {
		if t := r.job.Task.Type; t != TaskNavigate && t != TaskExtract {
			effectful = append(effectful, r)
		}
		r.shutdown.Store(true)
	}
	q.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, r := range effectful {
		reason := "interrupted: the server shut down while the job ran"
		_, _ = q.store.Update(ctx, r.job.ID, Unfinished, func(j *Job) {
			j.State, j.Error, j.Summary, j.Finished, j.HandoffURL = Failed, reason, reason, time.Now(), ""
		})
	}
	q.cancel()
	q.wg.Wait()
	q.fleet.close()
	return nil
}

// owned returns the job with the given id if it belongs to ctx's tenant;
// another tenant's job is ErrNotFound, as an id never given out.
func (q *Queue) owned(ctx context.Context, id string) (*Job, error) {
	j, err := q.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if j.Tenant != tenant.Of(ctx) {
		return nil, ErrNotFound
	}
	return j, nil
}

// Status returns the job with the given id, if it is ctx's tenant's.
func (q *Queue) Status(ctx context.Context, id string) (*Job, error) {
	j, err := q.owned(ctx, id)
	if err != nil {
		return nil, err
	}
	if j.State == Queued {
		if ahead := q.ahead(j); ahead >= 0 {
			j.Summary = fmt.Sprintf("queued: %d job(s) ahead of it", ahead)
		}
	}
	return j, nil
}

// Cancel cancels an unfinished job of ctx's tenant: a queued one never runs,
// a running or waiting one is stopped and its tabs are closed. Cancelling a
// finished job is a *StateError and changes nothing.
func (q *Queue) Cancel(ctx context.Context, id, reason string) (*Job, error) {
	if _, err := q.owned(ctx, id); err != nil {
		return nil, err
	}
	summary := "cancelled"
	if reason != "" {
		summary += ": " + reason
	}
	j, err := q.store.Update(ctx, id, Unfinished, func(j *Job) {
		j.State, j.Summary, j.Finished, j.HandoffURL = Cancelled, summary, time.Now(), ""
	})
	if err != nil {
		return nil, err
	}
	slog.Info("job cancelled", "job", id, "reason", reason)
	q.mu.Lock()
	q.pending.remove(id)
	r := q.running[id]
	delete(q.secrets, id)
	q.mu.Unlock()
	if r != nil {
		r.stop(700 * time.Millisecond)
	}
	if q.cfg.Handoff != nil {
		q.cfg.Handoff.Withdraw(id)
	}
	return j, nil
}

// Resume tells a job of ctx's tenant waiting for a person that the person is
// done; it goes on in the same tab. note is kept with the job. Resuming a job
// that is not WAITING_FOR_HUMAN is a *StateError and changes nothing.
func (q *Queue) Resume(ctx context.Context, id, note string) (*Job, error) {
	if _, err := q.owned(ctx, id); err != nil {
		return nil, err
	}
	q.mu.Lock()
	r := q.running[id]
	q.mu.Unlock()
	j, err := q.store.Update(ctx, id, []State{WaitingForHuman}, func(j *Job) {
		j.State, j.Note, j.HandoffURL, j.Summary = Resumed, note, "", "resumed after a person's help"
	})
	if err != nil {
		return nil, err
	}
	slog.Info("job resumed", "job", id)
	if q.cfg.Handoff != nil {
		q.cfg.Handoff.Withdraw(id)
	}
	if r != nil {
		select {
		case r.resume <- note:
		default:
		}
	}
	return j, nil
}

// GiveUp fails a job that waits for a person, with the person's reason (the
// live view's "Give up": its link is the person's key, whoever's the job is).
func (q *Queue) GiveUp(ctx context.Context, id, reason string) (*Job, error) {
	msg := "a person gave up"
	if reason != "" {
		msg += ": " + reason
	}
	j, err := q.store.Update(ctx, id, []State{WaitingForHuman}, func(j *Job) {
		j.State, j.Error, j.Summary, j.Finished, j.HandoffURL = Failed, msg, msg, time.Now(), ""
	})
	if err != nil {
		return nil, err
	}
	q.mu.Lock()
	r := q.running[id]
	q.mu.Unlock()
	if r != nil {
		r.stop(700 * time.Millisecond)
	}
	return j, nil
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
func (q *Queue) List(ctx context.Context, f Filter) ([]*Job, error) { return q.store.List(ctx, f) }
