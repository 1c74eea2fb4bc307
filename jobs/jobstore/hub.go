package jobstore

import (
	"context"
	"sync"
)

// Hub fans a store's events out to its Watch readers; stores embed one. A
// reader that does not keep up misses events (they are hints).
type Hub struct {
	mu   sync.Mutex
	subs map[chan Event]struct{}
}

// Watch implements Store.Watch.
func (h *Hub) Watch(ctx context.Context) <-chan Event {
	ch := make(chan Event, 256)
	h.mu.Lock()
	if h.subs == nil {
		h.subs = map[chan Event]struct{}{}
	}
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	context.AfterFunc(ctx, func() {
		h.mu.Lock()
		delete(h.subs, ch)
		h.mu.Unlock()
		close(ch)
	})
	return ch
}

// Publish sends e to every reader that has room for it.
func (h *Hub) Publish(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- e:
		default:
		}
	}
}

// Changed publishes the Changes from before to after.
func (h *Hub) Changed(before, after *Job) {
	for _, e := range Changes(before, after) {
		h.Publish(e)
	}
}

// Changes are the events an update from before (nil for a new job) to after
// means for Watch readers: a change of state, and a job that became
// claimable.
func Changes(before, after *Job) []Event {
	var out []Event
	if before == nil || before.State != after.State {
		out = append(out, Event{ID: after.ID, State: after.State, Worker: after.Worker})
	}
	if after.Claimable() && (before == nil || !before.Claimable()) {
		out = append(out, Event{ID: after.ID, Claimable: true})
	}
	return out
}

// Claimable reports whether a process may claim the job now: no process
// holds it and it has not started (QUEUED), or it may run again after its
// holder went away (DISPATCHED, RUNNING).
func (j *Job) Claimable() bool {
	return j.Lease.IsZero() && (j.State == Queued || j.State == Dispatched || j.State == Running)
}
