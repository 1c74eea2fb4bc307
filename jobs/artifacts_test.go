package jobs_test

import (
	"net"
	"os"
	"testing"

	"github.com/cdpmcp/cdpmcp/jobs"
)

// Every job leaves a screenshot of its final page beside its trace and
// network log: an extract job that succeeded, one that failed, a navigate job.
func TestEveryJobLeavesAScreenshot(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	ok := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"h1"}}})
	nav := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	// A port nothing listens on: the navigation fails.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/"
	_ = l.Close()
	bad := q.submit(t, jobs.SubmitRequest{URL: closed, Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"h1"}}})

	done, _ := q.wait(t, ok.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded || len(done.Result) == 0 {
		t.Fatalf("extract: %s %q result %s", done.State, done.Error, done.Result)
	}
	if !exists(done.Artifacts.Screenshot) || !exists(done.Artifacts.Trace) || !exists(done.Artifacts.NetworkLog) {
		t.Errorf("a succeeded extract job's artifacts: %+v (want a screenshot, a trace and a network log)", done.Artifacts)
	}
	done, _ = q.wait(t, nav.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded || !exists(done.Artifacts.Screenshot) {
		t.Errorf("navigate: %s %q, screenshot %q", done.State, done.Error, done.Artifacts.Screenshot)
	}
	done, _ = q.wait(t, bad.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Failed || !exists(done.Artifacts.Screenshot) {
		t.Errorf("a failed extract job: %s %q, screenshot %q", done.State, done.Error, done.Artifacts.Screenshot)
	}
}

func exists(path string) bool {
	st, err := os.Stat(path)
	return path != "" && err == nil && st.Size() > 0
}
