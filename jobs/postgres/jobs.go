package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/jackc/pgx/v5"
)

// Create implements jobstore.Store. The key's uniqueness is the table's
// (idem_key UNIQUE): of two processes creating with one key, one inserts
// and the other reads its job.
func (s *Store) Create(ctx context.Context, j *jobstore.Job) (*jobstore.Job, bool, error) {
	c := j.Clone()
	if (c.State != jobstore.Queued || c.HasSecret) && !c.State.Terminal() && c.Lease.IsZero() {
		c.Lease = time.UnixMilli(1) // started by a process that is gone
	}
	args, err := values(c)
	if err != nil {
		return nil, false, err
	}
	var stored *jobstore.Job
	created := true
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		stored, err = scanOne(tx.QueryRow(ctx, `INSERT INTO cdpmcp.jobs (`+insertColumns+`) VALUES (`+placeholders+`)
			ON CONFLICT (idem_key) DO NOTHING RETURNING `+columns, args...))
		if errors.Is(err, jobstore.ErrNotFound) {
			created = false
			stored, err = scanOne(tx.QueryRow(ctx, `SELECT `+columns+` FROM cdpmcp.jobs WHERE idem_key = $1`, c.Key))
			return err
		}
		if err != nil {
			return err
		}
		return notify(ctx, tx, jobstore.Changes(nil, stored))
	})
	if err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	}
	return stored, created, nil
}

// Get implements jobstore.Store.
func (s *Store) Get(ctx context.Context, id string) (*jobstore.Job, error) {
	return scanOne(s.pool.QueryRow(ctx, `SELECT `+columns+` FROM cdpmcp.jobs WHERE id = $1`, id))
}

// GetByKey implements jobstore.Store.
func (s *Store) GetByKey(ctx context.Context, key string) (*jobstore.Job, error) {
	return scanOne(s.pool.QueryRow(ctx, `SELECT `+columns+` FROM cdpmcp.jobs WHERE idem_key = $1`, key))
}

// Update implements jobstore.Store.
func (s *Store) Update(ctx context.Context, id string, from []jobstore.State, change func(*jobstore.Job)) (*jobstore.Job, error) {
	return s.modify(ctx, id, from, nil, change)
}

// UpdateHeld implements jobstore.Store.
func (s *Store) UpdateHeld(ctx context.Context, id, worker string, from []jobstore.State, change func(*jobstore.Job)) (*jobstore.Job, error) {
	return s.modify(ctx, id, from, func(j *jobstore.Job, _ bool) bool { return j.Worker == worker && !j.Lease.IsZero() }, change)
}

// UpdateExpired implements jobstore.Store.
func (s *Store) UpdateExpired(ctx context.Context, id, worker string, change func(*jobstore.Job)) (*jobstore.Job, error) {
	return s.modify(ctx, id, nil, func(j *jobstore.Job, expired bool) bool { return j.Worker == worker && expired }, change)
}

// modify applies change to a job in one of the states from (any when empty)
// for which held says yes (always when nil); expired is whether the job's
// lease has ended by the database's clock. A change that would move the
// job's state back is refused (jobstore.Before), in the UPDATE itself too.
func (s *Store) modify(ctx context.Context, id string, from []jobstore.State, held func(j *jobstore.Job, expired bool) bool, change func(*jobstore.Job)) (*jobstore.Job, error) {
	var out *jobstore.Job
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var expired bool
		j, err := scan(tx.QueryRow(ctx, `SELECT `+columns+`, COALESCE(lease_until < now(), false) FROM cdpmcp.jobs WHERE id = $1 FOR UPDATE`, id), &expired)
		if errors.Is(err, pgx.ErrNoRows) {
			return jobstore.ErrNotFound
		} else if err != nil {
			return err
		}
		if held != nil && !held(j, expired) {
			return fmt.Errorf("job %s: %w", id, jobstore.ErrNotHeld)
		}
		if len(from) > 0 && !slices.Contains(from, j.State) {
			return &jobstore.StateError{ID: id, State: j.State, Want: from}
		}
		before := j.Clone()
		change(j)
		allowed := jobstore.Before(j.State)
		if !slices.Contains(allowed, before.State) {
			return &jobstore.StateError{ID: id, State: before.State, Want: allowed}
		}
		args, err := values(j)
		if err != nil {
			return err
		}
		states := make([]string, len(allowed))
		for i, st := range allowed {
			states[i] = string(st)
		}
		args = append(args, states)
		if out, err = scanOne(tx.QueryRow(ctx, `UPDATE cdpmcp.jobs SET `+updateSet+`, rev = nextval('cdpmcp.rev')
			WHERE id = $1 AND state = ANY($`+strconv.Itoa(len(args))+`) RETURNING `+columns, args...)); err != nil {
			return fmt.Errorf("update job %s: %w", id, err)
		}
		return notify(ctx, tx, jobstore.Changes(before, out))
	})
	return out, err
}

// List implements jobstore.Store.
func (s *Store) List(ctx context.Context, f jobstore.Filter) ([]*jobstore.Job, error) {
	q := `SELECT ` + columns + ` FROM cdpmcp.jobs WHERE rev > $1`
	args := []any{f.Since}
	if len(f.States) > 0 {
		states := make([]string, len(f.States))
		for i, st := range f.States {
			states[i] = string(st)
		}
		args = append(args, states)
		q += fmt.Sprintf(` AND state = ANY($%d)`, len(args))
	}
	if f.Worker != "" {
		args = append(args, f.Worker)
		q += fmt.Sprintf(` AND worker = $%d`, len(args))
	}
	if f.Tenant != "" {
		args = append(args, f.Tenant)
		q += fmt.Sprintf(` AND tenant = $%d`, len(args))
	}
	if f.Expired {
		q += ` AND lease_until < now()`
	}
	q += ` ORDER BY rev`
	if f.Limit > 0 {
		q += fmt.Sprintf(` LIMIT %d`, f.Limit)
	}
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	defer rows.Close()
	var out []*jobstore.Job
	for rows.Next() {
		j, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

// Counts implements jobstore.Store.
func (s *Store) Counts(ctx context.Context) (map[jobstore.State]int, error) {
	rows, err := s.pool.Query(ctx, `SELECT state, COUNT(*) FROM cdpmcp.jobs GROUP BY state`)
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
	err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM cdpmcp.jobs WHERE lease_until IS NULL AND state IN ('QUEUED', 'DISPATCHED', 'RUNNING')
		AND (priority > $1 OR (priority = $1 AND seq < $2))`, j.Priority, j.Seq).Scan(&n)
	return n, err
}
