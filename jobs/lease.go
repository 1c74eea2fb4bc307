package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// takeOver ends the holds of processes that went away before this one
// starts: on a store of its own every other holder is gone (the data dir's
// lock says so); on a shared one, a previous process with this worker name,
// once it is sure that one is gone (namesake.go).
func (q *Queue) takeOver(ctx context.Context) error {
	gone := []string{q.cfg.Worker}
	if q.store.Shared() && !q.cfg.SubmitOnly {
		if err := q.waitOutNamesake(ctx); err != nil {
			return err
		}
	}
	if !q.store.Shared() {
		ws, err := q.store.Workers(ctx, 100*365*24*time.Hour)
		if err != nil {
			return err
		}
		for _, w := range ws {
			gone = append(gone, w.ID)
		}
		// A process killed before it first said it was alive holds jobs
		// too: on a store of this process alone, every holder is gone.
		held, err := q.store.List(ctx, jobstore.Filter{States: jobstore.Unfinished})
		if err != nil {
			return err
		}
		for _, j := range held {
			if j.Worker != "" && !slices.Contains(gone, j.Worker) {
				gone = append(gone, j.Worker)
			}
		}
	}
	for _, w := range gone {
		if err := q.store.Leave(ctx, w); err != nil {
			return err
		}
	}
	return q.reap(ctx)
}

// reap takes up the jobs whose holder stopped renewing its lease: they may
// be claimed again if they never started or can run twice (navigate and
// extract without effects), else they end FAILED "interrupted".
func (q *Queue) reap(ctx context.Context) error {
	left, err := q.store.List(ctx, jobstore.Filter{States: jobstore.Unfinished, Expired: true})
	if err != nil {
		return err
	}
	for _, j := range left {
		rerun := j.State == Dispatched ||
			(j.State == Running && !j.Effects && (j.Task.Type == TaskNavigate || j.Task.Type == TaskExtract))
		if j.HasSecret {
			rerun = false // its password was in the lost holder's memory
		}
		// A page that brings down each process that runs it would otherwise
		// go round the fleet for ever, as one that kills its browser would
		// (maxRuns, afterBrowserDeath).
		tooMany := rerun && j.State == Running && j.Attempt >= maxRuns
		change := func(j *Job) { j.Lease = time.Time{} }
		if rerun && !tooMany {
			slog.Info("job taken up after its holder went away", "job", j.ID, "state", j.State, "worker", j.Worker)
		} else {
			reason := q.interrupted(j)
			if tooMany {
				reason = q.interruptedEachRun(j)
			}
			if j.Task.Type == TaskCustom {
				// The agent's run died with its holder: its report is made
				// from its record, and the job says where.
				if made := agentloop.RecoverReports(q.artifactDir(j.Tenant, j.ID)); len(made) > 0 {
					reason += "; the agent's report of what it did until then: " + made[len(made)-1]
				}
			}
			slog.Info("job failed after its holder went away", "job", j.ID, "state", j.State, "worker", j.Worker)
			change = func(j *Job) {
				j.State, j.Error, j.Summary, j.Finished, j.HandoffURL, j.Lease = Failed, reason, reason, time.Now(), "", time.Time{}
			}
		}
		if _, err := q.store.UpdateExpired(ctx, j.ID, j.Worker, change); err != nil && !errors.Is(err, jobstore.ErrNotHeld) {
			return err
		}
		if !rerun || tooMany {
			q.metrics.interrupted.Add(1)
		}
	}
	return nil
}

// interrupted says why a job whose holder went away failed.
func (q *Queue) interrupted(j *Job) string {
	who := "the server stopped"
	if q.store.Shared() {
		who = fmt.Sprintf("worker %s stopped (its lease ran out)", j.Worker)
	}
	if j.HasSecret && (j.State == Queued || j.State == Dispatched) {
		return "interrupted: " + who + " and the job's password, held in its memory only, is gone; submit it again"
	}
	if j.State == WaitingForHuman || j.State == Resumed {
		return "interrupted: " + who + " while the job waited for a person, and the tab they had went with it; submit it again with a new correlationId"
	}
	return "interrupted: " + who + " while the job ran; a " + j.Task.Type + " job is not run twice because it may already have had effects; submit it again with a new correlationId if it should"
}

// interruptedEachRun says why a job whose holder went away in each of its
// maxRuns runs failed.
func (q *Queue) interruptedEachRun(j *Job) string {
	who := "the server stopped"
	if q.store.Shared() {
		who = "its worker stopped (its lease ran out)"
	}
	return fmt.Sprintf("interrupted: %s while it ran, in each of its %d runs (the last on %s); it is not run again, in case the page is what brings them down; submit it again with a new correlationId if it should run",
		who, j.Attempt, j.Worker)
}

// keepLeases renews this process's leases every third of their length,
// stops the runs it lost (cancelled elsewhere, or taken up by another
// process after a renewal failed), and on a shared store takes up the jobs of
// processes that went away.
func (q *Queue) keepLeases() {
	tick := time.NewTicker(q.cfg.Lease / 3)
	defer tick.Stop()
	up := storeUp{since: time.Now()}
	for {
		ticked := false
		select {
		case <-q.ctx.Done():
			return
		case <-tick.C:
			ticked = true
		case <-q.renewNow: // a renewal alone (renewSoon)
		}
		if !q.cfg.SubmitOnly {
			// A process that runs no jobs holds no lease: it is no worker.
			q.noteStore(&up, q.renew())
		}
		if ticked && q.store.Shared() {
			ctx, cancel := context.WithTimeout(q.ctx, q.cfg.Lease)
			if up.steady(q.cfg.Lease) {
				err := q.reap(ctx)
				if err != nil && q.ctx.Err() == nil {
					slog.Warn("could not take up the jobs of workers that went away", "err", err)
				}
				q.noteStore(&up, err)
			} else {
				_, err := q.store.Workers(ctx, q.cfg.Lease) // does it answer?
				q.noteStore(&up, err)
			}
			cancel()
			q.poke() // a job released, or a profile: try to claim
		}
	}
}

// renewSoon has keepLeases renew at once: the store hears of a change in
// this worker (a pause) before the next tick.
func (q *Queue) renewSoon() {
	select {
	case q.renewNow <- struct{}{}:
	default:
	}
}

// noteStore notes a lease call's outcome in up, and logs the wait when the
// store comes back after failing.
func (q *Queue) noteStore(up *storeUp, err error) {
	if up.answered(err) && q.store.Shared() && !up.waited {
		up.waited = true
		slog.Info("the job store answers again: the jobs of workers that went away are taken up once it has answered for a whole lease, so that live workers renew theirs first",
			"lease", q.cfg.Lease)
	}
}

// renew extends the leases and reconciles the runs with what the store says.
func (q *Queue) renew() error {
	// Late is still in time while the lease lasts; the next tick tries again.
	ctx, cancel := context.WithTimeout(q.ctx, q.cfg.Lease/2)
	defer cancel()
	q.mu.Lock()
	busy := q.cfg.MaxTabs - q.free
	q.mu.Unlock()
	held, err := q.store.Renew(ctx, jobstore.Worker{ID: q.cfg.Worker, LiveView: q.cfg.LiveView, MaxTabs: q.cfg.MaxTabs, Busy: busy,
		Started: q.started, Version: q.cfg.Version, Paused: q.paused()}, q.cfg.Lease)
	if err != nil {
		if q.ctx.Err() == nil {
			slog.Warn("could not renew the job leases", "err", err)
		}
		return err
	}
	q.mu.Lock()
	var lost []*run
	for id, r := range q.running {
		if st, ok := held[id]; !ok {
			lost = append(lost, r)
		} else if st == Resumed {
			r.deliver("")
		}
	}
	q.mu.Unlock()
	for _, r := range lost {
		j, err := q.store.Get(ctx, r.job.ID)
		if err != nil || j.State.Terminal() || r.ctx.Err() != nil {
			if err == nil && j.State.Terminal() && r.ctx.Err() == nil {
				if j.State == Failed && strings.HasPrefix(j.Error, "interrupted: ") {
					// Ended by another process, which took this one for gone.
					slog.Warn("lost the lease of a running job: another process ended it as interrupted", "job", j.ID)
					q.metrics.leaseLosses.Add(1)
					r.lost.Store(true)
				}
				r.stop(700 * time.Millisecond) // cancelled or given up elsewhere
			}
			continue
		}
		if j.Worker != q.cfg.Worker || j.Lease.IsZero() {
			slog.Warn("lost the lease of a running job: another process took it up", "job", j.ID, "holder", j.Worker)
			q.metrics.leaseLosses.Add(1)
			r.lost.Store(true)
			r.stop(700 * time.Millisecond)
		}
	}
	return nil
}

// watch acts on the store's events: a job to claim wakes the dispatcher; a
// job this process runs that was cancelled or resumed elsewhere stops or
// goes on.
func (q *Queue) watch(events <-chan jobstore.Event) {
	for e := range events {
		if e.Claimable {
			q.poke()
			continue
		}
		if e.Worker != q.cfg.Worker {
			continue
		}
		q.mu.Lock()
		r := q.running[e.ID]
		q.mu.Unlock()
		if r == nil {
			continue
		}
		switch e.State {
		case Cancelled, Failed:
			if q.cfg.Handoff != nil {
				q.cfg.Handoff.Withdraw(e.ID)
			}
			go r.stop(700 * time.Millisecond)
		case Resumed:
			if q.cfg.Handoff != nil {
				q.cfg.Handoff.Withdraw(e.ID)
			}
			r.deliver("")
		}
	}
}

// resumed hands the note to the run of a job resumed through this process,
// if it runs here.
func (q *Queue) resumed(id, note string) {
	q.mu.Lock()
	r := q.running[id]
	q.mu.Unlock()
	if r != nil {
		r.deliver(note)
	}
}
