package jobs

import (
	"slices"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
)

// watchTabs keeps a job within its tab limits: a tab its pages open (a popup)
// is adopted while the job has fewer than maxTabs and a server-wide slot is
// free, and closed otherwise. In a shared profile context only tabs opened by
// the job's own tabs are its. The returned function stops the watch.
func (q *Queue) watchTabs(r *run, bc *cdpclient.BrowserContext, seq int, rec *recorder) func() {
	done := make(chan struct{})
	var wg sync.WaitGroup
	shared := r.job.Profile != ""
	seen := map[*cdpclient.Page]bool{}
	scan := func() {
		for _, p := range bc.PagesSince(seq) {
			if seen[p] {
				continue
			}
			r.mu.Lock()
			mine := slices.Contains(r.tabs, p)
			opened := slices.ContainsFunc(r.tabs, func(t *cdpclient.Page) bool { return t.TargetID() == p.OpenerID() })
			r.mu.Unlock()
			if mine || (shared && !opened) {
				continue
			}
			seen[p] = true
			r.mu.Lock()
			room := len(r.tabs) < r.job.MaxTabs
			r.mu.Unlock()
			if room && q.tryExtraSlot() {
				r.mu.Lock()
				r.tabs = append(r.tabs, p)
				r.slots++
				r.mu.Unlock()
				rec.Action("tab-opened", map[string]any{"url": p.URL(), "ok": true})
				continue
			}
			rec.Action("tab-opened", map[string]any{"url": p.URL(), "ok": false,
				"note": "closed: the job's maxTabs or the server's --max-tabs is reached"})
			go func() { _ = closeTab(p) }()
		}
	}
	wg.Go(func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-r.ctx.Done():
				return
			case <-tick.C:
				scan()
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		scan() // tabs opened by the task's last step
	}
}
