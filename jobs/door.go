package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// OpenDoor opens a front door on cfg.Store: a queue that takes and answers
// calls (Submit, Status, Wait, Cancel, Resume) and does nothing else. It
// holds no data dir, runs, claims and renews nothing and takes nothing over,
// so it may stand beside the server or the workers that use the store: the
// processes that run jobs hear of what it changes through the store (a new
// job within a second, a cancel or a resume within a third of a lease). It
// is `cdpmcp jobs submit|status|wait|cancel|resume`. A job with a password
// is refused: the password would be known to this process only, and it runs
// nothing. cfg.Dir, the browser and the tab settings are not used.
func OpenDoor(ctx context.Context, cfg Config, storeName string) (*Queue, error) {
	if cfg.Store == nil {
		return nil, errors.New("jobs: OpenDoor needs a store")
	}
	if cfg.Worker == "" {
		cfg.Worker = DefaultWorker()
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Browser.Secrets == nil {
		cfg.Browser.Secrets = secrets.New()
	}
	cfg.SubmitOnly, cfg.MaxTabs, cfg.Dir = true, 0, nil
	qctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	store := scrubStore{Store: storeGuard{Store: cfg.Store, name: storeName}, reg: cfg.Browser.Secrets}
	return &Queue{
		cfg: cfg, store: store, ctx: qctx, cancel: cancel, door: true,
		running: map[string]*run{}, secrets: map[string]string{},
		wake: make(chan struct{}, 1), metrics: newMetrics(), started: time.Now(),
	}, nil
}

// AtRest reports whether a job in state s waits for nothing but a person or
// nothing at all: it has ended, or waits for a person to act.
func AtRest(s State) bool { return s.Terminal() || s == WaitingForHuman }

// waitPoll is how often Wait reads the job besides the store's events,
// which are hints (and do not cross processes on SQLite).
const waitPoll = 500 * time.Millisecond

// Wait waits until job id of ctx's tenant is at rest (AtRest: ended, or
// waiting for a person) and returns it. ctx's deadline is the wait's: when
// ctx ends first it returns the job as it was last read, with ctx's error. A
// store that cannot be reached for a while (a database restarting:
// jobstore.Unreachable) does not end the wait, which reads the job again
// until ctx ends; if the store has not answered since, it returns the job as
// last read (nil if never) with an error saying how long the store was
// unreachable. Any other failure to read the job ends it at once.
func (q *Queue) Wait(ctx context.Context, id string) (*Job, error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := q.store.Watch(wctx)
	tick := time.NewTicker(waitPoll)
	defer tick.Stop()
	var (
		last *Job
		cut  storeCut
	)
	for {
		j, err := q.Status(ctx, id)
		switch {
		case err == nil:
			cut.answered(id)
			if AtRest(j.State) {
				return j, nil
			}
			last = j
		case ctx.Err() != nil && (last != nil || cut.since != (time.Time{})):
			return last, cut.ended(ctx, last)
		case jobstore.Unreachable(err):
			cut.failed(id, err)
		default:
			return nil, err
		}
	wake:
		for {
			select {
			case <-ctx.Done():
				return last, cut.ended(ctx, last)
			case <-tick.C:
				break wake
			case e, ok := <-events:
				if !ok {
					events = nil // the stream ended with wctx: poll only
				} else if e.ID == id {
					break wake
				}
			}
		}
	}
}

// storeCut follows a wait through a store that does not answer: since when
// it has not (zero while it answers), and its last error.
type storeCut struct {
	since time.Time
	err   error
}

func (c *storeCut) failed(id string, err error) {
	if c.since.IsZero() {
		c.since = time.Now()
		slog.Warn("the job store could not be reached; the wait goes on trying until its deadline", "job", id, "err", err)
	}
	c.err = err
}

func (c *storeCut) answered(id string) {
	if !c.since.IsZero() {
		slog.Info("the job store answers again; the wait goes on", "job", id, "unreachableFor", time.Since(c.since).Round(time.Millisecond))
		c.since, c.err = time.Time{}, nil
	}
}

// ended is the error of a wait that ctx ended: ctx's, unless the store had
// not answered since it failed; then what the store said, for how long, and
// what the job was when last read.
func (c *storeCut) ended(ctx context.Context, last *Job) error {
	if c.since.IsZero() {
		return ctx.Err()
	}
	was := "its state is unknown: the store did not answer any read of it"
	if last != nil {
		was = fmt.Sprintf("it was %s when last read", last.State)
	}
	msg, hint := c.err.Error(), unreachableHint
	var ce *cdpclient.Error
	if errors.As(c.err, &ce) {
		msg = ce.Msg
	}
	slog.Warn("a wait ended while the job store could not be reached", "unreachableFor", time.Since(c.since).Round(time.Millisecond), "err", c.err)
	return &cdpclient.Error{Code: cdpclient.CodeInternal, Err: c.err, Hint: hint + "; the job goes on meanwhile: wait for it again",
		Msg: fmt.Sprintf("%s (for the last %s of the wait, until it ended; %s)", msg, time.Since(c.since).Round(100*time.Millisecond), was)}
}
