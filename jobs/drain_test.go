package jobs_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// A drain does not wait for a job that waits for a person (a person's wait
// outlasts any grace); the close then ends it at once with why, not as a
// job that ran, and a job that never got to run stays claimable.
func TestDrainSkipsAJobWaitingForAPerson(t *testing.T) {
	t.Parallel()
	view := &liveView{offered: map[string]*cdpclient.Page{}}
	path := t.TempDir()
	q := openQueue(t, path, jobs.Config{MaxTabs: 2, Handoff: view})
	task := jobs.Task{Type: jobs.TaskExtract, Extract: json.RawMessage(`{"type":"object","properties":{"warranty":{"type":"string"}}}`)}
	j := q.submit(t, jobs.SubmitRequest{CorrelationID: "drain-gate", URL: site.URL("/jobs/gate.html"), HandoffAllowed: true, Task: task})
	if w, _ := q.wait(t, j.ID, jobs.WaitingForHuman, jobs.Succeeded, jobs.Failed); w.State != jobs.WaitingForHuman {
		t.Fatalf("job on a CAPTCHA: %s %q", w.State, w.Summary)
	}
	drained := make(chan struct{})
	go func() {
		q.Drain(context.Background(), time.Hour)
		close(drained)
	}()
	select {
	case <-drained:
	case <-testCtx(t).Done():
		t.Fatal("Drain with an hour's grace waited for a job that waits for a person")
	}
	q.close()
	q = openQueue(t, path, jobs.Config{MaxTabs: 1})
	defer q.close()
	got, err := q.Status(testCtx(t), j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != jobs.Failed || !strings.HasPrefix(got.Error, "interrupted: the server stopped while the job waited for a person") {
		t.Errorf("the job that waited for a person when its server stopped: %s %q", got.State, got.Error)
	}
}
