package jobs

import "time"

// storeUp is since when the job store has answered this process's lease
// calls (keepLeases) without a failure. A holder's lease runs out in the
// store's clock whether or not the holder could reach the store: after an
// outage longer than a lease, every live worker's leases have run out at
// once. Taking their jobs up then would run again, or fail, work that is
// going on; so the jobs of holders that went away are taken up only once
// the store has answered for a whole lease, in which every live worker has
// renewed (it renews every third of one).
type storeUp struct {
	since  time.Time // zero while the store fails
	waited bool      // the wait after an outage was logged
}

// answered notes a lease call's outcome; it reports whether the store came
// back with it.
func (s *storeUp) answered(err error) (back bool) {
	if err != nil {
		s.since, s.waited = time.Time{}, false
		return false
	}
	if s.since.IsZero() {
		s.since = time.Now()
		return true
	}
	return false
}

// steady reports whether the store has answered for lease or more.
func (s *storeUp) steady(lease time.Duration) bool {
	return !s.since.IsZero() && time.Since(s.since) >= lease
}
