package jobs

import (
	"context"
	"log/slog"
	"slices"
	"sort"
	"time"
)

// poke wakes the dispatcher.
func (q *Queue) poke() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// loop claims jobs from the store while tabs are free, until the queue
// closes. It wakes when a tab comes free, when the store tells of a job to
// claim, and every second (a store's events are hints).
func (q *Queue) loop() {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-q.ctx.Done():
			return
		case <-q.wake:
		case <-tick.C:
		}
		q.dispatchReady()
	}
}

func (q *Queue) dispatchReady() {
	if !q.mayClaim() {
		return
	}
	for {
		q.mu.Lock()
		if q.closed || q.draining || q.free-len(q.urgent) <= 0 {
			q.mu.Unlock()
			return
		}
		q.free--
		q.mu.Unlock()
		ctx, cancel := context.WithTimeout(q.ctx, q.cfg.Lease/3)
		j, err := q.fleet.claim(ctx, func(ctx context.Context) (*Job, error) { return q.store.Claim(ctx, q.cfg.Worker, q.cfg.Lease) })
		cancel()
		q.mu.Lock()
		q.backlog = j != nil
		if err != nil || j == nil || q.closed || q.draining {
			q.returnSlot()
			stopping := q.closed || q.draining
			q.mu.Unlock()
			if err != nil && q.ctx.Err() == nil {
				slog.Warn("could not claim a job", "err", err)
			}
			if j != nil && stopping { // claimed as this process stops: another takes it at once
				q.fleet.unreserve(j.Tenant, j.Profile)
				q.handBack(j, false)
			}
			return
		}
		waited := j.Created
		if q.lastFree.After(waited) {
			waited = q.lastFree
		}
		q.metrics.claimed(time.Since(waited), j.Attempt == 0)
		r := newRun(q, j)
		q.running[j.ID] = r
		q.mu.Unlock()
		q.wg.Go(func() { q.execute(r, waited) })
	}
}

// takeSlot takes a tab slot for work outside the queue (extract_structured),
// ahead of queued jobs, waiting for one to come free until ctx ends.
func (q *Queue) takeSlot(ctx context.Context) error {
	q.mu.Lock()
	if q.free > len(q.urgent) {
		q.free--
		q.mu.Unlock()
		return nil
	}
	ch := make(chan struct{}, 1)
	q.urgent = append(q.urgent, ch)
	q.mu.Unlock()
	select {
	case <-ch: // releaseSlot handed its slot over
		return nil
	case <-ctx.Done():
		q.mu.Lock()
		defer q.mu.Unlock()
		if i := slices.Index(q.urgent, ch); i >= 0 {
			q.urgent = slices.Delete(q.urgent, i, i+1)
			return ctx.Err()
		}
		// The slot was handed over as ctx ended: give it back.
		q.free++
		q.poke()
		return ctx.Err()
	}
}

// releaseSlot gives a tab slot back: to a waiting extract_structured first,
// else to the dispatcher.
func (q *Queue) releaseSlot() {
	q.mu.Lock()
	q.lastFree = time.Now()
	if len(q.urgent) > 0 {
		ch := q.urgent[0]
		q.urgent = q.urgent[1:]
		q.mu.Unlock()
		ch <- struct{}{}
		return
	}
	q.free++
	q.mu.Unlock()
	q.poke()
}

// returnSlot gives back a slot the dispatcher took for a claim that found
// nothing: to an extract_structured that started waiting meanwhile, else to
// the free ones. q.mu is held.
func (q *Queue) returnSlot() {
	if len(q.urgent) > 0 {
		ch := q.urgent[0]
		q.urgent = q.urgent[1:]
		ch <- struct{}{} // buffered: takeSlot's channel has room for one
		return
	}
	q.free++
}

// tryExtraSlot takes a slot for a job's extra tab (a popup) if one is free
// and no job waits for a tab.
func (q *Queue) tryExtraSlot() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.free-len(q.urgent) > 0 && !q.backlog {
		q.free--
		return true
	}
	return false
}

// stats keeps recent dispatch delays.
type stats struct {
	delays []time.Duration
}

// Stats are measurements of the queue's scheduling.
type Stats struct {
	// Dispatches counts the delays recorded (the last 10,000).
	Dispatches int
	// DispatchMedian and DispatchP95 are the time from a tab coming free (or
	// the job being queued, whichever is later) to the job's run starting.
	DispatchMedian, DispatchP95 time.Duration
	// Running counts the jobs this process runs now.
	Running int
}

func (q *Queue) recordDispatch(d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.stats.delays) >= 10000 {
		q.stats.delays = q.stats.delays[1:]
	}
	q.stats.delays = append(q.stats.delays, d)
}

// Stats returns the queue's scheduling measurements.
func (q *Queue) Stats() Stats {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := Stats{Dispatches: len(q.stats.delays), Running: len(q.running)}
	if len(q.stats.delays) > 0 {
		d := slices.Clone(q.stats.delays)
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		s.DispatchMedian, s.DispatchP95 = d[len(d)/2], d[len(d)*95/100]
	}
	return s
}
