// Package storetest is the conformance suite every jobstore.Store passes: the
// SQLite and PostgreSQL stores run it from their tests, so the queue meets
// one behaviour whichever it is given.
package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/google/go-cmp/cmp"
)

// Fresh makes an empty store for one test and returns a function that opens
// a handle on it; a test closes a handle before opening the next unless the
// store is Shared, when handles stand for processes using it at once.
type Fresh func(t *testing.T) (open func() (jobstore.Store, error))

// Run runs the suite.
func Run(t *testing.T, fresh Fresh) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, open func() jobstore.Store)
	}{
		{"CreateGetReopen", testCreateGetReopen},
		{"UpdateAndList", testUpdateAndList},
		{"ClaimOrder", testClaimOrder},
		{"ClaimOnce", testClaimOnce},
		{"Leases", testLeases},
		{"Leave", testLeave},
		{"Profiles", testProfiles},
		{"SecretStaysWithOrigin", testSecretOrigin},
		{"StartedJobsWereAbandoned", testStartedAbandoned},
		{"Watch", testWatch},
		{"CountsAndAhead", testCountsAhead},
		{"CreateRace", testCreateRace},
		{"StatesOnlyMoveForward", testForward},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			openFn := fresh(t)
			tc.fn(t, func() jobstore.Store {
				t.Helper()
				s, err := openFn()
				if err != nil {
					t.Fatalf("open: %v", err)
				}
				t.Cleanup(func() { s.Close() })
				return s
			})
		})
	}
}

func ctxOf(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Job returns a queued navigate job with the given id and idempotency key.
func Job(id, key string) *jobstore.Job {
	return &jobstore.Job{ID: id, Key: key, CorrelationID: "c", URL: "http://127.0.0.1/", MaxTabs: 1, Priority: 5,
		Task: jobstore.Task{Type: jobstore.TaskNavigate, Password: "s3cret-pw"}, State: jobstore.Queued, Created: time.UnixMilli(1700000000000)}
}

func create(t *testing.T, s jobstore.Store, j *jobstore.Job) *jobstore.Job {
	t.Helper()
	out, created, err := s.Create(ctxOf(t), j)
	if err != nil || !created {
		t.Fatalf("Create %s: %v (created %v)", j.ID, err, created)
	}
	return out
}

func ids(js []*jobstore.Job) []string {
	out := []string{}
	for _, j := range js {
		out = append(out, j.ID)
	}
	return out
}

// A job survives a reopen as it was stored; the password never reaches the
// store; Create is idempotent by key.
func testCreateGetReopen(t *testing.T, open func() jobstore.Store) {
	s := open()
	ctx := ctxOf(t)
	in := Job("job-a", "k1")
	in.Tenant = "alice"
	a := create(t, s, in)
	if a.Seq < 1 || a.Rev < 1 {
		t.Errorf("Create gave seq %d rev %d", a.Seq, a.Rev)
	}
	b, created, err := s.Create(ctx, Job("job-b", "k1"))
	if err != nil || created || b.ID != "job-a" {
		t.Errorf("Create with a used key: %v %v %v", b, created, err)
	}
	if _, err := s.Get(ctx, "job-x"); !errors.Is(err, jobstore.ErrNotFound) {
		t.Errorf("Get unknown: %v", err)
	}
	s.Close()
	reopened := open()
	got, err := reopened.Get(ctx, "job-a")
	if err != nil {
		t.Fatal(err)
	}
	want := Job("job-a", "k1")
	want.Seq, want.Rev, want.Task.Password, want.Tenant = a.Seq, a.Rev, "", "alice"
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("after reopen (-want +got):\n%s", d)
	}
	for tenant, want := range map[string][]string{"alice": {"job-a"}, "alcie": nil} {
		of, err := reopened.List(ctx, jobstore.Filter{Tenant: tenant})
		if err != nil || !slices.Equal(ids(of), want) {
			t.Errorf("List of tenant %s: %v %v, want %v", tenant, ids(of), err, want)
		}
	}
}

// Update changes a job only from the states it names and moves its
// revision on; List returns changes after a revision, oldest first.
func testUpdateAndList(t *testing.T, open func() jobstore.Store) {
	s := open()
	ctx := ctxOf(t)
	var revs []int64
	for _, id := range []string{"job-1", "job-2", "job-3"} {
		revs = append(revs, create(t, s, Job(id, id)).Rev)
	}
	j, err := s.Update(ctx, "job-2", []jobstore.State{jobstore.Queued}, func(j *jobstore.Job) { j.State, j.Progress = jobstore.Dispatched, 0.5 })
	if err != nil || j.State != jobstore.Dispatched || j.Progress != 0.5 || j.Rev <= revs[2] {
		t.Fatalf("Update: %+v %v", j, err)
	}
	var se *jobstore.StateError
	if _, err := s.Update(ctx, "job-2", []jobstore.State{jobstore.Queued}, func(j *jobstore.Job) { j.State = jobstore.Cancelled }); !errors.As(err, &se) || se.State != jobstore.Dispatched {
		t.Errorf("Update from the wrong state: %v", err)
	}
	if g, _ := s.Get(ctx, "job-2"); g.State != jobstore.Dispatched || g.Rev != j.Rev {
		t.Errorf("a refused update changed the job: %s rev %d", g.State, g.Rev)
	}
	if _, err := s.Update(ctx, "job-x", nil, func(*jobstore.Job) {}); !errors.Is(err, jobstore.ErrNotFound) {
		t.Errorf("Update unknown: %v", err)
	}
	changed, err := s.List(ctx, jobstore.Filter{Since: revs[1]})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"job-3", "job-2"}, ids(changed)); d != "" {
		t.Errorf("List since job-2's creation (-want +got):\n%s", d)
	}
	queued, _ := s.List(ctx, jobstore.Filter{States: []jobstore.State{jobstore.Queued}, Limit: 1})
	if d := cmp.Diff([]string{"job-1"}, ids(queued)); d != "" {
		t.Errorf("List queued, limit 1 (-want +got):\n%s", d)
	}
}

// Claims come by priority, higher first, then in order of submission; a
// claimed job is DISPATCHED to the worker under a lease and not claimed again.
func testClaimOrder(t *testing.T, open func() jobstore.Store) {
	s := open()
	ctx := ctxOf(t)
	for i, p := range []int{1, 5, 9, 5, 3} {
		j := Job(string(rune('a'+i)), string(rune('a'+i)))
		j.Priority = p
		create(t, s, j)
	}
	var order []string
	for {
		j, err := s.Claim(ctx, "w1", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if j == nil {
			break
		}
		if j.State != jobstore.Dispatched || j.Worker != "w1" || !j.Lease.After(time.Now()) {
			t.Errorf("claimed %s: %s by %q until %v", j.ID, j.State, j.Worker, j.Lease)
		}
		order = append(order, j.ID)
	}
	if d := cmp.Diff([]string{"c", "b", "d", "e", "a"}, order); d != "" {
		t.Errorf("claim order (-want +got):\n%s", d)
	}
}
