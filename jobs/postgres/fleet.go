package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/jackc/pgx/v5"
)

// claim takes the first job in claim order that no process holds, that
// worker ($1) may run and whose profile no other live worker holds, skipping
// jobs other claims have locked and the profiles in $3; $2 is the lease in ms.
var claim = `WITH free AS (
	SELECT id, priority, seq FROM cdpmcp.jobs j
	WHERE lease_until IS NULL AND state IN ('QUEUED', 'DISPATCHED', 'RUNNING') AND ` + profileFree + `
	ORDER BY priority DESC, seq
	LIMIT 1
	FOR UPDATE SKIP LOCKED
), reserved AS (
	SELECT id, priority, seq FROM cdpmcp.jobs j
	WHERE worker = $1 AND lease_until IS NOT NULL AND state = 'QUEUED' AND ` + profileFree + `
	ORDER BY priority DESC, seq
	LIMIT 1
	FOR UPDATE SKIP LOCKED
), next AS (
	SELECT id FROM (SELECT * FROM free UNION ALL SELECT * FROM reserved) c ORDER BY priority DESC, seq LIMIT 1
)
UPDATE cdpmcp.jobs SET worker = $1, lease_until = now() + $2 * interval '1 millisecond', rev = nextval('cdpmcp.rev'),
	progress = CASE WHEN state = 'QUEUED' THEN 0.05 ELSE progress END,
	summary = CASE WHEN state = 'QUEUED' THEN 'dispatched to ' || $1 ELSE summary END,
	state = CASE WHEN state = 'QUEUED' THEN 'DISPATCHED' ELSE state END
FROM next WHERE jobs.id = next.id
RETURNING ` + prefixed

// profileFree says job j has no profile, or one no other live worker holds
// and not one of $3.
const profileFree = `(profile = '' OR (` + profileKey + ` <> ALL($3) AND NOT EXISTS (SELECT 1 FROM cdpmcp.profiles p
	WHERE p.name = ` + profileKey + ` AND p.holder NOT IN ('', $1) AND p.lease_until > now())))`

// profileKey is job j's profile's name in the profiles table.
const profileKey = `(CASE WHEN j.tenant = '' THEN j.profile ELSE j.tenant || '/' || j.profile END)`

// prefixed is columns qualified with the table, for the claim's RETURNING.
var prefixed = "jobs." + replaceAll(columns, ", ", ", jobs.")

// takeProfile gives worker ($2) profile $1's lease ($3 ms) unless another
// live worker holds it; it returns no row then.
const takeProfile = `INSERT INTO cdpmcp.profiles (name, holder, lease_until) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
	ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
	WHERE profiles.holder IN ('', excluded.holder) OR profiles.lease_until IS NULL OR profiles.lease_until <= now()
	RETURNING name`

// Claim implements jobstore.Store.
func (s *Store) Claim(ctx context.Context, worker string, lease time.Duration) (*jobstore.Job, error) {
	busy := []string{} // profiles another claim took meanwhile
	for range 8 {
		var j *jobstore.Job
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			var err error
			j, err = scanOne(tx.QueryRow(ctx, claim, worker, lease.Milliseconds(), busy))
			if err != nil {
				return err
			}
			if j.Profile != "" {
				key := jobstore.ProfileKey(j.Tenant, j.Profile)
				var name string
				if err := tx.QueryRow(ctx, takeProfile, key, worker, lease.Milliseconds()).Scan(&name); errors.Is(err, pgx.ErrNoRows) {
					busy = append(busy, key)
					return errProfileBusy // roll the claim back
				} else if err != nil {
					return err
				}
			}
			before := j.Clone()
			before.Lease = time.Time{}
			return notify(ctx, tx, jobstore.Changes(before, j))
		})
		switch {
		case errors.Is(err, jobstore.ErrNotFound):
			return nil, nil
		case errors.Is(err, errProfileBusy):
			continue
		case err != nil:
			return nil, fmt.Errorf("claim a job: %w", err)
		}
		return j, nil
	}
	return nil, nil
}

var errProfileBusy = errors.New("the profile was taken meanwhile")

// TakeProfile implements jobstore.Store.
func (s *Store) TakeProfile(ctx context.Context, name, worker string, lease time.Duration) (bool, error) {
	var got string
	err := s.pool.QueryRow(ctx, takeProfile, name, worker, lease.Milliseconds()).Scan(&got)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("take profile %s: %w", name, err)
	}
	return true, nil
}

// Renew implements jobstore.Store.
func (s *Store) Renew(ctx context.Context, w jobstore.Worker, lease time.Duration) (map[string]jobstore.State, error) {
	held := map[string]jobstore.State{}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO cdpmcp.workers (id, live_view, max_tabs, busy, started, seen, version, paused) VALUES ($1, $2, $3, $4, $5, now(), $6, $7)
			ON CONFLICT (id) DO UPDATE SET live_view = excluded.live_view, max_tabs = excluded.max_tabs, busy = excluded.busy,
			started = excluded.started, seen = excluded.seen, version = excluded.version, paused = excluded.paused`,
			w.ID, w.LiveView, w.MaxTabs, w.Busy, opt(w.Started), w.Version, w.Paused); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE cdpmcp.profiles SET lease_until = now() + $2 * interval '1 millisecond'
			WHERE holder = $1 AND lease_until IS NOT NULL`, w.ID, lease.Milliseconds()); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `UPDATE cdpmcp.jobs SET lease_until = now() + $2 * interval '1 millisecond'
			WHERE worker = $1 AND lease_until IS NOT NULL AND state IN ('QUEUED', 'DISPATCHED', 'RUNNING', 'WAITING_FOR_HUMAN', 'RESUMED')
			RETURNING id, state`, w.ID, lease.Milliseconds())
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, state string
			if err := rows.Scan(&id, &state); err != nil {
				return err
			}
			held[id] = jobstore.State(state)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("renew leases: %w", err)
	}
	return held, nil
}

// Leave implements jobstore.Store.
func (s *Store) Leave(ctx context.Context, worker string) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, q := range []string{
			`UPDATE cdpmcp.jobs SET lease_until = now() - interval '1 millisecond' WHERE worker = $1 AND lease_until IS NOT NULL`,
			`UPDATE cdpmcp.profiles SET lease_until = now() - interval '1 millisecond' WHERE holder = $1 AND lease_until IS NOT NULL`,
			`DELETE FROM cdpmcp.workers WHERE id = $1`,
		} {
			if _, err := tx.Exec(ctx, q, worker); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("leave: %w", err)
	}
	return nil
}

// Workers implements jobstore.Store.
func (s *Store) Workers(ctx context.Context, window time.Duration) ([]jobstore.Worker, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, live_view, max_tabs, busy, started, seen, version, paused FROM cdpmcp.workers
		WHERE seen >= now() - $1 * interval '1 millisecond' ORDER BY id`, window.Milliseconds())
	if err != nil {
		return nil, fmt.Errorf("list workers: %w", err)
	}
	defer rows.Close()
	var out []jobstore.Worker
	for rows.Next() {
		var w jobstore.Worker
		var started *time.Time
		if err := rows.Scan(&w.ID, &w.LiveView, &w.MaxTabs, &w.Busy, &started, &w.Seen, &w.Version, &w.Paused); err != nil {
			return nil, err
		}
		w.Started = deref(started)
		out = append(out, w)
	}
	return out, rows.Err()
}

// Profile implements jobstore.Store.
func (s *Store) Profile(ctx context.Context, name string) (int64, []byte, error) {
	var version int64
	var state []byte
	err := s.pool.QueryRow(ctx, `SELECT version, state FROM cdpmcp.profiles WHERE name = $1`, name).Scan(&version, &state)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil, nil
	}
	return version, state, err
}

// SaveProfile implements jobstore.Store.
func (s *Store) SaveProfile(ctx context.Context, name, worker string, state []byte, release bool) (int64, error) {
	var version int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var holder string
		var leased bool
		err := tx.QueryRow(ctx, `SELECT holder, lease_until IS NOT NULL, version FROM cdpmcp.profiles WHERE name = $1 FOR UPDATE`, name).Scan(&holder, &leased, &version)
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && (holder != worker || !leased)) {
			return fmt.Errorf("profile %s: %w", name, jobstore.ErrNotHeld)
		} else if err != nil {
			return err
		}
		if state != nil {
			version++
			if _, err := tx.Exec(ctx, `UPDATE cdpmcp.profiles SET version = $2, state = $3, saved = now() WHERE name = $1`, name, version, state); err != nil {
				return err
			}
		}
		if !release {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE cdpmcp.profiles SET lease_until = NULL WHERE name = $1`, name); err != nil {
			return err
		}
		return notify(ctx, tx, []jobstore.Event{{Claimable: true}}) // its jobs may be claimed elsewhere
	})
	if err != nil {
		return 0, fmt.Errorf("save profile %s: %w", name, err)
	}
	return version, nil
}
