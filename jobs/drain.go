package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// DefaultDrainGrace is how long a stopping process lets its running jobs
// finish by default: under Kubernetes' default 30 s between SIGTERM and
// SIGKILL, with time left to hand back the rest and close the browsers
// (Sidekiq's default is the same).
const DefaultDrainGrace = 25 * time.Second

// Drain is the first half of a graceful stop (SIGTERM): the queue claims no
// more jobs, and the running ones get until grace runs out, or ctx ends (a
// second signal), to finish. Jobs waiting for a person are not waited for: a
// person's wait outlasts any grace. Close then hands back what is left.
func (q *Queue) Drain(ctx context.Context, grace time.Duration) {
	q.StopClaiming()
	q.mu.Lock()
	closed := q.closed || q.door
	q.mu.Unlock()
	if closed {
		return
	}
	start := time.Now()
	running := q.busyRuns()
	if running == 0 || grace <= 0 {
		return
	}
	slog.Info("stopping: taking no new jobs; the running ones may finish, then the unfinished go back to the queue for another worker",
		"running", running, "grace", grace, "worker", q.cfg.Worker, "now", "a second SIGTERM or SIGINT stops waiting")
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			slog.Info("stopping now: told again while jobs ran", "unfinished", q.busyRuns(), "waited", time.Since(start).Round(time.Millisecond))
			return
		case <-deadline.C:
			slog.Info("stopping: the grace ran out with jobs unfinished", "unfinished", q.busyRuns(), "grace", grace)
			return
		case <-tick.C:
			if q.busyRuns() == 0 {
				slog.Info("stopping: the running jobs finished", "waited", time.Since(start).Round(time.Millisecond))
				return
			}
		}
	}
}

// StopClaiming has the queue claim no more jobs: the process stops (a
// signal), and what it would claim now another worker runs.
func (q *Queue) StopClaiming() {
	q.mu.Lock()
	q.draining = true
	q.mu.Unlock()
	// The fleet hears of it at once: a queued job's status then says
	// why this worker takes none (waiting.go).
	q.renewSoon()
}

// busyRuns counts the runs a drain waits for: all but those waiting for a
// person.
func (q *Queue) busyRuns() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := 0
	for _, r := range q.running {
		if !r.waiting.Load() {
			n++
		}
	}
	return n
}

// handBack gives a job this process holds back to the queue as it stops:
// no process holds it, so another claims it at once (the store tells them).
// Its state stays (states never go back) and a run it began is not counted
// as one of its runs: it did not fail, its process stopped.
func (q *Queue) handBack(j *Job, started bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	summary := fmt.Sprintf(handedBackPrefix+"%s stopped before it finished (not counted as a run); it waits for a free tab to run from the start", q.who())
	if !started {
		summary = fmt.Sprintf(handedBackPrefix+"%s stopped before it started; it waits for a free tab", q.who())
	}
	_, err := q.store.UpdateHeld(ctx, j.ID, q.cfg.Worker, []State{Dispatched, Running}, func(j *Job) {
		if started && j.Attempt > 0 {
			j.Attempt--
		}
		j.Lease, j.Summary, j.Progress = time.Time{}, summary, min(j.Progress, 0.05)
	})
	if err != nil {
		// Leave ends its lease anyway: it is taken up a third of a lease later.
		slog.Warn("could not hand a job back at once", "job", j.ID, "err", err)
		return
	}
	slog.Info("job handed back to the queue: this process stops", "job", j.ID, "type", j.Task.Type, "worker", q.cfg.Worker)
}

// handedBackPrefix starts the summary of a job handed back (handBack).
const handedBackPrefix = "queued to run again, handed back: "

// who names this process in a job's summary or error.
func (q *Queue) who() string {
	if q.store.Shared() {
		return "worker " + q.cfg.Worker
	}
	return "the server"
}

// stoppedReason is the error of a job that may have had effects and was
// still running when this process stopped: it is not run twice.
func (q *Queue) stoppedReason(r *run) string {
	if r.waiting.Load() {
		return fmt.Sprintf("interrupted: %s stopped while the job waited for a person, and the tab they had went with it; submit it again with a new correlationId", q.who())
	}
	return fmt.Sprintf("interrupted: %s stopped while the job ran; a %s job is not run twice because it may already have had effects; submit it again with a new correlationId if it should",
		q.who(), r.job.Task.Type)
}
