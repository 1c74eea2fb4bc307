package jobs_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// A worker whose browser is gone (no file at its --browser-path) fails the
// job that finds out, saying what to fix. On a fleet it then claims no more:
// the jobs submitted after wait QUEUED for a worker that can run them, and
// this one runs them once its browser is there again. On one machine each
// fails at once, as the first did.
func TestWorkerWithoutItsBrowserClaimsNoMore(t *testing.T) {
	t.Parallel()
	onBothStores(t, testWorkerWithoutItsBrowserClaimsNoMore)
}

func testWorkerWithoutItsBrowserClaimsNoMore(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "chrome")
	q := openLaunchingQueue(t, t.TempDir(), retryingConfig(cdpclient.LaunchOptions{Path: path}, 4, time.Hour))
	navigate := func(corr string) *jobs.Job {
		return q.submit(t, jobs.SubmitRequest{CorrelationID: corr, URL: site.URL("/jobs/article.html?" + corr), Task: jobs.Task{Type: jobs.TaskNavigate}})
	}
	first, _ := q.wait(t, navigate("first").ID, jobs.Succeeded, jobs.Failed)
	if first.State != jobs.Failed || !strings.Contains(first.Error, "BROWSER_UNAVAILABLE") || !strings.Contains(first.Error, "chrome: no such file") {
		t.Fatalf("the job that found the browser gone: %s %q", first.State, first.Error)
	}
	later := []*jobs.Job{navigate("second"), navigate("third")}
	if !onPostgres(t) {
		for _, j := range later {
			if d, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed); d.State != jobs.Failed || !strings.Contains(d.Error, "chrome: no such file") {
				t.Errorf("a later job on one machine: %s %q, want FAILED at once", d.State, d.Error)
			}
		}
		return
	}
	time.Sleep(2500 * time.Millisecond) // the dispatcher looks every second, and on each submit
	for _, j := range later {
		st, err := q.Status(testCtx(t), j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.State != jobs.Queued {
			t.Errorf("a later job while the fleet worker has no browser: %s %q, want QUEUED", st.State, st.Error)
		}
		// Its status says why it waits: the fleet's one worker is paused.
		if !strings.Contains(st.Summary, "no worker takes jobs now: "+jobs.DefaultWorker()+": no browser to launch") || !strings.Contains(st.Summary, "chrome: no such file") {
			t.Errorf("a later job's summary while no worker takes jobs: %q", st.Summary)
		}
	}
	writeBrowserScript(t, path, "")
	for _, j := range later {
		if d, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed); d.State != jobs.Succeeded || d.Attempt != 1 {
			t.Errorf("a later job once the browser is back: %s attempt %d %q", d.State, d.Attempt, d.Error)
		}
	}
}

// On a fleet whose store no worker renews a lease in (a server that takes
// jobs and runs none, --max-tabs 0, alone), a queued job's status says that
// no worker takes jobs, and how to start one; on one machine the server
// runs its jobs itself, and says nothing of workers.
func TestQueuedWithoutWorkers(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(t *testing.T) {
		t.Parallel()
		q := openQueue(t, t.TempDir(), jobs.Config{SubmitOnly: onPostgres(t)})
		j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
		if !onPostgres(t) {
			if d, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed); d.State != jobs.Succeeded || strings.Contains(d.Summary, "worker") {
				t.Errorf("on one machine: %s %q", d.State, d.Summary)
			}
			return
		}
		st, err := q.Status(testCtx(t), j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := "queued: 0 job(s) ahead of it; no worker takes jobs: none renewed its lease in the last 1m0s; start one (cdpmcp worker --jobs-db, on the same store)"; st.State != jobs.Queued || st.Summary != want {
			t.Errorf("with no worker: %s %q, want QUEUED %q", st.State, st.Summary, want)
		}
	})
}

// While a worker takes jobs, a queued job's status says only how many are
// ahead of it: through the worker's own queue from its start (it tells the
// store it is alive at once, not a third of a lease later), and through a
// front door beside it (cdpmcp jobs status), which holds no lease of its own.
func TestQueuedBehindALiveWorker(t *testing.T) {
	t.Parallel()
	onBothStores(t, func(t *testing.T) {
		t.Parallel()
		q := openQueue(t, t.TempDir(), jobs.Config{MaxTabs: 1})
		slow := q.submit(t, jobs.SubmitRequest{URL: site.URL("/slow?ms=2500"), Task: jobs.Task{Type: jobs.TaskNavigate}})
		next := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
		q.wait(t, slow.ID, jobs.Running)
		for name, door := range map[string]*jobs.Queue{"queue": q.Queue, "door": openDoor(t, q)} {
			st, err := door.Status(testCtx(t), next.ID)
			if err != nil {
				t.Fatal(err)
			}
			if st.State != jobs.Queued || !strings.HasPrefix(st.Summary, "queued: ") || strings.Contains(st.Summary, "worker") {
				t.Errorf("through the %s, behind a live worker: %s %q", name, st.State, st.Summary)
			}
		}
	})
}
