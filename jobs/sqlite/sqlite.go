// Package sqlite keeps jobs in an embedded SQLite file (modernc.org/sqlite, no
// cgo), for one process on one machine. It is the only package that imports
// the driver.
package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is a jobstore.Store in one SQLite file.
type Store struct {
	jobstore.Hub
	db   *sql.DB // writes (one connection), and reads when read-only
	rdb  *sql.DB // reads: in WAL mode they never wait for a write
	ro   bool
	cols string // columns as selected (a read-only store of an older file lacks some)
	// workerCols are the workers table's, as selected.
	workerCols string

	// mu serialises this process's writes; the file's lock serialises
	// them with other processes' (a `cdpmcp jobs submit` beside a server):
	// every write is an immediate transaction that reads the revision and
	// the sequence it needs from the table.
	mu sync.Mutex
}

var _ jobstore.Store = (*Store)(nil)

// Open opens (creating if needed) the job store in the file at path. With
// readOnly the file must exist and is only read (for `cdpmcp jobs` next to a
// running server).
func Open(ctx context.Context, path string, readOnly bool) (*Store, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	if readOnly {
		q.Add("mode", "ro")
	} else {
		q.Add("_pragma", "journal_mode(wal)")
		q.Add("_pragma", "synchronous(normal)")
		q.Add("_txlock", "immediate")
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open job store %s: %w", path, err)
	}
	s := &Store{db: db, rdb: db, ro: readOnly, cols: columns, workerCols: workerColumns}
	if !readOnly {
		// One writing connection: SQLite takes one writer at a time anyway.
		db.SetMaxOpenConns(1)
		if err := s.migrate(ctx); err != nil {
			db.Close()
			return nil, fmt.Errorf("create job store %s: %w", path, err)
		}
		r := url.Values{}
		r.Add("_pragma", "busy_timeout(5000)")
		r.Add("_pragma", "query_only(1)")
		if s.rdb, err = sql.Open("sqlite", "file:"+path+"?"+r.Encode()); err != nil {
			db.Close()
			return nil, fmt.Errorf("open job store %s: %w", path, err)
		}
		s.rdb.SetMaxIdleConns(4)
	} else {
		// Read what an older file has; it gains the rest when a server opens it.
		if !s.hasColumn(ctx, "workers", "paused") {
			s.workerCols = strings.Replace(s.workerCols, "version, paused", "version, '' AS paused", 1)
		}
		if !s.hasColumn(ctx, "jobs", "tenant") {
			s.cols = strings.Replace(s.cols, "rev, tenant", "rev, '' AS tenant", 1)
		}
		if !s.hasColumn(ctx, "jobs", "lease_ms") {
			s.cols = strings.Replace(s.cols, "worker, lease_ms, origin", "'' AS worker, 0 AS lease_ms, '' AS origin", 1)
		}
	}
	// Through the read pool, so its first connection is open before a
	// caller waits for it.
	var rev int64
	if err := s.rdb.QueryRowContext(ctx, `SELECT COALESCE(MAX(rev), 0) FROM jobs`).Scan(&rev); err != nil {
		s.Close()
		return nil, fmt.Errorf("read job store %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error {
	if s.rdb != s.db {
		s.rdb.Close()
	}
	return s.db.Close()
}

// Shared implements jobstore.Store: a file is this process's alone.
func (s *Store) Shared() bool { return false }

// Create implements jobstore.Store. The key's uniqueness is the table's
// (idem_key UNIQUE): of two processes creating with one key, one inserts
// and the other reads its job.
func (s *Store) Create(ctx context.Context, j *jobstore.Job) (*jobstore.Job, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	c := j.Clone()
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1, COALESCE(MAX(rev), 0) + 1 FROM jobs`).Scan(&c.Seq, &c.Rev); err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	}
	if (c.State != jobstore.Queued || c.HasSecret) && !c.State.Terminal() && c.Lease.IsZero() {
		c.Lease = time.UnixMilli(1) // started by a process that is gone
	}
	args, err := values(c)
	if err != nil {
		return nil, false, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO jobs (`+columns+`) VALUES (`+strings.Repeat("?, ", ncolumns-1)+`?) ON CONFLICT (idem_key) DO NOTHING`, args...)
	if err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	} else if n == 0 {
		old, err := scanOne(tx.QueryRowContext(ctx, `SELECT `+s.cols+` FROM jobs WHERE idem_key = ?`, j.Key))
		return old, false, err
	}
	if err := tx.Commit(); err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	}
	s.Changed(nil, c)
	return c, true, nil
}

// Get implements jobstore.Store.
func (s *Store) Get(ctx context.Context, id string) (*jobstore.Job, error) {
	return scanOne(s.rdb.QueryRowContext(ctx, `SELECT `+s.cols+` FROM jobs WHERE id = ?`, id))
}

// GetByKey implements jobstore.Store.
func (s *Store) GetByKey(ctx context.Context, key string) (*jobstore.Job, error) {
	return scanOne(s.rdb.QueryRowContext(ctx, `SELECT `+s.cols+` FROM jobs WHERE idem_key = ?`, key))
}

// Update implements jobstore.Store.
func (s *Store) Update(ctx context.Context, id string, from []jobstore.State, change func(*jobstore.Job)) (*jobstore.Job, error) {
	return s.modify(ctx, id, from, nil, change)
}

// UpdateHeld implements jobstore.Store.
func (s *Store) UpdateHeld(ctx context.Context, id, worker string, from []jobstore.State, change func(*jobstore.Job)) (*jobstore.Job, error) {
	return s.modify(ctx, id, from, func(j *jobstore.Job, _ time.Time) bool { return j.Worker == worker && !j.Lease.IsZero() }, change)
}

// UpdateExpired implements jobstore.Store.
func (s *Store) UpdateExpired(ctx context.Context, id, worker string, change func(*jobstore.Job)) (*jobstore.Job, error) {
	return s.modify(ctx, id, nil, func(j *jobstore.Job, now time.Time) bool {
		return j.Worker == worker && !j.Lease.IsZero() && j.Lease.Before(now)
	}, change)
}

// modify applies change to a job in one of the states from (any when empty)
// for which held says yes (always when nil). A change that would move the
// job's state back is refused (jobstore.Before), in the UPDATE itself too.
func (s *Store) modify(ctx context.Context, id string, from []jobstore.State, held func(*jobstore.Job, time.Time) bool, change func(*jobstore.Job)) (*jobstore.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("update job %s: %w", id, err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	j, err := scanOne(tx.QueryRowContext(ctx, `SELECT `+columns+` FROM jobs WHERE id = ?`, id))
	if err != nil {
		return nil, err
	}
	if held != nil && !held(j, time.Now()) {
		return nil, fmt.Errorf("job %s: %w", id, jobstore.ErrNotHeld)
	}
	if len(from) > 0 && !slices.Contains(from, j.State) {
		return nil, &jobstore.StateError{ID: id, State: j.State, Want: from}
	}
	before := j.Clone()
	change(j)
	allowed := jobstore.Before(j.State)
	if !slices.Contains(allowed, before.State) {
		return nil, &jobstore.StateError{ID: id, State: before.State, Want: allowed}
	}
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(rev), 0) + 1 FROM jobs`).Scan(&j.Rev); err != nil {
		return nil, fmt.Errorf("update job %s: %w", id, err)
	}
	args, err := values(j)
	if err != nil {
		return nil, err
	}
	args = append(args, id)
	for _, st := range allowed {
		args = append(args, string(st))
	}
	res, err := tx.ExecContext(ctx, `UPDATE jobs SET `+updateSet+` WHERE id = ? AND state IN (`+placeholders(len(allowed))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("update job %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return nil, fmt.Errorf("update job %s: %d rows changed (%v)", id, n, err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("update job %s: %w", id, err)
	}
	s.Changed(before, j)
	return j, nil
}

// placeholders is "?, ?, …": n of them.
func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }
