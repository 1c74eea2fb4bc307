package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/jackc/pgx/v5"
)

// Create implements jobs.Store. The key's uniqueness is the table's
// (idem_key UNIQUE): of two processes creating with one key, one inserts
// and the other reads its job.
func (s *Store) Create(ctx context.Context, j *jobs.Job) (*jobs.Job, bool, error) {
	c := j.Clone()
	if (c.State != jobs.Queued || c.HasSecret) && !c.State.Terminal() && c.Lease.IsZero() {
		c.Lease = time.UnixMilli(1) // started by a process that is gone
	}
	args, err := values(c)
	if err != nil {
		return nil, false, err
	}
	var stored *jobs.Job
	created := true
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		stored, err = scanOne(tx.QueryRow(ctx, `INSERT INTO cdpmcp.jobs (`+insertColumns+`) VALUES (`+placeholders+`)
			ON CONFLICT (idem_key) DO NOTHING RETURNING `+columns, args...))
		if errors.Is(err, jobs.ErrNotFound) {
			created = false
			stored, err = scanOne(tx.QueryRow(ctx, `SELECT `+columns+` FROM cdpmcp.jobs WHERE idem_key = $1`, c.Key))
			return err
		}
		if err != nil {
			return err
		}
		return notify(ctx, tx, jobs.Changes(nil, stored))
	})
	if err != nil {
		return nil, false, fmt.Errorf("create job: %w", err)
	}
	return stored, created, nil
}

// Get implements jobs.Store.
func (s *Store) Get(ctx context.Context, id string) (*jobs.Job, error) {
	return scanOne(s.pool.QueryRow(ctx, `SELECT `+columns+` FROM cdpmcp.jobs WHERE id = $1`, id))
}

// GetByKey implements jobs.Store.
func (s *Store) GetByKey(ctx context.Context, key string) (*jobs.Job, error) {
	return scanOne(s.pool.QueryRow(ctx, `SELECT `+columns+` FROM cdpmcp.jobs WHERE idem_key = $1`, key))
}

// Update implements jobs.Store.
func (s *Store) Update(ctx context.Context, id string, from []jobs.State, change func(*jobs.Job)) (*jobs.Job, error) {
	return s.modify(ctx, id, from, nil, change)
}

// UpdateHeld implements jobs.Store.
func (s *Store) UpdateHeld(ctx context.Context, id, worker string, from []jobs.State, change func(*jobs.Job)) (*jobs.Job, error) {
	return s.modify(ctx, id, from, func(j *jobs.Job, _ bool) bool { return j.Worker == worker && !j.Lease.IsZero() }, change)
}

// UpdateExpired implements jobs.Store.
func (s *Store) UpdateExpired(ctx context.Context, id, worker string, change func(*jobs.Job)) (*jobs.Job, error) {
	return s.modify(ctx, id, nil, func(j *jobs.Job, expired bool) bool { return j.Worker == worker && expired }, change)
}

// modify applies change to a job in one of the states from (any when empty)
// for which held says yes (always when nil); expired is whether the job's
// lease has ended by the database's clock. A change that would move the
// job's state back is refused (jobs.Before), in the UPDATE itself too.
func (s *Store) modify(ctx context.Context, id string, from []jobs.State, held func(j *jobs.Job, expired bool) bool, change func(*jobs.Job)) (*jobs.Job, error) {
	var out *jobs.Job
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var expired bool
		j, err := scan(tx.QueryRow(ctx, `SELECT `+columns+`, COALESCE(lease_until < now(), false) FROM cdpmcp.jobs WHERE id = $1 FOR UPDATE`, id), &expired)
		if errors.Is(err, pgx.ErrNoRows) {
			return jobs.ErrNotFound
		} else if err != nil {
			return err
		}
		if held != nil && !held(j, expired) {
			return fmt.Errorf("job %s: %w", id, jobs.ErrNotHeld)
		}
		if len(from) > 0 && !slices.Contains(from, j.State) {
			return &jobs.StateError{ID: id, State: j.State, Want: from}
		}
		before := j.Clone()
		change(j)
		allowed := jobs.Before(j.State)
		if !slices.Contains(allowed, before.State) {
			return &jobs.StateError{ID: id, State: before.State, Want: allowed}
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
		return notify(ctx, tx, jobs.Changes(before, out))
	})
	return out, err
}

// List implements jobs.Store.
func (s *Store) List(ctx context.Context, f jobs.Filter) ([]*jobs.Job, error) {
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

// Counts implements jobs.Store.
func (s *Store) Counts(ctx context.Context) (map[jobs.State]int, error) {
	rows, err := s.pool.Query(ctx, `SELECT state, COUNT(*) FROM cdpmcp.jobs GROUP BY state`)
	if err != nil {
		return nil, fmt.Errorf("count jobs: %w", err)
	}
	defer rows.Close()
	out := map[jobs.State]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, err
		}
		out[jobs.State(st)] = n
	}
	return out, rows.Err()
}

// Ahead implements jobs.Store.
func (s *Store) Ahead(ctx context.Context, j *jobs.Job) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM cdpmcp.jobs WHERE lease_until IS NULL AND state IN ('QUEUED', 'DISPATCHED', 'RUNNING')
		AND (priority > $1 OR (priority = $1 AND seq < $2))`, j.Priority, j.Seq).Scan(&n)
	return n, err
}
