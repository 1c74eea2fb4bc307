package jobs_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/tenant"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// openDoor opens a front door (jobs.OpenDoor) on the store of q, through a
// handle of its own: another process's view of it (on SQLite, another
// connection to the file).
func openDoor(t *testing.T, q *testQueue) *jobs.Queue {
	t.Helper()
	store := openStore(t, q.dir.Path)
	d, err := jobs.OpenDoor(context.Background(), jobs.Config{Store: store}, "the test's door")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close(); _ = store.Close() })
	return d
}

// A retry is answered with the same job through either front door — the
// queue that runs the jobs, or a door beside it on the same store — in
// every state a job can be seen in: QUEUED, RUNNING, WAITING_FOR_HUMAN,
// SUCCEEDED, FAILED, CANCELLED. The same correlationId with other arguments
// is a conflict through either; a new request racing through both doors
// makes one job. Jobs submitted through the door are run by the queue, and
// a cancel or a resume through it reaches the run.
func TestRetriesThroughTwoFrontDoors(t *testing.T) {
	t.Parallel()
	onBothStores(t, testRetriesThroughTwoFrontDoors)
}

func testRetriesThroughTwoFrontDoors(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	door := openDoor(t, q)
	alice := tenant.With(testCtx(t), "alice")
	doors := map[string]*jobs.Queue{"the queue": q.Queue, "the door": door}
	req := func(corr, path string, task jobs.Task) jobs.SubmitRequest {
		return jobs.SubmitRequest{CorrelationID: corr, URL: site.URL(path), Task: task}
	}
	waitFor := func(id string, st jobs.State) {
		t.Helper()
		j, err := q.Wait(alice, id)
		for err == nil && j.State != st && !jobs.AtRest(j.State) {
			j, err = q.Wait(alice, id)
		}
		if err != nil || j.State != st {
			t.Fatalf("job %s: %v %v, want %s", id, j, err, st)
		}
	}
	navigate := jobs.Task{Type: jobs.TaskNavigate}
	reqs := map[jobs.State]jobs.SubmitRequest{
		jobs.Succeeded:       req("done", "/jobs/article.html", navigate),
		jobs.Failed:          req("wrong-pw", "/jobs/login", jobs.Task{Type: jobs.TaskLogin, Username: "ada@example.com", Password: "not-it"}),
		jobs.Running:         req("hangs", "/jobs/neverload", jobs.Task{Type: jobs.TaskNavigate, TimeoutMs: 3_600_000}),
		jobs.WaitingForHuman: {CorrelationID: "needs-a-person", URL: site.URL("/jobs/login"), HandoffAllowed: true, Task: jobs.Task{Type: jobs.TaskLogin}},
		jobs.Queued:          req("queued", "/jobs/article.html?queued", navigate),
		jobs.Cancelled:       req("cancelled", "/jobs/article.html?cancelled", navigate),
	}
	ids := map[jobs.State]string{}
	submit := func(through *jobs.Queue, st jobs.State) string {
		t.Helper()
		j, created, err := through.Submit(alice, reqs[st])
		if err != nil || !created {
			t.Fatalf("submit the %s job: %v %v", st, created, err)
		}
		ids[st] = j.ID
		return j.ID
	}
	// The jobs that end, submitted through the door, run on the queue.
	waitFor(submit(door, jobs.Succeeded), jobs.Succeeded)
	waitFor(submit(q.Queue, jobs.Failed), jobs.Failed)
	// Both tabs busy: the next ones stay queued.
	running := submit(door, jobs.Running)
	waitFor(submit(q.Queue, jobs.WaitingForHuman), jobs.WaitingForHuman)
	testbound.Until(t, "the hanging job to run", func() bool {
		j, _ := q.Status(alice, running)
		return j != nil && j.State == jobs.Running
	})
	submit(door, jobs.Queued)
	if _, err := door.Cancel(alice, submit(q.Queue, jobs.Cancelled), "no longer needed"); err != nil {
		t.Fatal(err)
	}

	for st, r := range reqs {
		for name, d := range doors {
			j, created, err := d.Submit(alice, r)
			if err != nil || created || j.ID != ids[st] || j.State != st {
				t.Errorf("a retry of the %s job through %s: %v created %v, %v; want %s in %s", st, name, j, created, err, ids[st], st)
			}
			other := r
			other.URL += "#other"
			var ce *jobs.ConflictError
			if _, _, err := d.Submit(alice, other); !errors.As(err, &ce) || ce.JobID != ids[st] || ce.State != st {
				t.Errorf("other arguments under the %s job's correlationId through %s: %v", st, name, err)
			}
		}
	}

	// A new request through both doors at once: one job.
	race := req("race", "/jobs/article.html?race", navigate)
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		got = map[string]int{}
	)
	for i := range 8 {
		d := door
		if i%2 == 0 {
			d = q.Queue
		}
		wg.Go(func() {
			j, _, err := d.Submit(alice, race)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			got[j.ID]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(got) != 1 {
		t.Errorf("a request raced through both doors made %d jobs: %v", len(got), got)
	}

	// A resume and a cancel through the door reach the queue's runs. Nobody
	// signed in: the person is asked once more, then the job fails.
	if _, err := door.Resume(alice, ids[jobs.WaitingForHuman], "done"); err != nil {
		t.Fatal(err)
	}
	waitFor(ids[jobs.WaitingForHuman], jobs.WaitingForHuman)
	if _, err := door.Resume(alice, ids[jobs.WaitingForHuman], "done, really"); err != nil {
		t.Fatal(err)
	}
	waitFor(ids[jobs.WaitingForHuman], jobs.Failed)
	if _, err := door.Cancel(alice, running, ""); err != nil {
		t.Fatal(err)
	}
	testbound.Until(t, "the cancelled job's tab closed", func() bool {
		tab, err := q.WaitingTab(running)
		return err != nil || tab == nil || tab.Usable() != nil
	})
	all, err := door.List(testCtx(t), jobstore.Filter{})
	if err != nil || len(all) != len(reqs)+1 {
		t.Errorf("%d jobs stored, want %d: %v", len(all), len(reqs)+1, err)
	}
}
