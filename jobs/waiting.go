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
