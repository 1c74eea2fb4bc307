package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
	"github.com/cdpmcp/cdpmcp/jobs/storetest"
	_ "modernc.org/sqlite"
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

func job(id, key string) *jobstore.Job {
	return &jobstore.Job{ID: id, Key: key, CorrelationID: "c", URL: "http://127.0.0.1/", MaxTabs: 1, Priority: 5,
		Task: jobstore.Task{Type: jobstore.TaskNavigate, Password: "s3cret-pw"}, State: jobstore.Queued, Created: time.UnixMilli(1700000000000)}
}

// The SQLite store passes the store conformance suite.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() (jobstore.Store, error) {
		path := filepath.Join(t.TempDir(), "jobs.db")
		return func() (jobstore.Store, error) { return sqlite.Open(context.Background(), path, false) }
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
	if _, err := w.Update(ctx, "job-1", nil, func(j *jobstore.Job) { j.Summary = "seen" }); err != nil {
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
	storetest.BenchClaimLatency(b, func() (jobstore.Store, error) { return sqlite.Open(context.Background(), path, false) })
}

// A job keeps its tenant; a store an older cdpmcp made (no tenant column) is
// read as the local user's, by a reader before the server adds the column,
// and after.
func TestTenantAndOlderStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "jobs.db"), false)
	j := job("job-t", "kt")
	j.Tenant = "alice"
	if _, _, err := s.Create(ctx, j); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, "job-t"); err != nil || got.Tenant != "alice" {
		t.Errorf("Get: tenant %q, %v", got.Tenant, err)
	}

	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(olderSchema); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO jobs (id, seq, idem_key, correlation_id, url, max_tabs, priority, handoff, task, state, created_ms, rev)
		VALUES ('job-old', 1, 'k-old', 'c', 'http://127.0.0.1/', 1, 5, 0, '{"type":"navigate"}', 'SUCCEEDED', 1700000000000, 1)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(olderWorkers); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro := open(t, path, true)
	if got, err := ro.Get(ctx, "job-old"); err != nil || got.Tenant != "" || got.State != jobstore.Succeeded {
		t.Fatalf("read-only on an older store: %+v, %v", got, err)
	}
	if ws, err := ro.Workers(ctx, time.Minute); err != nil || len(ws) != 1 || ws[0].ID != "w-old" || ws[0].Paused != "" {
		t.Fatalf("read-only on an older store's workers: %+v, %v", ws, err)
	}
	ro.Close()
	rw := open(t, path, false)
	if got, err := rw.List(ctx, jobstore.Filter{}); err != nil || len(got) != 1 || got[0].Tenant != "" {
		t.Fatalf("after the upgrade: %v, %v", got, err)
	}
	n := job("job-new", "k-new")
	n.Tenant = "bob"
	if _, _, err := rw.Create(ctx, n); err != nil {
		t.Fatal(err)
	}
	if got, err := rw.Get(ctx, "job-new"); err != nil || got.Tenant != "bob" {
		t.Errorf("new job in the upgraded store: %+v, %v", got, err)
	}
	if _, err := rw.Renew(ctx, jobstore.Worker{ID: "w-old", MaxTabs: 1, Paused: "no browser"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if ws, err := rw.Workers(ctx, time.Minute); err != nil || len(ws) != 1 || ws[0].Paused != "no browser" {
		t.Errorf("a pause in the upgraded store: %+v, %v", ws, err)
	}
}

// olderWorkers is the workers table before a worker's pause was kept, with
// a worker seen just now.
const olderWorkers = `CREATE TABLE workers (id TEXT PRIMARY KEY, live_view TEXT NOT NULL DEFAULT '', max_tabs INTEGER NOT NULL DEFAULT 0,
	busy INTEGER NOT NULL DEFAULT 0, started_ms INTEGER NOT NULL DEFAULT 0, seen_ms INTEGER NOT NULL DEFAULT 0, version TEXT NOT NULL DEFAULT '');
INSERT INTO workers (id, max_tabs, seen_ms) VALUES ('w-old', 2, CAST(unixepoch('subsec') * 1000 AS INTEGER));`

// olderSchema is the jobs table of cdpmcp before tenants.
const olderSchema = `CREATE TABLE jobs (
	id TEXT PRIMARY KEY, seq INTEGER NOT NULL UNIQUE, idem_key TEXT NOT NULL UNIQUE, correlation_id TEXT NOT NULL,
	url TEXT NOT NULL, profile TEXT NOT NULL DEFAULT '', max_tabs INTEGER NOT NULL, priority INTEGER NOT NULL,
	handoff INTEGER NOT NULL, task TEXT NOT NULL, has_secret INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL,
	progress REAL NOT NULL DEFAULT 0, summary TEXT NOT NULL DEFAULT '', final_url TEXT NOT NULL DEFAULT '',
	artifacts TEXT NOT NULL DEFAULT '{}', error TEXT NOT NULL DEFAULT '', result TEXT NOT NULL DEFAULT '',
	handoff_url TEXT NOT NULL DEFAULT '', note TEXT NOT NULL DEFAULT '', attempt INTEGER NOT NULL DEFAULT 0,
	effects INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL, started_ms INTEGER NOT NULL DEFAULT 0,
	finished_ms INTEGER NOT NULL DEFAULT 0, rev INTEGER NOT NULL)`
