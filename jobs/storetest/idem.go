package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// Creates racing with one key through several handles (processes, on a
// shared store) make one job: every one of them gets it back, one of them
// created it.
func testCreateRace(t *testing.T, open func() jobstore.Store) {
	hs := handles(open, 3)
	const n = 12
	var (
		mu      sync.Mutex
		ids     = map[string]int{}
		created int
		wg      sync.WaitGroup
	)
	for i := range n {
		s := hs[i%len(hs)]
		wg.Go(func() {
			j, c, err := s.Create(ctxOf(t), Job(fmt.Sprintf("job-%02d", i), jobstore.IdemKey("alice", "order-1")))
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			ids[j.ID]++
			if c {
				created++
			}
		})
	}
	wg.Wait()
	if len(ids) != 1 || created != 1 {
		t.Errorf("%d racing creates with one key: jobs %v, %d created; want one job, created once", n, ids, created)
	}
	all, err := hs[0].List(ctxOf(t), jobstore.Filter{})
	if err != nil || len(all) != 1 {
		t.Fatalf("stored: %d jobs, %v", len(all), err)
	}
	for _, s := range hs {
		if j, err := s.GetByKey(ctxOf(t), jobstore.IdemKey("alice", "order-1")); err != nil || j.ID != all[0].ID {
			t.Errorf("GetByKey: %v %v, want %s", j, err, all[0].ID)
		}
	}
	if _, err := hs[0].GetByKey(ctxOf(t), jobstore.IdemKey("bob", "order-1")); !errors.Is(err, jobstore.ErrNotFound) {
		t.Errorf("GetByKey of another tenant's key: %v", err)
	}
}

// The store refuses a change that would move a job's state back or out of
// an end, whatever the caller's from says, and changes nothing then.
func testForward(t *testing.T, open func() jobstore.Store) {
	s := open()
	ctx := ctxOf(t)
	create(t, s, Job("job-1", "1"))
	if _, err := s.Update(ctx, "job-1", nil, func(j *jobstore.Job) { j.State = jobstore.Succeeded }); err == nil {
		t.Errorf("QUEUED moved straight to SUCCEEDED")
	}
	for _, st := range []jobstore.State{jobstore.Dispatched, jobstore.Running, jobstore.Succeeded} {
		if _, err := s.Update(ctx, "job-1", nil, func(j *jobstore.Job) { j.State = st }); err != nil {
			t.Fatalf("move to %s: %v", st, err)
		}
	}
	for _, back := range []jobstore.State{jobstore.Running, jobstore.Queued, jobstore.Failed} {
		_, err := s.Update(ctx, "job-1", nil, func(j *jobstore.Job) { j.State, j.Summary = back, "back" })
		var se *jobstore.StateError
		if !errors.As(err, &se) || se.State != jobstore.Succeeded {
			t.Errorf("SUCCEEDED moved to %s: %v", back, err)
		}
	}
	if j, err := s.Update(ctx, "job-1", nil, func(j *jobstore.Job) { j.Artifacts.Trace = "/t" }); err != nil || j.State != jobstore.Succeeded || j.Artifacts.Trace != "/t" {
		t.Errorf("an end's other fields: %+v %v", j, err)
	}
	if j, _ := s.Get(ctx, "job-1"); j.State != jobstore.Succeeded || j.Summary == "back" {
		t.Errorf("after the refused moves: %s %q", j.State, j.Summary)
	}
}
