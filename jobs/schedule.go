package jobs

import (
	"container/heap"
	"context"
	"slices"
	"sort"
	"time"
)

// pendingHeap orders jobs waiting for a tab: higher priority first, then in
// order of submission.
type pendingHeap struct{ items []*pendingJob }

type pendingJob struct {
	job   *Job
	since time.Time // when it started waiting for a tab
}

func (h *pendingHeap) Len() int { return len(h.items) }
func (h *pendingHeap) Less(i, j int) bool {
	a, b := h.items[i].job, h.items[j].job
	if a.Priority != b.Priority {
		return a.Priority > b.Priority
	}
	return a.Seq < b.Seq
}
func (h *pendingHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *pendingHeap) Push(x any)    { h.items = append(h.items, x.(*pendingJob)) }
func (h *pendingHeap) Pop() any {
	n := len(h.items)
	it := h.items[n-1]
	h.items = h.items[:n-1]
	return it
}

func (h *pendingHeap) push(j *Job) { heap.Push(h, &pendingJob{job: j, since: time.Now()}) }

func (h *pendingHeap) pop() *pendingJob { return heap.Pop(h).(*pendingJob) }

func (h *pendingHeap) remove(id string) {
	for i, it := range h.items {
		if it.job.ID == id {
			heap.Remove(h, i)
			return
		}
	}
}

// ahead counts the jobs that will be dispatched before j, or -1 when j is not
// waiting here.
func (q *Queue) ahead(j *Job) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	found, n := false, 0
	for _, it := range q.pending.items {
		o := it.job
		if o.ID == j.ID {
			found = true
			continue
		}
		if o.Priority > j.Priority || o.Priority == j.Priority && o.Seq < j.Seq {
			n++
		}
	}
	if !found {
		return -1
	}
	return n
}

// poke wakes the dispatcher.
func (q *Queue) poke() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// loop dispatches jobs while tabs are free, until the queue closes.
func (q *Queue) loop() {
	for {
		select {
		case <-q.ctx.Done():
			return
		case <-q.wake:
		}
		q.dispatchReady()
	}
}

func (q *Queue) dispatchReady() {
	for {
		q.mu.Lock()
		if q.closed || q.free-len(q.urgent) <= 0 || q.pending.Len() == 0 {
			q.mu.Unlock()
			return
		}
		it := q.pending.pop()
		q.free--
		waited := it.since
		if q.lastFree.After(waited) {
			waited = q.lastFree
		}
		r := newRun(q, it.job)
		q.running[it.job.ID] = r
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

// tryExtraSlot takes a slot for a job's extra tab (a popup) if one is free
// and no job waits for a tab.
func (q *Queue) tryExtraSlot() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.free-len(q.urgent) > 0 && q.pending.Len() == 0 {
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
	// Running and Queued count jobs now.
	Running, Queued int
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
	s := Stats{Dispatches: len(q.stats.delays), Running: len(q.running), Queued: q.pending.Len()}
	if len(q.stats.delays) > 0 {
		d := slices.Clone(q.stats.delays)
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		s.DispatchMedian, s.DispatchP95 = d[len(d)/2], d[len(d)*95/100]
	}
	return s
}
