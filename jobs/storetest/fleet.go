package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/google/go-cmp/cmp"
)

// handles returns n handles on the store: as many as asked when it is
// Shared (processes at once), else the one.
func handles(open func() jobstore.Store, n int) []jobstore.Store {
	first := open()
	out := []jobstore.Store{first}
	for len(out) < n {
		if !first.Shared() {
			out = append(out, first)
			continue
		}
		out = append(out, open())
	}
	return out
}

// Workers claiming at once from one or more handles never get the same job.
func testClaimOnce(t *testing.T, open func() jobstore.Store) {
	hs := handles(open, 3)
	const n = 60
	for i := range n {
		create(t, hs[0], Job(fmt.Sprintf("job-%02d", i), fmt.Sprint(i)))
	}
	var mu sync.Mutex
	got := map[string]string{}
	var wg sync.WaitGroup
	for w := range 6 {
		s := hs[w%len(hs)]
		wg.Go(func() {
			for {
				j, err := s.Claim(ctxOf(t), fmt.Sprintf("w%d", w), time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				if j == nil {
					return
				}
				mu.Lock()
				if other, dup := got[j.ID]; dup {
					t.Errorf("%s claimed by %s and w%d", j.ID, other, w)
				}
				got[j.ID] = j.Worker
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(got) != n {
		t.Errorf("%d of %d jobs claimed", len(got), n)
	}
}

// waitExpired waits until the store counts job id's lease as ended.
func waitExpired(t *testing.T, s jobstore.Store, id string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		expired, err := s.List(ctxOf(t), jobstore.Filter{Expired: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range expired {
			if j.ID == id {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lease of %s did not end", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Only the holder writes to a held job; renewals keep it; once the lease
// ends, UpdateExpired may release it and another worker claims it, RUNNING.
func testLeases(t *testing.T, open func() jobstore.Store) {
	hs := handles(open, 2)
	a, b := hs[0], hs[1]
	ctx := ctxOf(t)
	create(t, a, Job("job-1", "1"))
	j, err := a.Claim(ctx, "wa", leaseForTest)
	if err != nil || j == nil {
		t.Fatalf("Claim: %v %v", j, err)
	}
	if _, err := b.UpdateHeld(ctx, j.ID, "wb", nil, func(j *jobstore.Job) { j.Summary = "no" }); !errors.Is(err, jobstore.ErrNotHeld) {
		t.Errorf("UpdateHeld by another worker: %v", err)
	}
	if _, err := a.UpdateHeld(ctx, j.ID, "wa", []jobstore.State{jobstore.Dispatched}, func(j *jobstore.Job) { j.State = jobstore.Running }); err != nil {
		t.Fatalf("UpdateHeld by the holder: %v", err)
	}
	if _, err := b.UpdateExpired(ctx, j.ID, "wa", func(*jobstore.Job) {}); !errors.Is(err, jobstore.ErrNotHeld) {
		t.Errorf("UpdateExpired of a live lease: %v", err)
	}
	held, err := a.Renew(ctx, jobstore.Worker{ID: "wa", LiveView: "http://wa", MaxTabs: 2, Busy: 1}, leaseForTest)
	if d := cmp.Diff(map[string]jobstore.State{"job-1": jobstore.Running}, held); err != nil || d != "" {
		t.Errorf("Renew: %v (-want +got):\n%s", err, d)
	}
	ws, err := b.Workers(ctx, time.Minute)
	if err != nil || len(ws) != 1 || ws[0].ID != "wa" || ws[0].LiveView != "http://wa" || ws[0].Busy != 1 || ws[0].Seen.IsZero() || ws[0].Paused != "" {
		t.Errorf("Workers: %+v %v", ws, err)
	}
	// A pause is told with a renewal, and its end with the next.
	for _, paused := range []string{"no browser to launch here", ""} {
		if _, err := a.Renew(ctx, jobstore.Worker{ID: "wa", LiveView: "http://wa", MaxTabs: 2, Busy: 1, Paused: paused}, leaseForTest); err != nil {
			t.Fatal(err)
		}
		if ws, err := b.Workers(ctx, time.Minute); err != nil || len(ws) != 1 || ws[0].Paused != paused {
			t.Errorf("Workers after a renewal paused %q: %+v %v", paused, ws, err)
		}
	}
	waitExpired(t, b, j.ID)
	if next, _ := b.Claim(ctx, "wb", time.Minute); next != nil {
		t.Errorf("a job whose lease ended was claimed before it was released: %s", next.ID)
	}
	r, err := b.UpdateExpired(ctx, j.ID, "wa", func(j *jobstore.Job) { j.Lease = time.Time{} })
	if err != nil || !r.Claimable() {
		t.Fatalf("release: %+v %v", r, err)
	}
	if _, err := a.UpdateHeld(ctx, j.ID, "wa", nil, func(j *jobstore.Job) { j.Summary = "late" }); !errors.Is(err, jobstore.ErrNotHeld) {
		t.Errorf("UpdateHeld after release: %v", err)
	}
	c, err := b.Claim(ctx, "wb", time.Minute)
	if err != nil || c == nil || c.ID != j.ID || c.State != jobstore.Running || c.Worker != "wb" {
		t.Fatalf("claim of the released job: %+v %v", c, err)
	}
	if held, _ := a.Renew(ctx, jobstore.Worker{ID: "wa"}, time.Minute); len(held) != 0 {
		t.Errorf("the old holder still renews %v", held)
	}
}

// A worker that leaves ends its leases at once and is no longer listed.
func testLeave(t *testing.T, open func() jobstore.Store) {
	s := open()
	ctx := ctxOf(t)
	create(t, s, Job("job-1", "1"))
	if _, err := s.Claim(ctx, "w1", time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Renew(ctx, jobstore.Worker{ID: "w1"}, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.Leave(ctx, "w1"); err != nil {
		t.Fatal(err)
	}
	waitExpired(t, s, "job-1")
	if ws, _ := s.Workers(ctx, time.Hour); len(ws) != 0 {
		t.Errorf("workers after Leave: %+v", ws)
	}
}

// One worker holds a profile at a time: its jobs are passed over for others
// until the holder saves and releases it; the saved state is versioned.
func testProfiles(t *testing.T, open func() jobstore.Store) {
	hs := handles(open, 2)
	a, b := hs[0], hs[1]
	ctx := ctxOf(t)
	for _, id := range []string{"p1", "p2"} {
		j := Job(id, id)
		j.Profile = "alice"
		create(t, a, j)
	}
	create(t, a, Job("plain", "plain"))
	other := Job("bobs", "bobs") // another tenant's profile of the same name
	other.Profile, other.Tenant, other.Priority = "alice", "bob", 1
	create(t, a, other)
	if j, err := a.Claim(ctx, "wa", time.Minute); err != nil || j.ID != "p1" {
		t.Fatalf("first claim: %v %v", j, err)
	}
	if j, err := b.Claim(ctx, "wb", time.Minute); err != nil || j.ID != "plain" {
		t.Fatalf("another worker's claim: %v %v, want the job without a profile", j, err)
	}
	if j, err := b.Claim(ctx, "wb", time.Minute); err != nil || j == nil || j.ID != "bobs" {
		t.Fatalf("another worker's claim: %v %v, want tenant bob's profile alice, which is not held", j, err)
	}
	if j, _ := b.Claim(ctx, "wb", time.Minute); j != nil {
		t.Errorf("another worker claimed %s of a profile held elsewhere", j.ID)
	}
	if v, err := b.SaveProfile(ctx, jobstore.ProfileKey("bob", "alice"), "wb", []byte("bob's"), true); err != nil || v != 1 {
		t.Errorf("SaveProfile of bob's alice: %d %v", v, err)
	}
	if ok, err := b.TakeProfile(ctx, "alice", "wb", time.Minute); ok || err != nil {
		t.Errorf("TakeProfile of a profile held elsewhere: %v %v", ok, err)
	}
	if ok, err := a.TakeProfile(ctx, "alice", "wa", time.Minute); !ok || err != nil {
		t.Errorf("TakeProfile by its holder: %v %v", ok, err)
	}
	if _, err := b.SaveProfile(ctx, "alice", "wb", []byte("x"), true); !errors.Is(err, jobstore.ErrNotHeld) {
		t.Errorf("SaveProfile by a worker that does not hold it: %v", err)
	}
	v, err := a.SaveProfile(ctx, "alice", "wa", []byte("cookies-1"), false)
	if err != nil || v != 1 {
		t.Fatalf("SaveProfile: %d %v", v, err)
	}
	if v, err = a.SaveProfile(ctx, "alice", "wa", []byte("cookies-2"), true); err != nil || v != 2 {
		t.Fatalf("SaveProfile and release: %d %v", v, err)
	}
	j, err := b.Claim(ctx, "wb", time.Minute)
	if err != nil || j == nil || j.ID != "p2" {
		t.Fatalf("claim after the release: %v %v", j, err)
	}
	if v, state, err := b.Profile(ctx, "alice"); v != 2 || string(state) != "cookies-2" || err != nil {
		t.Errorf("Profile: %d %q %v", v, state, err)
	}
	if v, state, err := b.Profile(ctx, "bob"); v != 0 || state != nil || err != nil {
		t.Errorf("Profile never saved: %d %q %v", v, state, err)
	}
}

// A queued job held by the process that knows its secret is claimed by that
// process only; stored without a holder, its secret is gone with it.
func testSecretOrigin(t *testing.T, open func() jobstore.Store) {
	s := open()
	j := Job("login", "login")
	j.HasSecret, j.Origin, j.Worker, j.Lease = true, "w1", "w1", time.Now().Add(time.Minute)
	create(t, s, j)
	if c, _ := s.Claim(ctxOf(t), "w2", time.Minute); c != nil {
		t.Errorf("w2 claimed %s, whose secret only w1 has", c.ID)
	}
	if c, err := s.Claim(ctxOf(t), "w1", time.Minute); err != nil || c == nil || c.State != jobstore.Dispatched {
		t.Errorf("the origin's claim: %v %v", c, err)
	}
	lost := Job("lost", "lost")
	lost.HasSecret = true
	create(t, s, lost)
	if c, _ := s.Claim(ctxOf(t), "w1", time.Minute); c != nil {
		t.Errorf("claimed %s, whose secret no process has", c.ID)
	}
	waitExpired(t, s, "lost")
}

// A job stored already started counts as held by a process that went away.
func testStartedAbandoned(t *testing.T, open func() jobstore.Store) {
	s := open()
	j := Job("running", "running")
	j.State, j.Attempt = jobstore.Running, 1
	create(t, s, j)
	if c, _ := s.Claim(ctxOf(t), "w1", time.Minute); c != nil {
		t.Errorf("claimed a started job before it was released: %s", c.ID)
	}
	waitExpired(t, s, "running")
}

// leaseForTest is a lease short enough to wait out and long enough that a
// busy machine does not end it between two calls that expect it held.
const leaseForTest = 3 * time.Second
