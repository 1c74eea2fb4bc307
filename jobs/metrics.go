package jobs

import (
	"context"
	"io"
	"sync/atomic"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/prom"
)

// metrics are this process's measurements for /metrics.
type metrics struct {
	claims, leaseLosses, interrupted atomic.Int64
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

// WriteMetrics writes the metrics in Prometheus's text format: the jobs by
// state and the live workers with their tabs (the whole fleet's, read from the
// store: the same on every process), and this process's claims, claim
// latency, job durations and lease losses.
func (q *Queue) WriteMetrics(ctx context.Context, w io.Writer) error {
	counts, err := q.store.Counts(ctx)
	if err != nil {
		return err
	}
	workers, err := q.store.Workers(ctx, 3*q.cfg.Lease)
	if err != nil {
		return err
	}
	pw := prom.NewWriter(w)
	var byState []prom.Sample
	for _, st := range []State{Queued, Dispatched, Running, WaitingForHuman, Resumed, Succeeded, Failed, Cancelled} {
		byState = append(byState, prom.Sample{Labels: prom.Labels{"state": string(st)}, Value: float64(counts[st])})
	}
	pw.Family("cdpmcp_jobs", "gauge", "Jobs in the store by state (the whole fleet).", byState...)
	var open, free []prom.Sample
	for _, wk := range workers {
		l := prom.Labels{"worker": wk.ID}
		open = append(open, prom.Sample{Labels: l, Value: float64(wk.Busy)})
		free = append(free, prom.Sample{Labels: l, Value: float64(max(wk.MaxTabs-wk.Busy, 0))})
	}
	pw.Family("cdpmcp_workers", "gauge", "Workers that renewed their leases lately (the whole fleet).", prom.Sample{Value: float64(len(workers))})
	pw.Family("cdpmcp_worker_tabs_open", "gauge", "Tab slots in use per worker, as it last said (the whole fleet).", open...)
	pw.Family("cdpmcp_worker_tabs_free", "gauge", "Tab slots free per worker, as it last said (the whole fleet).", free...)
	me := prom.Labels{"worker": q.cfg.Worker}
	pw.Family("cdpmcp_claims_total", "counter", "Jobs this process claimed.", prom.Sample{Labels: me, Value: float64(q.metrics.claims.Load())})
	pw.Family("cdpmcp_lease_losses_total", "counter", "Running jobs this process lost to another after its lease ran out.",
		prom.Sample{Labels: me, Value: float64(q.metrics.leaseLosses.Load())})
	pw.Family("cdpmcp_jobs_interrupted_total", "counter", "Jobs this process failed as interrupted because their holder went away.",
		prom.Sample{Labels: me, Value: float64(q.metrics.interrupted.Load())})
	pw.Histogram("cdpmcp_claim_latency_seconds", "From a job being claimable with a tab free here to this process claiming it.",
		map[string]prom.HistogramSnapshot{"": q.metrics.claimLatency.Snapshot()}, "")
	durations := map[string]prom.HistogramSnapshot{}
	for st, h := range q.metrics.duration {
		durations[string(st)] = h.Snapshot()
	}
	pw.Histogram("cdpmcp_job_duration_seconds", "Jobs this process ran, from start to end, by final state.", durations, "state")
	return pw.Err()
}
