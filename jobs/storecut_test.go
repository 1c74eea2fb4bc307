package jobs_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/pgtest"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/postgres"
)

// outageDoor starts a PostgreSQL server of the test's own (the test stops
// it: the other tests' server stays up), and opens a front door on it and a
// second handle on the same database: another process.
func outageDoor(t *testing.T) (*pgtest.Server, *jobs.Queue, jobs.Store) {
	t.Helper()
	srv, url := pgtest.Own(t, "outage")
	open := func() jobs.Store {
		s, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	door, err := jobs.OpenDoor(context.Background(), jobs.Config{Store: open()}, "shared by the workers")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = door.Close() })
	return srv, door, open()
}

// A wait with time left goes on through a database restart (a fast
// shutdown, then 3 s down) and answers the job's end (a cancel by another process) once it comes; one
// whose deadline comes while the database is still down says that the store
// could not be reached, for how long, and what the job was when last read.
func TestWaitThroughStoreOutage(t *testing.T) {
	t.Parallel()
	srv, door, other := outageDoor(t)
	ctx := testCtx(t)
	j, _, err := door.Submit(ctx, jobs.SubmitRequest{CorrelationID: "outage-1", URL: site.URL("/"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		j   *jobs.Job
		err error
	}
	waited := make(chan answer, 1)
	go func() {
		wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		j, err := door.Wait(wctx, j.ID)
		waited <- answer{j, err}
	}()
	time.Sleep(300 * time.Millisecond) // the wait has read the job
	if err := srv.Down(); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-waited:
		t.Fatalf("the wait ended as the database went down: %v %v", a.j, a.err)
	case <-time.After(3 * time.Second):
	}
	if err := srv.Up(); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Update(ctx, j.ID, nil, func(j *jobs.Job) { j.State, j.Summary = jobs.Cancelled, "cancelled elsewhere" }); err != nil {
		t.Fatalf("end the job: %v", err)
	}
	a := <-waited
	if a.err != nil || a.j.State != jobs.Cancelled {
		t.Fatalf("the wait answered %v, %v; want the job CANCELLED", a.j, a.err)
	}

	// Down until the wait's deadline: its error says so.
	j, _, err = door.Submit(ctx, jobs.SubmitRequest{CorrelationID: "outage-2", URL: site.URL("/"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	go func() {
		time.Sleep(500 * time.Millisecond)
		_ = srv.Down()
	}()
	start := time.Now()
	got, err := door.Wait(wctx, j.ID)
	if took := time.Since(start); took < 2500*time.Millisecond {
		t.Errorf("the wait ended after %s, before its 3 s deadline: %v", took, err)
	}
	var ce *cdpclient.Error
	if !errors.As(err, &ce) || !strings.Contains(ce.Msg, "could not be reached") || !strings.Contains(ce.Msg, "of the wait") ||
		!strings.Contains(ce.Msg, "QUEUED when last read") || !strings.Contains(ce.Hint, "wait for it again") {
		t.Fatalf("a wait that ran out with the database down answered %v, %#v; want it to say the store could not be reached, and the job's last state", got, err)
	}
	if got == nil || got.ID != j.ID {
		t.Errorf("the wait returned %v, want the job as last read", got)
	}
}

// A submit while the database is down says that it could not be reached,
// not that a file may be damaged, and that retrying with the same
// correlationId is safe; the retry, once it is back, makes the job once.
func TestSubmitWhileStoreDown(t *testing.T) {
	t.Parallel()
	srv, door, _ := outageDoor(t)
	ctx := testCtx(t)
	req := jobs.SubmitRequest{CorrelationID: "down-1", URL: site.URL("/"), Task: jobs.Task{Type: jobs.TaskNavigate}}
	if err := srv.Down(); err != nil {
		t.Fatal(err)
	}
	_, _, err := door.Submit(ctx, req)
	var ce *cdpclient.Error
	if !errors.As(err, &ce) {
		t.Fatalf("Submit with the database down: %v, want a *cdpclient.Error", err)
	}
	if !strings.Contains(ce.Msg, "could not be reached") || strings.Contains(ce.Hint, "file") ||
		!strings.Contains(ce.Hint, "same correlationId") || !strings.Contains(ce.Hint, "check that it runs") {
		t.Errorf("Submit with the database down answered %q (hint %q); want it unreachable, what to check, and that a retry is safe", ce.Msg, ce.Hint)
	}
	if err := srv.Up(); err != nil {
		t.Fatal(err)
	}
	j1, created1, err := door.Submit(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	j2, created2, err := door.Submit(ctx, req)
	if err != nil || j1.ID != j2.ID || created2 {
		t.Errorf("retries once the database is back: %v created %v, %v created %v, %v; want one job", j1.ID, created1, j2.ID, created2, err)
	}
}
