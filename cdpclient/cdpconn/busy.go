package cdpconn

import (
	"time"

	"github.com/cdpmcp/cdpmcp/internal/spans"
)

// busyClock is how long the connection has had a request unanswered: time
// spent waiting for the browser, which a call's spans.Recorder reports as its
// "browser" phase. It is kept only once calls are recorded (spans.On), and
// guarded by Mux.mu.
type busyClock struct {
	since time.Time // when the first of the unanswered requests was sent; zero when none
	total time.Duration
}

// pendingChanged updates the clock after m.pending grew or shrank; m.mu is held.
func (m *Mux) pendingChanged() {
	if !spans.On() {
		return
	}
	switch busy := len(m.pending) > 0; {
	case busy && m.busy.since.IsZero():
		m.busy.since = time.Now()
	case !busy && !m.busy.since.IsZero():
		m.busy.total += time.Since(m.busy.since)
		m.busy.since = time.Time{}
	}
}

// Busy is the total time the connection has had a request unanswered since
// calls began to be recorded.
func (m *Mux) Busy() time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.busy.total
	if !m.busy.since.IsZero() {
		d += time.Since(m.busy.since)
	}
	return d
}
