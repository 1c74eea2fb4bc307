package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/secrets"
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
// waiting for a person) and returns it. When ctx ends first it returns the
// job as it was last read, with ctx's error.
func (q *Queue) Wait(ctx context.Context, id string) (*Job, error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := q.store.Watch(wctx)
	tick := time.NewTicker(waitPoll)
	defer tick.Stop()
	var last *Job
	for {
		j, err := q.Status(ctx, id)
		switch {
		case err != nil && last != nil && ctx.Err() != nil:
			return last, ctx.Err()
		case err != nil:
			return nil, err
		case AtRest(j.State):
			return j, nil
		}
		last = j
	wake:
		for {
			select {
			case <-ctx.Done():
				return last, ctx.Err()
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
