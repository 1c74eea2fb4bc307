package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/pgtest"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/cdpmcp/cdpmcp/jobs/postgres"
	"github.com/cdpmcp/cdpmcp/jobs/storetest"
)

var pg *pgtest.Server

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	var err error
	if pg, err = pgtest.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer pg.Stop()
	return m.Run()
}

func database(t testing.TB) string {
	t.Helper()
	url, err := pg.NewDatabase("jobs")
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// The PostgreSQL store passes the store conformance suite, its handles
// standing for processes using one database at once.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() (jobstore.Store, error) {
		url := database(t)
		return func() (jobstore.Store, error) { return postgres.Open(context.Background(), url) }
	})
}

// Processes starting at once on an empty database create the schema once.
func TestConcurrentMigration(t *testing.T) {
	url := database(t)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			s, err := postgres.Open(context.Background(), url)
			if err == nil {
				s.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Errorf("Open: %v", err)
		}
	}
}

// A bad URL is refused with a hint.
func TestBadURL(t *testing.T) {
	if _, err := postgres.Open(context.Background(), "postgres://[::1"); err == nil {
		t.Fatal("a malformed URL was accepted")
	}
}

// From a job's commit to a free worker (another handle: another process)
// claiming it.
func BenchmarkClaimLatency(b *testing.B) {
	url := database(b)
	storetest.BenchClaimLatency(b, func() (jobstore.Store, error) { return postgres.Open(context.Background(), url) })
}

// A database that is down, restarting or refusing connections for now is
// unreachable (jobstore.Unreachable: try again); a wrong user or database
// is not.
func TestUnreachable(t *testing.T) {
	srv, err := pgtest.Start() // its own: it goes down
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	url, err := srv.NewDatabase("down")
	if err != nil {
		t.Fatal(err)
	}
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, bad := range []string{srv.URL("nosuchdb"), url + "&user=nosuchrole"} {
		if _, err := postgres.Open(ctx, bad); err == nil || jobstore.Unreachable(err) {
			t.Errorf("Open(%s): %v, unreachable %v; want a refusal that is not unreachable", bad, err, jobstore.Unreachable(err))
		}
	}
	if err := srv.Down(); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // a pooled connection the server ended, then a new one refused
		if _, err := s.Get(ctx, "job-x"); !jobstore.Unreachable(err) {
			t.Errorf("Get %d with the database down: %v, want unreachable", i+1, err)
		}
	}
	if _, err := postgres.Open(ctx, url); !jobstore.Unreachable(err) {
		t.Errorf("Open with the database down: %v, want unreachable", err)
	}
	if err := srv.Up(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "job-x"); !errors.Is(err, jobstore.ErrNotFound) {
		t.Errorf("Get once the database is back: %v, want %v", err, jobstore.ErrNotFound)
	}
}
