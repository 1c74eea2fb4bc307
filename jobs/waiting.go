package jobs

import (
	"context"
	"fmt"
	"strings"
)

// whyWaiting says why no worker of a fleet takes jobs now, when none does:
// none is alive (none renewed its lease in four leases), or every live one
// is paused (jobstore.Worker.Paused: its browser cannot be found). It is ""
// while one takes jobs, and on a store of this process alone, which runs
// them itself. A queued job's status adds it, so that a client waiting on
// a fleet that runs nothing hears so rather than "queued" for ever.
func (q *Queue) whyWaiting(ctx context.Context) string {
	if !q.store.Shared() {
		return ""
	}
	// Other workers may hold longer leases than this process (--lease),
	// renewed a third of theirs apart: the window is wide, so that a live
	// one is never missed (a gone one counts a while longer: nothing said).
	window := 4 * max(q.cfg.Lease, DefaultLease)
	ws, err := q.store.Workers(ctx, window)
	if err != nil {
		return ""
	}
	var paused []string
	for _, w := range ws {
		if w.MaxTabs <= 0 {
			continue
		}
		if w.Paused == "" {
			return ""
		}
		paused = append(paused, w.ID+": "+w.Paused)
	}
	if len(paused) == 0 {
		return fmt.Sprintf("no worker takes jobs: none renewed its lease in the last %s; start one (cdpmcp worker --jobs-db, on the same store)", window)
	}
	if len(paused) > 3 {
		paused = append(paused[:3], fmt.Sprintf("and %d more", len(paused)-3))
	}
	return "no worker takes jobs now: " + strings.Join(paused, "; ")
}

// takenUp reports whether j was taken up after its holder went away, and
// waits to be claimed again: the store keeps its state (DISPATCHED or
// RUNNING: states never go back) and the summary its last holder wrote
// ("loading …"), but no process holds it (a run always holds its job's
// lease; the take-up clears it).
func takenUp(j *Job) bool {
	return (j.State == Dispatched || j.State == Running) && j.Lease.IsZero()
}

// queuedAgain is the summary of a job taken up: who went away, and that it
// waits for a free tab to run again.
func (q *Queue) queuedAgain(j *Job) string {
	if strings.HasPrefix(j.Summary, handedBackPrefix) {
		return j.Summary // its process stopped gracefully and said so (handBack)
	}
	who := "the server"
	if q.store.Shared() && j.Worker != "" {
		who = "worker " + j.Worker
	}
	if j.State == Dispatched {
		return fmt.Sprintf("queued to run again: %s went away before it started; it waits for a free tab", who)
	}
	return fmt.Sprintf("queued to run again: %s went away while it ran (attempt %d); it waits for a free tab to run from the start", who, j.Attempt)
}
