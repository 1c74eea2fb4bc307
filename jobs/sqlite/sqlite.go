// Package sqlite keeps jobs in an embedded SQLite file (modernc.org/sqlite, no
// cgo). It is the only package that imports the driver.
package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is a jobs.Store in one SQLite file.
type Store struct {
	db  *sql.DB // writes (one connection), and reads when read-only
	rdb *sql.DB // reads: in WAL mode they never wait for a write
	ro  bool
	// sel is what reads select: columns, or on a store an older cdpmcp made
	// and this one only reads, columns with an empty tenant.
	sel string

	mu  sync.Mutex // serialises writes and the revision counter
	rev int64
}

var _ jobs.Store = (*Store)(nil)

const schema = `
CREATE TABLE IF NOT EXISTS jobs (
	id TEXT PRIMARY KEY,
	seq INTEGER NOT NULL UNIQUE,
	idem_key TEXT NOT NULL UNIQUE,
	correlation_id TEXT NOT NULL,
	url TEXT NOT NULL,
	profile TEXT NOT NULL DEFAULT '',
	max_tabs INTEGER NOT NULL,
	priority INTEGER NOT NULL,
	handoff INTEGER NOT NULL,
	task TEXT NOT NULL,
	has_secret INTEGER NOT NULL DEFAULT 0,
	state TEXT NOT NULL,
	progress REAL NOT NULL DEFAULT 0,
	summary TEXT NOT NULL DEFAULT '',
	final_url TEXT NOT NULL DEFAULT '',
	artifacts TEXT NOT NULL DEFAULT '{}',
	error TEXT NOT NULL DEFAULT '',
	result TEXT NOT NULL DEFAULT '',
	handoff_url TEXT NOT NULL DEFAULT '',
	note TEXT NOT NULL DEFAULT '',
	attempt INTEGER NOT NULL DEFAULT 0,
	effects INTEGER NOT NULL DEFAULT 0,
	created_ms INTEGER NOT NULL,
	started_ms INTEGER NOT NULL DEFAULT 0,
	finished_ms INTEGER NOT NULL DEFAULT 0,
	rev INTEGER NOT NULL,
	tenant TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state);
CREATE INDEX IF NOT EXISTS jobs_rev ON jobs(rev);
`

const columns = `id, seq, idem_key, correlation_id, url, profile, max_tabs, priority, handoff, task, has_secret,
	state, progress, summary, final_url, artifacts, error, result, handoff_url, note, attempt, effects,
	created_ms, started_ms, finished_ms, rev, tenant`

// updateSet is "id = ?, seq = ?, …" for every column.
var updateSet = func() string {
	names := strings.Split(columns, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n) + " = ?"
	}
	return strings.Join(names, ", ")
}()

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
	s := &Store{db: db, rdb: db, ro: readOnly, sel: columns}
	if !readOnly {
		// One writing connection: SQLite takes one writer at a time anyway.
		db.SetMaxOpenConns(1)
		if _, err := db.ExecContext(ctx, schema); err != nil {
			db.Close()
			return nil, fmt.Errorf("create job store %s: %w", path, err)
		}
		if err := migrate(ctx, db); err != nil {
			db.Close()
			return nil, fmt.Errorf("update job store %s: %w", path, err)
		}
		r := url.Values{}
		r.Add("_pragma", "busy_timeout(5000)")
		r.Add("_pragma", "query_only(1)")
		if s.rdb, err = sql.Open("sqlite", "file:"+path+"?"+r.Encode()); err != nil {
			db.Close()
			return nil, fmt.Errorf("open job store %s: %w", path, err)
		}
		s.rdb.SetMaxIdleConns(4)
	}
	if readOnly {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info('jobs') WHERE name = 'tenant'`).Scan(&n); err == nil && n == 0 {
			s.sel = strings.Replace(columns, "rev, tenant", "rev, '' AS tenant", 1)
		}
	}
	// Through the read pool, so its first connection is open before a
	// caller waits for it.
	if err := s.rdb.QueryRowContext(ctx, `SELECT COALESCE(MAX(rev), 0) FROM jobs`).Scan(&s.rev); err != nil {
		s.Close()
		return nil, fmt.Errorf("read job store %s: %w", path, err)
	}
	return s, nil
}

// migrate adds the columns a store made by an older cdpmcp lacks: tenant
// (its jobs are the local user's).
func migrate(ctx context.Context, db *sql.DB) error {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info('jobs') WHERE name = 'tenant'`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, `ALTER TABLE jobs ADD COLUMN tenant TEXT NOT NULL DEFAULT ''`)
	return err
}

// Close closes the database.
func (s *Store) Close() error {
	if s.rdb != s.db {
		s.rdb.Close()
	}
	return s.db.Close()
}

// Create implements jobs.Store.
func (s *Store) Create(ctx context.Context, j *jobs.Job) (*jobs.Job, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	if old, err := scanOne(tx.QueryRowContext(ctx, `SELECT `+columns+` FROM jobs WHERE idem_key = ?`, j.Key)); err == nil {
		return old, false, nil
	} else if !errors.Is(err, jobs.ErrNotFound) {
		return nil, false, err
	}
	c := j.Clone()
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs`).Scan(&c.Seq); err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	}
	c.Rev = s.rev + 1
	args, err := values(c)
	if err != nil {
		return nil, false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO jobs (`+columns+`) VALUES (`+strings.Repeat("?, ", 26)+`?)`, args...); err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	}
	s.rev = c.Rev
	return c, true, nil
}

// Get implements jobs.Store.
func (s *Store) Get(ctx context.Context, id string) (*jobs.Job, error) {
	return scanOne(s.rdb.QueryRowContext(ctx, `SELECT `+s.sel+` FROM jobs WHERE id = ?`, id))
}

// Update implements jobs.Store.
func (s *Store) Update(ctx context.Context, id string, from []jobs.State, change func(*jobs.Job)) (*jobs.Job, error) {
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
	if len(from) > 0 && !slices.Contains(from, j.State) {
		return nil, &jobs.StateError{ID: id, State: j.State, Want: from}
	}
	change(j)
	j.Rev = s.rev + 1
	args, err := values(j)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET `+updateSet+` WHERE id = ?`, append(args, id)...); err != nil {
		return nil, fmt.Errorf("update job %s: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("update job %s: %w", id, err)
	}
	s.rev = j.Rev
	return j, nil
}

// List implements jobs.Store.
func (s *Store) List(ctx context.Context, f jobs.Filter) ([]*jobs.Job, error) {
	q := `SELECT ` + s.sel + ` FROM jobs WHERE rev > ?`
	args := []any{f.Since}
	if len(f.States) > 0 {
		q += ` AND state IN (` + strings.TrimSuffix(strings.Repeat("?, ", len(f.States)), ", ") + `)`
		for _, st := range f.States {
			args = append(args, string(st))
		}
	}
	q += ` ORDER BY rev`
	if f.Limit > 0 {
		q += fmt.Sprintf(` LIMIT %d`, f.Limit)
	}
	rows, err := s.rdb.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	defer rows.Close()
	var out []*jobs.Job
	for rows.Next() {
		j, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

type scanner interface{ Scan(dest ...any) error }

func scanOne(row *sql.Row) (*jobs.Job, error) {
	j, err := scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, jobs.ErrNotFound
	}
	return j, err
}

func scan(r scanner) (*jobs.Job, error) {
	var (
		j                                     jobs.Job
		task, artifacts, result, state        string
		handoff, hasSecret, effects           bool
		createdMs, startedMs, finishedMs, seq int64
	)
	err := r.Scan(&j.ID, &seq, &j.Key, &j.CorrelationID, &j.URL, &j.Profile, &j.MaxTabs, &j.Priority, &handoff, &task, &hasSecret,
		&state, &j.Progress, &j.Summary, &j.FinalURL, &artifacts, &j.Error, &result, &j.HandoffURL, &j.Note, &j.Attempt, &effects,
		&createdMs, &startedMs, &finishedMs, &j.Rev, &j.Tenant)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		return nil, fmt.Errorf("read job: %w", err)
	}
	j.Seq, j.State, j.Handoff, j.HasSecret, j.Effects = seq, jobs.State(state), handoff, hasSecret, effects
	if err := json.Unmarshal([]byte(task), &j.Task); err != nil {
		return nil, fmt.Errorf("read job %s task: %w", j.ID, err)
	}
	if err := json.Unmarshal([]byte(artifacts), &j.Artifacts); err != nil {
		return nil, fmt.Errorf("read job %s artifacts: %w", j.ID, err)
	}
	if result != "" {
		j.Result = json.RawMessage(result)
	}
	j.Created, j.Started, j.Finished = fromMs(createdMs), fromMs(startedMs), fromMs(finishedMs)
	return &j, nil
}

// values returns a job's columns in the order of columns.
func values(j *jobs.Job) ([]any, error) {
	task := j.Task
	task.Password = "" // never stored
	tb, err := json.Marshal(task)
	if err != nil {
		return nil, err
	}
	ab, err := json.Marshal(j.Artifacts)
	if err != nil {
		return nil, err
	}
	return []any{j.ID, j.Seq, j.Key, j.CorrelationID, j.URL, j.Profile, j.MaxTabs, j.Priority, j.Handoff, string(tb), j.HasSecret,
		string(j.State), j.Progress, j.Summary, j.FinalURL, string(ab), j.Error, string(j.Result), j.HandoffURL, j.Note, j.Attempt, j.Effects,
		ms(j.Created), ms(j.Started), ms(j.Finished), j.Rev, j.Tenant}, nil
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMs(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}
