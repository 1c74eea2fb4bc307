package jobs_test

import (
	"context"
	"errors"
	"strings"
	"testing"

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
	srv, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	url, err := srv.NewDatabase("outage")
	if err != nil {
		t.Fatal(err)
	}
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
