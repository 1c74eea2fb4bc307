package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// A worker that starts on a shared store takes over the jobs its name held:
// the holds of a previous process of that name, which a crash or a restart
// left. A process of that name that is still alive (a second worker given
// the same --worker-id by mistake) must keep them: the newcomer waits for the
// name's last renewal to be a lease old, and refuses to start if the name
// renews meanwhile.

// namesakeWait is how often the newcomer looks at the name's renewals while
// it waits.
func (q *Queue) namesakeWait() time.Duration { return q.cfg.Lease / 6 }

// waitOutNamesake returns once no live process holds this worker's name: at
// once when none renewed within a lease, else when the one that did has let
// a lease go by; an error when it renews again (it is alive), or ctx ends.
func (q *Queue) waitOutNamesake(ctx context.Context) error {
	first, err := q.namesake(ctx)
	if err != nil || first == nil {
		return err
	}
	slog.Info("a worker of this name renewed its leases lately: waiting for its lease to run out before taking its jobs over, in case it is still alive",
		"worker", q.cfg.Worker, "renewed", time.Since(first.Seen).Round(time.Second), "lease", q.cfg.Lease)
	deadline := time.Now().Add(q.cfg.Lease + q.cfg.Lease/3)
	for time.Now().Before(deadline) {
		t := time.NewTimer(q.namesakeWait())
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		w, err := q.namesake(ctx)
		switch {
		case err != nil:
			return err
		case w == nil:
			return nil // its last renewal is a lease old: it is gone
		case w.Seen.After(first.Seen):
			return fmt.Errorf("worker id %q is in use: a live worker of that name renewed its leases %s ago (started %s); give this one another --worker-id (each worker needs its own), or stop that one first",
				q.cfg.Worker, time.Since(w.Seen).Round(time.Second), w.Started.Format(time.RFC3339))
		}
	}
	return nil
}

// namesake is the worker of this process's name that renewed within a
// lease, nil if none did.
func (q *Queue) namesake(ctx context.Context) (*jobstore.Worker, error) {
	ws, err := q.store.Workers(ctx, q.cfg.Lease)
	if err != nil {
		return nil, err
	}
	for _, w := range ws {
		if w.ID == q.cfg.Worker {
			return &w, nil
		}
	}
	return nil, nil
}
