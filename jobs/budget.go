package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"
)

// errTimedOut is the cause of a job context whose time budget ran out.
var errTimedOut = errors.New("the job ran out of time")

// budget is a job's time limit. It pauses while the job waits for a person,
// who should not be rushed by the job's own deadline.
type budget struct {
	mu      sync.Mutex
	timer   *time.Timer
	left    time.Duration
	started time.Time
}

// withBudget returns a context cancelled with cause errTimedOut once d of
// unpaused time has passed.
func withBudget(parent context.Context, d time.Duration) (context.Context, *budget, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	b := &budget{left: d, started: time.Now()}
	b.timer = time.AfterFunc(d, func() { cancel(errTimedOut) })
	return ctx, b, func() {
		b.timer.Stop()
		cancel(context.Canceled)
	}
}

func (b *budget) pause() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timer.Stop() {
		b.left -= time.Since(b.started)
	}
}

func (b *budget) resume() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.started = time.Now()
	b.timer.Reset(max(b.left, 0))
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": "result not encodable: " + err.Error()})
	}
	return b
}
