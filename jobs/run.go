package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// run is a job being run: its context, its tabs and its way back from a wait.
type run struct {
	q      *Queue
	job    *Job
	ctx    context.Context
	cancel context.CancelFunc
	resume chan string
	budget *budget // the job's time limit, paused while a person helps
	// shutdown is set when the server closes under the job (not a cancel);
	// lost when another process took the job up (this one's lease ended);
	// started once its task started (it had its browser and tab); waiting
	// while it waits for a person.
	shutdown, lost, started, waiting atomic.Bool

	mu    sync.Mutex
	tabs  []*cdpclient.Page // the job's tabs, its own first
	slots int               // tab slots held
}

func newRun(q *Queue, j *Job) *run {
	ctx, cancel := context.WithCancel(q.ctx)
	return &run{q: q, job: j, ctx: ctx, cancel: cancel, resume: make(chan string, 1), slots: 1}
}

func (r *run) mainTab() *cdpclient.Page {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.tabs) == 0 {
		return nil
	}
	return r.tabs[0]
}

// update changes the job, while this process holds it.
func (r *run) update(ctx context.Context, from []State, change func(*Job)) (*Job, error) {
	return r.q.store.UpdateHeld(ctx, r.job.ID, r.q.cfg.Worker, from, change)
}

// deliver wakes a run that waits for a person: the job was resumed with note
// (empty: read it from the job).
func (r *run) deliver(note string) {
	select {
	case r.resume <- note:
	default:
	}
}

// stop cancels the run and closes its tabs, waiting at most wait for them.
func (r *run) stop(wait time.Duration) {
	r.cancel()
	r.mu.Lock()
	tabs := slices.Clone(r.tabs)
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	var wg sync.WaitGroup
	for _, p := range tabs {
		wg.Go(func() { _ = p.Close(ctx) })
	}
	wg.Wait()
}

// execute runs a dispatched job to its end. waited is when its tab came free
// (or it was queued, if later), for the dispatch delay.
func (q *Queue) execute(r *run, waited time.Time) {
	j := r.job
	log := slog.With("job", j.ID)
	var again *Job // queued to run again: its browser died under it
	defer func() {
		r.cancel()
		q.fleet.unreserve(j.Tenant, j.Profile)
		q.mu.Lock()
		delete(q.running, j.ID)
		slots := r.slots
		delete(q.secrets, j.ID)
		q.mu.Unlock()
		for range slots {
			q.releaseSlot()
		}
		if again != nil {
			q.poke() // queued again: the dispatcher claims it like any other
		}
	}()
	q.recordDispatch(time.Since(waited))
	timeout := q.cfg.JobTimeout
	if j.Task.TimeoutMs > 0 {
		timeout = time.Duration(j.Task.TimeoutMs) * time.Millisecond
	}
	ctx := r.ctx

	// The browser and tab first: failing to have them is not the job's
	// (acquire.go), and its attempt counts from its task's start.
	tab, err := q.acquire(ctx, r, j)
	if err != nil {
		if ctx.Err() == nil {
			q.noteBrowserGone(err)
			again = q.finish(r, j, outcome{err: err})
		}
		return
	}
	attempt := 0
	job, err := r.update(ctx, []State{Dispatched, Running}, func(j *Job) {
		j.Attempt++
		attempt = j.Attempt
		if j.Started.IsZero() {
			j.Started = time.Now()
		}
		j.State, j.Progress = Running, 0.1
		j.Summary = "running: starting the task"
		if j.Attempt > 1 {
			j.Summary = fmt.Sprintf("running again after its first run was interrupted (attempt %d)", j.Attempt)
		}
	})
	if err != nil {
		tab.release()
		log.Debug("job not started", "err", err)
		return
	}
	r.started.Store(true)
	log.Info("job running", "type", job.Task.Type, "attempt", attempt, "worker", q.cfg.Worker)
	q.mu.Lock()
	secret := q.secrets[j.ID]
	q.mu.Unlock()

	out := q.runOnTab(ctx, r, job, tab, secret, timeout)
	again = q.finish(r, job, out)
}

// outcome is how a task ended.
type outcome struct {
	summary   string
	result    any
	finalURL  string
	err       error
	artifacts Artifacts
}

// runOnTab runs the task on the job's tab (acquire had it) in its profile,
// records it and collects the artifacts.
func (q *Queue) runOnTab(ctx context.Context, r *run, j *Job, tab *jobTab, secret string, timeout time.Duration) outcome {
	l, bc, seq, page := tab.l, tab.l.bc, tab.seq, tab.page
	r.mu.Lock()
	r.tabs = append(r.tabs, page)
	r.mu.Unlock()
	ctx, budget, cancel := withBudget(ctx, timeout)
	defer cancel()
	r.budget = budget
	rec, err := q.startRecording(ctx, j, page)
	if err != nil {
		_ = closeTab(page)
		l.done(nil)
		return outcome{err: err}
	}
	stopWatch := q.watchTabs(r, bc, seq, rec)
	t := &taskRun{q: q, r: r, job: j, page: page, rec: rec, secret: secret, loadWait: timeout / 2}
	out := t.run(ctx)
	if errors.Is(context.Cause(ctx), errTimedOut) && out.err != nil {
		msg := fmt.Sprintf("timed out after %s", timeout)
		if !errors.Is(out.err, context.Canceled) && !errors.Is(out.err, errTimedOut) {
			msg += ": " + cdpclient.Classify(out.err).Msg
		}
		out.err = &cdpclient.Error{Code: cdpclient.CodeTimeout, Msg: msg, Err: out.err}
	}
	stopWatch()
	if out.finalURL == "" && page.Usable() == nil {
		out.finalURL = page.URL()
	}
	var artErr error
	out.artifacts, artErr = rec.finish(page, finalScreenshot(out.err))
	r.mu.Lock()
	tabs := slices.Clone(r.tabs)
	r.mu.Unlock()
	// A tab whose job ended normally, in a context of its own, can serve the
	// next job once everything it stored is gone.
	var keep *cdpclient.Page
	if j.Profile == "" && len(tabs) == 1 && ctx.Err() == nil && scrubTab(page, append(rec.Origins(), frameOrigins(page)...)) {
		keep = page
	}
	for _, p := range tabs {
		if p != keep {
			_ = closeTab(p)
		}
	}
	// The run no longer holds its tabs: a kept one serves the next job, and
	// stopping this run (a lease check that sees it ended) must not close it.
	r.mu.Lock()
	r.tabs = nil
	r.mu.Unlock()
	l.done(keep)
	if err := rec.encodeVideo(); err != nil && writeFailed(err) && artErr == nil {
		artErr = err
	}
	out.artifacts.Video = rec.videoPath()
	if artErr != nil && out.err == nil {
		out.err = artifactsFailed(rec.dir, artErr)
	}
	return out
}

// finalScreenshot says whether a job ending with err leaves a screenshot of
// its final page: every job does (docs/jobs.md, Artifacts), unless it was
// cancelled.
func finalScreenshot(err error) bool {
	return !errors.Is(err, context.Canceled)
}

// finish records how the job ended, unless it was cancelled meanwhile (then
// only its artifacts are added). A job whose browser died under it follows
// the restart rules; finish returns it when it is to run again.
func (q *Queue) finish(r *run, j *Job, out outcome) *Job {
	ctx, cancel := context.WithTimeout(mayUseReserve(context.Background()), 5*time.Second)
	defer cancel()
	log := slog.With("job", j.ID)
	if r.lost.Load() {
		return nil // another process runs it now
	}
	if r.shutdown.Load() {
		// The server is closing: Close settles effectful jobs; navigate and
		// extract jobs stay RUNNING and run again elsewhere or at the next start.
		_, _ = r.update(ctx, nil, func(j *Job) { j.Artifacts = out.artifacts })
		return nil
	}
	var result []byte
	if out.result != nil {
		result = mustJSON(out.result)
	}
	state, msg := Succeeded, ""
	if out.err != nil {
		state = Failed
		msg = describe(out.err) // the store redacts it
		if r.ctx.Err() == nil && cdpclient.Classify(out.err).Code == cdpclient.CodeBrowserGone {
			again, reason := q.afterBrowserDeath(ctx, j, out)
			if again != nil {
				log.Warn("job queued to run again: its browser died", "attempt", j.Attempt)
				return again
			}
			msg = reason
		}
	}
	// A job whose wait for a person timed out ends from WAITING_FOR_HUMAN,
	// one that never had a browser from DISPATCHED.
	from := []State{Dispatched, Running, WaitingForHuman}
	end := func(j *Job) {
		j.State, j.Finished, j.Artifacts, j.FinalURL, j.Lease = state, time.Now(), out.artifacts, out.finalURL, time.Time{}
		j.Result, j.HandoffURL = result, ""
		if state == Succeeded {
			j.Progress, j.Summary = 1, out.summary
		} else {
			j.Error, j.Summary = msg, "failed: "+msg
		}
	}
	done, err := r.update(ctx, from, end)
	var se *jobstore.StateError
	if errors.As(err, &se) {
		// Cancelled (or given up) while it ran: keep that, add the artifacts.
		_, _ = r.update(ctx, nil, func(j *Job) { j.Artifacts, j.Lease = out.artifacts, time.Time{} })
		log.Info("job stopped", "state", se.State)
		return nil
	}
	if err != nil {
		log.Error("recording a job's end failed; trying again until the store takes it", "err", err)
		q.retryFinish(j.ID, from, end, err)
		return nil
	}
	q.metrics.finished(done)
	var ms int64 // 0 for a job that never started (it had no browser)
	if !done.Started.IsZero() {
		ms = done.Finished.Sub(done.Started).Milliseconds()
	}
	log.Info("job finished", "state", done.State, "ms", ms, "error", done.Error)
	return nil
}

// progress records how far a running job got.
func (r *run) progress(fraction float64, summary string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, _ = r.update(ctx, []State{Running}, func(j *Job) {
		j.Progress, j.Summary = max(j.Progress, min(fraction, 0.99)), summary
	})
}
