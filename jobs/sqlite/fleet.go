package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// claimable orders the jobs a worker ($1) may claim at time $2 (ms).
const claimable = `SELECT ` + columns + ` FROM jobs
	WHERE ((lease_ms = 0 AND state IN ('QUEUED', 'DISPATCHED', 'RUNNING')) OR (state = 'QUEUED' AND worker = ?1 AND lease_ms > 0))
	AND (profile = '' OR NOT EXISTS (SELECT 1 FROM profiles p WHERE p.name = (CASE WHEN jobs.tenant = '' THEN jobs.profile ELSE jobs.tenant || '/' || jobs.profile END)
		AND p.holder NOT IN ('', ?1) AND p.lease_ms > ?2))
	ORDER BY priority DESC, seq LIMIT 1`

// Claim implements jobstore.Store.
func (s *Store) Claim(ctx context.Context, worker string, lease time.Duration) (*jobstore.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("claim a job: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	now := time.Now()
	j, err := scanOne(tx.QueryRowContext(ctx, claimable, worker, now.UnixMilli()))
	if errors.Is(err, jobstore.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	before := j.Clone()
	until := now.Add(lease).UnixMilli()
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(rev), 0) + 1 FROM jobs`).Scan(&j.Rev); err != nil {
		return nil, fmt.Errorf("claim a job: %w", err)
	}
	j.Worker, j.Lease = worker, time.UnixMilli(until)
	if j.State == jobstore.Queued {
		j.State, j.Progress, j.Summary = jobstore.Dispatched, 0.05, "dispatched to "+worker
	}
	args, err := values(j)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE jobs SET `+updateSet+` WHERE id = ?`, append(args, j.ID)...); err != nil {
		return nil, fmt.Errorf("claim job %s: %w", j.ID, err)
	}
	if j.Profile != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO profiles (name, holder, lease_ms) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, lease_ms = excluded.lease_ms`, jobstore.ProfileKey(j.Tenant, j.Profile), worker, until); err != nil {
			return nil, fmt.Errorf("claim profile %s: %w", j.Profile, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("claim job %s: %w", j.ID, err)
	}
	s.Changed(before, j)
	return j, nil
}

// Renew implements jobstore.Store.
func (s *Store) Renew(ctx context.Context, w jobstore.Worker, lease time.Duration) (map[string]jobstore.State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	until := now.Add(lease).UnixMilli()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("renew leases: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	if _, err := tx.ExecContext(ctx, `INSERT INTO workers (id, live_view, max_tabs, busy, started_ms, seen_ms, version, paused) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET live_view = excluded.live_view, max_tabs = excluded.max_tabs, busy = excluded.busy,
		started_ms = excluded.started_ms, seen_ms = excluded.seen_ms, version = excluded.version, paused = excluded.paused`,
		w.ID, w.LiveView, w.MaxTabs, w.Busy, ms(w.Started), now.UnixMilli(), w.Version, w.Paused); err != nil {
		return nil, fmt.Errorf("renew leases: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE profiles SET lease_ms = ? WHERE holder = ? AND lease_ms > 0`, until, w.ID); err != nil {
		return nil, fmt.Errorf("renew leases: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `UPDATE jobs SET lease_ms = ? WHERE worker = ? AND lease_ms > 0
		AND state IN ('QUEUED', 'DISPATCHED', 'RUNNING', 'WAITING_FOR_HUMAN', 'RESUMED') RETURNING id, state`, until, w.ID)
	if err != nil {
		return nil, fmt.Errorf("renew leases: %w", err)
	}
	held := map[string]jobstore.State{}
	for rows.Next() {
		var id, state string
		if err := rows.Scan(&id, &state); err != nil {
			rows.Close()
			return nil, err
		}
		held[id] = jobstore.State(state)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return held, tx.Commit()
}

// Leave implements jobstore.Store.
func (s *Store) Leave(ctx context.Context, worker string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, q := range []string{
		`UPDATE jobs SET lease_ms = 1 WHERE worker = ? AND lease_ms > 0`,
		`UPDATE profiles SET lease_ms = 1 WHERE holder = ? AND lease_ms > 0`,
		`DELETE FROM workers WHERE id = ?`,
	} {
		if _, err := s.db.ExecContext(ctx, q, worker); err != nil {
			return fmt.Errorf("leave: %w", err)
		}
	}
	return nil
}

// workerColumns are the workers table's columns, as Workers scans them.
const workerColumns = "id, live_view, max_tabs, busy, started_ms, seen_ms, version, paused"

// Workers implements jobstore.Store.
func (s *Store) Workers(ctx context.Context, window time.Duration) ([]jobstore.Worker, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT `+s.workerCols+` FROM workers
		WHERE seen_ms >= ? ORDER BY id`, time.Now().Add(-window).UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("list workers: %w", err)
	}
	defer rows.Close()
	var out []jobstore.Worker
	for rows.Next() {
		var w jobstore.Worker
		var started, seen int64
		if err := rows.Scan(&w.ID, &w.LiveView, &w.MaxTabs, &w.Busy, &started, &seen, &w.Version, &w.Paused); err != nil {
			return nil, err
		}
		w.Started, w.Seen = fromMs(started), fromMs(seen)
		out = append(out, w)
	}
	return out, rows.Err()
}

// Counts implements jobstore.Store.
func (s *Store) Counts(ctx context.Context) (map[jobstore.State]int, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT state, COUNT(*) FROM jobs GROUP BY state`)
	if err != nil {
		return nil, fmt.Errorf("count jobs: %w", err)
	}
	defer rows.Close()
	out := map[jobstore.State]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, err
		}
		out[jobstore.State(st)] = n
	}
	return out, rows.Err()
}

// Ahead implements jobstore.Store.
func (s *Store) Ahead(ctx context.Context, j *jobstore.Job) (int, error) {
	var n int
	err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM jobs WHERE lease_ms = 0 AND state IN ('QUEUED', 'DISPATCHED', 'RUNNING')
		AND (priority > ?1 OR (priority = ?1 AND seq < ?2))`, j.Priority, j.Seq).Scan(&n)
	return n, err
}

// TakeProfile implements jobstore.Store.
func (s *Store) TakeProfile(ctx context.Context, name, worker string, lease time.Duration) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	res, err := s.db.ExecContext(ctx, `INSERT INTO profiles (name, holder, lease_ms) VALUES (?1, ?2, ?3)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, lease_ms = excluded.lease_ms
		WHERE profiles.holder IN ('', excluded.holder) OR profiles.lease_ms <= ?4`, name, worker, now.Add(lease).UnixMilli(), now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("take profile %s: %w", name, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Profile implements jobstore.Store.
func (s *Store) Profile(ctx context.Context, name string) (int64, []byte, error) {
	var version int64
	var state []byte
	err := s.rdb.QueryRowContext(ctx, `SELECT version, state FROM profiles WHERE name = ?`, name).Scan(&version, &state)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil
	}
	return version, state, err
}

// SaveProfile implements jobstore.Store.
func (s *Store) SaveProfile(ctx context.Context, name, worker string, state []byte, release bool) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("save profile %s: %w", name, err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	var holder string
	var lease, version int64
	err = tx.QueryRowContext(ctx, `SELECT holder, lease_ms, version FROM profiles WHERE name = ?`, name).Scan(&holder, &lease, &version)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (holder != worker || lease == 0)) {
		return 0, fmt.Errorf("profile %s: %w", name, jobstore.ErrNotHeld)
	} else if err != nil {
		return 0, err
	}
	if state != nil {
		version++
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET version = ?, state = ? WHERE name = ?`, version, state, name); err != nil {
			return 0, fmt.Errorf("save profile %s: %w", name, err)
		}
	}
	if release {
		if _, err := tx.ExecContext(ctx, `UPDATE profiles SET lease_ms = 0 WHERE name = ?`, name); err != nil {
			return 0, fmt.Errorf("release profile %s: %w", name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("save profile %s: %w", name, err)
	}
	if release {
		s.Publish(jobstore.Event{Claimable: true}) // its jobs may be claimed elsewhere
	}
	return version, nil
}
