package jobs

import (
	"context"
	"io"
	"sync/atomic"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/prom"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// metrics are this process's measurements for /metrics.
type metrics struct {
	claims, leaseLosses, interrupted atomic.Int64
	// browserRetries counts the times a job could not have its browser or
	// tab and waited to try again (acquire.go).
	browserRetries atomic.Int64
	// claimLatency is from a job being claimable while a tab is free here
	// (or a tab coming free while it waits) to its claim, in seconds.
	claimLatency *prom.Histogram
	// duration is a job's run, from its start to its end, by final state.
	duration map[State]*prom.Histogram
}

func newMetrics() *metrics {
	runs := func() *prom.Histogram { return prom.NewHistogram(0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 1800) }
	return &metrics{
		claimLatency: prom.NewHistogram(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
		duration:     map[State]*prom.Histogram{Succeeded: runs(), Failed: runs(), Cancelled: runs()},
	}
}

// claimed counts a claim; first says the job had not run before (a job
// taken up again became claimable at a time unknown here).
func (m *metrics) claimed(wait time.Duration, first bool) {
	m.claims.Add(1)
	if first {
		m.claimLatency.Observe(wait.Seconds())
	}
}

func (m *metrics) finished(j *Job) {
	if h := m.duration[j.State]; h != nil && !j.Started.IsZero() && !j.Finished.IsZero() {
		h.Observe(j.Finished.Sub(j.Started).Seconds())
	}
}

// WriteMetrics writes the metrics in Prometheus's text format (docs/fleet.md
// says what each means): the jobs by state, the live workers with their
// tabs and how long ago each renewed its leases, the jobs whose holder's
// lease ran out (the whole fleet's, read from the store: the same on every
// process); and this process's open tabs, running jobs, claims, claim
// latency, job durations and lease losses.
func (q *Queue) WriteMetrics(ctx context.Context, w io.Writer) error {
	counts, err := q.store.Counts(ctx)
	if err != nil {
		return err
	}
	// A worker holds a live lease while it renewed within one lease; one
	// killed leaves within a lease. A process that runs no jobs (serve
	// --max-tabs 0) renews nothing and is not a worker.
	workers, err := q.store.Workers(ctx, q.cfg.Lease)
	if err != nil {
		return err
	}
	expired, err := q.store.List(ctx, jobstore.Filter{States: jobstore.Unfinished, Expired: true})
	if err != nil {
		return err
	}
	pw := prom.NewWriter(w)
	var byState []prom.Sample
	for _, st := range []State{Queued, Dispatched, Running, WaitingForHuman, Resumed, Succeeded, Failed, Cancelled} {
		byState = append(byState, prom.Sample{Labels: prom.Labels{"state": string(st)}, Value: float64(counts[st])})
	}
	pw.Family("cdpmcp_jobs", "gauge", "Jobs in the store by state (the whole fleet).", byState...)
	var open, free, age []prom.Sample
	now := time.Now()
	for _, wk := range workers {
		if wk.MaxTabs <= 0 {
			continue // an older serve with --max-tabs 0 still renewed
		}
		l := prom.Labels{"worker": wk.ID}
		open = append(open, prom.Sample{Labels: l, Value: float64(wk.Busy)})
		free = append(free, prom.Sample{Labels: l, Value: float64(max(wk.MaxTabs-wk.Busy, 0))})
		age = append(age, prom.Sample{Labels: l, Value: max(now.Sub(wk.Seen).Seconds(), 0)})
	}
	pw.Family("cdpmcp_workers", "gauge", "Workers that hold a live lease: renewed within one lease (the whole fleet); a process that runs no jobs is not one.", prom.Sample{Value: float64(len(open))})
	pw.Family("cdpmcp_worker_tabs_open", "gauge", "Tab slots in use per live worker, as it last said (the whole fleet).", open...)
	pw.Family("cdpmcp_worker_tabs_free", "gauge", "Tab slots free per live worker, as it last said (the whole fleet).", free...)
	pw.Family("cdpmcp_lease_age_seconds", "gauge", "Seconds since each live worker last renewed its leases (the whole fleet); it renews every third of a lease.", age...)
	pw.Family("cdpmcp_lease_seconds", "gauge", "The lease this process holds jobs under; a worker silent for longer loses its jobs.", prom.Sample{Value: q.cfg.Lease.Seconds()})
	pw.Family("cdpmcp_jobs_lease_expired", "gauge", "Unfinished jobs whose holder's lease ran out and that nobody took up yet (the whole fleet).", prom.Sample{Value: float64(len(expired))})
	me := prom.Labels{"worker": q.cfg.Worker}
	tabs, running := q.openTabs()
	pw.Family("cdpmcp_tabs_open", "gauge", "Tabs open now in this process's job browsers (running jobs' tabs and scrubbed ones kept for the next job).", prom.Sample{Labels: me, Value: float64(tabs)})
	pw.Family("cdpmcp_jobs_running", "gauge", "Jobs this process runs now.", prom.Sample{Labels: me, Value: float64(running)})
	pw.Family("cdpmcp_claims_total", "counter", "Jobs this process claimed.", prom.Sample{Labels: me, Value: float64(q.metrics.claims.Load())})
	pw.Family("cdpmcp_lease_losses_total", "counter", "Running jobs this process lost to another after its lease ran out.",
		prom.Sample{Labels: me, Value: float64(q.metrics.leaseLosses.Load())})
	pw.Family("cdpmcp_jobs_interrupted_total", "counter", "Jobs this process failed as interrupted because their holder went away.",
		prom.Sample{Labels: me, Value: float64(q.metrics.interrupted.Load())})
	pw.Family("cdpmcp_job_browser_retries_total", "counter", "Times a job of this process could not have its browser or tab before its task started, and waited to try again.",
		prom.Sample{Labels: me, Value: float64(q.metrics.browserRetries.Load())})
	pw.Histogram("cdpmcp_claim_latency_seconds", "From a job being claimable with a tab free here to this process claiming it.",
		map[string]prom.HistogramSnapshot{"": q.metrics.claimLatency.Snapshot()}, "")
	durations := map[string]prom.HistogramSnapshot{}
	for st, h := range q.metrics.duration {
		durations[string(st)] = h.Snapshot()
	}
	pw.Histogram("cdpmcp_job_duration_seconds", "Jobs this process ran, from start to end, by final state.", durations, "state")
	return pw.Err()
}

// openTabs counts the tabs open in this process's job browsers and the jobs
// it runs.
func (q *Queue) openTabs() (tabs, running int) {
	q.mu.Lock()
	runs := make([]*run, 0, len(q.running))
	for _, r := range q.running {
		runs = append(runs, r)
	}
	q.mu.Unlock()
	for _, r := range runs {
		r.mu.Lock()
		tabs += len(r.tabs)
		r.mu.Unlock()
	}
	if q.fleet != nil {
		tabs += q.fleet.spareTabs()
	}
	return tabs, len(runs)
}
