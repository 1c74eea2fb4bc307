package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
)

// A job whose worker died, taken up by another that has no free tab, says
// that it is queued to run again and why, not what the dead worker last
// did ("loading …").
func TestFleetJobTakenUpSaysQueuedAgain(t *testing.T) {
	t.Parallel()
	db := fleetDB(t)
	ctx := testCtx(t, 3*time.Minute)
	store := fleetStore(t, db)
	ws := map[string]*workerProc{}
	for _, id := range []string{"up-w1", "up-w2"} {
		ws[id] = startWorker(t, db, id, "--max-tabs", "1")
	}
	submit := func(n int) string {
		t.Helper()
		job := fmt.Sprintf(`{"correlationId":"hang-%d","url":"%s","task":{"type":"navigate","timeoutMs":3600000}}`, n, fmtURL("/jobs/hang?n=%d", n))
		p := startProc(t, "jobs", "submit", "--jobs-db", db, job)
		if code := p.exit(t, time.Minute); code != 0 {
			t.Fatalf("submit exited %d", code)
		}
		var a struct{ JobID string }
		if err := json.Unmarshal([]byte(p.stdout.String()), &a); err != nil {
			t.Fatal(err)
		}
		return a.JobID
	}
	lost, busy := submit(1), submit(2)
	running := waitStates(t, ctx, store, []string{lost, busy}, jobs.Running)
	ws[running[lost].Worker].kill()
	for j, err := store.Get(ctx, lost); !j.Lease.IsZero(); j, err = store.Get(ctx, lost) {
		if err != nil || ctx.Err() != nil {
			t.Fatalf("job %s was not taken up: %v %v", lost, j, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	status := startProc(t, "jobs", "status", "--jobs-db", db, lost)
	status.exit(t, time.Minute)
	want := "queued to run again: worker " + running[lost].Worker + " went away while it ran"
	if !strings.Contains(status.stdout.String(), want) {
		t.Errorf("the status of a job taken up after its worker died: %s\nwant it to say %q", status.stdout, want)
	}
	for _, id := range []string{lost, busy} {
		startProc(t, "jobs", "cancel", "--jobs-db", db, id).exit(t, time.Minute)
	}
}
