package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// The calls a client makes about a job it submitted, through any process
// sharing the store: the process that holds the job hears of a change
// through the store (see watch).

// owned returns the job with the given id if it belongs to ctx's tenant;
// another tenant's job is ErrNotFound, as an id never given out.
func (q *Queue) owned(ctx context.Context, id string) (*Job, error) {
	j, err := q.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if j.Tenant != tenant.Of(ctx) {
		return nil, jobstore.ErrNotFound
	}
	return j, nil
}

// Status returns the job with the given id, if it is ctx's tenant's.
func (q *Queue) Status(ctx context.Context, id string) (*Job, error) {
	j, err := q.owned(ctx, id)
	if err != nil {
		return nil, err
	}
	j = q.withUnsaved(j) // an end the store has not taken yet (a full disk)
	switch {
	case j.State == Queued && j.Lease.IsZero():
		if ahead, err := q.store.Ahead(ctx, j); err == nil {
			j.Summary = fmt.Sprintf("queued: %d job(s) ahead of it", ahead)
		}
		if why := q.whyWaiting(ctx); why != "" {
			j.Summary += "; " + why
		}
	case takenUp(j):
		j.Summary = q.queuedAgain(j)
		if why := q.whyWaiting(ctx); why != "" {
			j.Summary += "; " + why
		}
	}
	return j, nil
}

// Cancel cancels an unfinished job of ctx's tenant: a queued one never runs,
// a running or waiting one is stopped and its tabs are closed. Cancelling a
// cancelled job again answers it as it is; cancelling a job that ended
// otherwise is a *StateError and changes nothing.
func (q *Queue) Cancel(ctx context.Context, id, reason string) (*Job, error) {
	if _, err := q.owned(ctx, id); err != nil {
		return nil, err
	}
	summary := "cancelled"
	if reason != "" {
		summary += ": " + reason
	}
	j, err := q.store.Update(ctx, id, jobstore.Unfinished, func(j *Job) {
		j.State, j.Summary, j.Finished, j.HandoffURL = Cancelled, summary, time.Now(), ""
	})
	if se := (*jobstore.StateError)(nil); errors.As(err, &se) && se.State == Cancelled {
		// A cancel retried (its first answer lost) finds the job
		// cancelled: answered as then, nothing changed.
		return q.store.Get(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	slog.Info("job cancelled", "job", id, "reason", reason)
	q.mu.Lock()
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
	q.resumed(id, note) // the holder hears of it through the store otherwise
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
