package jobs_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// openPoolQueue opens a queue whose jobs take their browsers from the
// browser service at pool, sending header.
func openPoolQueue(t *testing.T, pool string, header http.Header) *testQueue {
	t.Helper()
	dir, err := jobs.OpenDataDir(t.TempDir())
	if err != nil {
		t.Fatalf("OpenDataDir: %v", err)
	}
	store := openStore(t, dir.Path)
	q, err := jobs.Open(context.Background(), jobs.Config{Dir: dir, Store: store, MaxTabs: 2,
		Browser: cdpclient.Options{Endpoint: pool, Pool: true, Header: header}})
	if err != nil {
		t.Fatalf("jobs.Open: %v", err)
	}
	tq := &testQueue{Queue: q, dir: dir, store: store}
	t.Cleanup(tq.close)
	return tq
}

// A worker with a browser service (--browser-pool) runs each job in a fresh
// browser of its own, sending the service's header, and ends it with the
// job. A service that drops the connection mid-job is a browser gone: the
// job follows the restart rules and runs again in another fresh browser. A
// wrong header fails the job saying the service refused it.
func TestJobsFromABrowserPool(t *testing.T) {
	t.Parallel()
	pool, err := fixtures.StartPool("Authorization", "Bearer pool-token-1234", testBrowserArgs...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	q := openPoolQueue(t, pool.URL, http.Header{"Authorization": {"Bearer pool-token-1234"}})

	a := q.submit(t, jobs.SubmitRequest{CorrelationID: "a", URL: site.URL("/home.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	b := q.submit(t, jobs.SubmitRequest{CorrelationID: "b", URL: site.URL("/second.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	for _, id := range []string{a.ID, b.ID} {
		if j, seen := q.wait(t, id, jobs.Succeeded, jobs.Failed); j.State != jobs.Succeeded {
			t.Fatalf("job %s in the pool's browser: %s %q (states %v)", id, j.State, j.Error, seen)
		}
	}
	if n := pool.Accepted(); n != 2 {
		t.Errorf("two jobs took %d browsers from the pool, want one each", n)
	}
	testbound.Until(t, "the pool's browsers to end with their jobs", func() bool { return pool.Open() == 0 })

	slow := q.submit(t, jobs.SubmitRequest{CorrelationID: "slow", URL: site.URL("/slow?ms=2500"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	q.waitLoading(t, slow.ID)
	pool.Drop()
	j, seen := q.wait(t, slow.ID, jobs.Succeeded, jobs.Failed)
	if j.State != jobs.Succeeded || j.Attempt != 2 || pool.Accepted() != 4 {
		t.Errorf("a job whose pool browser was dropped: %s attempt %d %q, %d browsers taken (states %v)", j.State, j.Attempt, j.Error, pool.Accepted(), seen)
	}

	wrong := openPoolQueue(t, pool.URL, http.Header{"Authorization": {"Bearer nope-nope"}})
	w := wrong.submit(t, jobs.SubmitRequest{CorrelationID: "w", URL: site.URL("/home.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	j, _ = wrong.wait(t, w.ID, jobs.Succeeded, jobs.Failed)
	if j.State != jobs.Failed || !strings.Contains(j.Error, "refused the connection: 401") || !strings.Contains(j.Error, "--cdp-header") ||
		strings.Contains(j.Error, "nope-nope") {
		t.Errorf("a job with the wrong header: %s %q", j.State, j.Error)
	}
	if pool.Refused() == 0 {
		t.Error("the pool refused no connection")
	}
}
