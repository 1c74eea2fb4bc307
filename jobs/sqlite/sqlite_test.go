package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
	"github.com/cdpmcp/cdpmcp/jobs/storetest"
)

func open(t *testing.T, path string, ro bool) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, ro)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func job(id, key string) *jobs.Job {
	return &jobs.Job{ID: id, Key: key, CorrelationID: "c", URL: "http://127.0.0.1/", MaxTabs: 1, Priority: 5,
		Task: jobs.Task{Type: jobs.TaskNavigate, Password: "s3cret-pw"}, State: jobs.Queued, Created: time.UnixMilli(1700000000000)}
}

// The SQLite store passes the store conformance suite.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() (jobs.Store, error) {
		path := filepath.Join(t.TempDir(), "jobs.db")
		return func() (jobs.Store, error) { return sqlite.Open(context.Background(), path, false) }
	})
}

// A read-only store reads what a writer commits, while the writer has it open.
func TestReadOnlyBesideWriter(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "jobs.db")
	w := open(t, path, false)
	ctx := context.Background()
	if _, _, err := w.Create(ctx, job("job-1", "1")); err != nil {
		t.Fatal(err)
	}
	r := open(t, path, true)
	if _, err := w.Update(ctx, "job-1", nil, func(j *jobs.Job) { j.Summary = "seen" }); err != nil {
		t.Fatal(err)
	}
	j, err := r.Get(ctx, "job-1")
	if err != nil || j.Summary != "seen" {
		t.Errorf("reader got %+v %v", j, err)
	}
	if _, _, err := r.Create(ctx, job("job-2", "2")); err == nil {
		t.Errorf("a read-only store wrote")
	}
}

// Submit and Status latency: the goal is a median of at most 5 ms.
func BenchmarkCreate(b *testing.B) {
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "jobs.db"), false)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		id := "job-" + time.Now().Format("150405.000000000") + string(rune('a'+i%26))
		if _, _, err := s.Create(ctx, job(id, id)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGet(b *testing.B) {
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "jobs.db"), false)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for i := range 1000 {
		id := "job-" + string(rune('a'+i%26)) + time.Now().Format("150405.000000000")
		if _, _, err := s.Create(ctx, job(id, id)); err != nil {
			b.Fatal(err)
		}
	}
	if _, _, err := s.Create(ctx, job("job-x", "x")); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Get(ctx, "job-x"); err != nil {
			b.Fatal(err)
		}
	}
}

// From a job's commit to a free worker claiming it.
func BenchmarkClaimLatency(b *testing.B) {
	path := filepath.Join(b.TempDir(), "jobs.db")
	storetest.BenchClaimLatency(b, func() (jobs.Store, error) { return sqlite.Open(context.Background(), path, false) })
}
