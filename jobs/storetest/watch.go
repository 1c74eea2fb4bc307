package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// Watch readers hear of new jobs and of changes of state, also those made
// through another handle of a shared store.
func testWatch(t *testing.T, open func() jobstore.Store) {
	hs := handles(open, 2)
	ctx, cancel := context.WithCancel(ctxOf(t))
	defer cancel()
	events := hs[1].Watch(ctx)
	create(t, hs[0], Job("job-1", "1"))
	await(t, events, jobstore.Event{ID: "job-1", Claimable: true})
	if _, err := hs[0].Update(ctx, "job-1", nil, func(j *jobstore.Job) { j.State = jobstore.Cancelled }); err != nil {
		t.Fatal(err)
	}
	await(t, events, jobstore.Event{ID: "job-1", State: jobstore.Cancelled})
	cancel()
	for range events { // closed once ctx ends
	}
}

func await(t *testing.T, events <-chan jobstore.Event, want jobstore.Event) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e := <-events:
			if e == want {
				return
			}
		case <-timeout:
			t.Fatalf("no event %+v", want)
		}
	}
}

// Counts counts by state; Ahead counts the claimable jobs before a job.
func testCountsAhead(t *testing.T, open func() jobstore.Store) {
	s := open()
	ctx := ctxOf(t)
	var last *jobstore.Job
	for i, p := range []int{5, 9, 5, 1} {
		j := Job(string(rune('a'+i)), string(rune('a'+i)))
		j.Priority = p
		last = create(t, s, j)
	}
	if _, err := s.Update(ctx, "a", nil, func(j *jobstore.Job) { j.State = jobstore.Cancelled }); err != nil {
		t.Fatal(err)
	}
	counts, err := s.Counts(ctx)
	if err != nil || counts[jobstore.Queued] != 3 || counts[jobstore.Cancelled] != 1 {
		t.Errorf("Counts: %v %v", counts, err)
	}
	c, _ := s.Get(ctx, "c")
	if n, err := s.Ahead(ctx, c); err != nil || n != 1 {
		t.Errorf("Ahead of c: %d %v, want 1 (b)", n, err)
	}
	if n, _ := s.Ahead(ctx, last); n != 2 {
		t.Errorf("Ahead of d: %d, want 2", n)
	}
}
