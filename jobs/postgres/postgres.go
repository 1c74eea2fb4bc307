// Package postgres keeps jobs in a PostgreSQL database shared by any number
// of cdpmcp processes on any hosts: the queue they claim from (FOR UPDATE
// SKIP LOCKED), the leases they renew, the profiles' saved state, and
// LISTEN/NOTIFY to tell each other of new jobs and changes. It is the only
// package that imports the driver (pgx).
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is a jobstore.Store in a PostgreSQL database, in the schema cdpmcp.
type Store struct {
	jobstore.Hub
	pool   *pgxpool.Pool
	conn   string
	cancel context.CancelFunc
	done   chan struct{}
}

var _ jobstore.Store = (*Store)(nil)

// Open connects to the database at conn (a postgres:// URL or a libpq
// key=value string; a Unix socket is a host that is a directory), creates or
// migrates the schema, and starts listening for other processes' changes.
// Only the processes that run the fleet (serve, worker) open it so.
func Open(ctx context.Context, conn string) (*Store, error) {
	return open(ctx, conn, true)
}

// OpenExisting is Open for a tool that reads or adds to a fleet's queue
// (cdpmcp jobs): it creates and migrates nothing, and a database without the
// schema is ErrNoSchema, so a mistyped --jobs-db is said, not turned into an
// empty job store.
func OpenExisting(ctx context.Context, conn string) (*Store, error) {
	return open(ctx, conn, false)
}

func open(ctx context.Context, conn string, create bool) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(conn)
	if err != nil {
		return nil, fmt.Errorf("--jobs-db: %w (give a URL like postgres://user:password@host/db or postgres:///db?host=/var/run/postgresql)", err)
	}
	cfg.MaxConnIdleTime = time.Minute
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("--jobs-db: %w", err)
	}
	prepare := migrate
	if !create {
		prepare = checkSchema
	}
	if err := prepare(ctx, pool); err != nil {
		pool.Close()
		if errors.Is(err, ErrNoSchema) || errors.Is(err, errSchemaBehind) {
			return nil, fmt.Errorf("--jobs-db: %s: %w", where(cfg.ConnConfig), err)
		}
		if jobstore.Unreachable(err) {
			return nil, fmt.Errorf("--jobs-db: the database at %s could not be reached: %w", where(cfg.ConnConfig), err)
		}
		if hint := refusedHint(err); hint != "" {
			return nil, fmt.Errorf("--jobs-db: %s refused the connection: %w (%s)", where(cfg.ConnConfig), err, hint)
		}
		if !create {
			return nil, fmt.Errorf("--jobs-db: read the schema: %w", err)
		}
		return nil, fmt.Errorf("--jobs-db: create the schema: %w", err)
	}
	lctx, cancel := context.WithCancel(context.Background())
	s := &Store{pool: pool, conn: conn, cancel: cancel, done: make(chan struct{})}
	ready := make(chan error, 1)
	go s.listen(lctx, ready)
	select {
	case err = <-ready:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("--jobs-db: listen for changes: %w", err)
	}
	return s, nil
}

// Where names the database conn (a --jobs-db value) points at, for logs and
// messages: host, port and database, never the user or the password.
func Where(conn string) string {
	cfg, err := pgx.ParseConfig(conn)
	if err != nil {
		return "(an unreadable --jobs-db)"
	}
	return where(cfg)
}

func where(cfg *pgx.ConnConfig) string {
	return fmt.Sprintf("%s:%d/%s", cfg.Host, cfg.Port, cfg.Database)
}

// migrations bring the schema from one version to the next, in order.
var migrations = []string{
	`CREATE SEQUENCE cdpmcp.rev;
	CREATE TABLE cdpmcp.meta (name text PRIMARY KEY, value bytea NOT NULL);
	CREATE TABLE cdpmcp.jobs (
		id text PRIMARY KEY,
		seq bigserial NOT NULL UNIQUE,
		idem_key text NOT NULL UNIQUE,
		correlation_id text NOT NULL,
		url text NOT NULL,
		profile text NOT NULL DEFAULT '',
		max_tabs integer NOT NULL,
		priority integer NOT NULL,
		handoff boolean NOT NULL,
		task text NOT NULL,
		has_secret boolean NOT NULL DEFAULT false,
		state text NOT NULL,
		progress double precision NOT NULL DEFAULT 0,
		summary text NOT NULL DEFAULT '',
		final_url text NOT NULL DEFAULT '',
		artifacts text NOT NULL DEFAULT '{}',
		error text NOT NULL DEFAULT '',
		result text NOT NULL DEFAULT '',
		handoff_url text NOT NULL DEFAULT '',
		note text NOT NULL DEFAULT '',
		attempt integer NOT NULL DEFAULT 0,
		effects boolean NOT NULL DEFAULT false,
		created timestamptz NOT NULL,
		started timestamptz,
		finished timestamptz,
		rev bigint NOT NULL DEFAULT nextval('cdpmcp.rev'),
		worker text NOT NULL DEFAULT '',
		lease_until timestamptz,
		origin text NOT NULL DEFAULT '',
		tenant text NOT NULL DEFAULT ''
	);
	CREATE INDEX jobs_rev ON cdpmcp.jobs (rev);
	CREATE INDEX jobs_state ON cdpmcp.jobs (state);
	CREATE INDEX jobs_claim ON cdpmcp.jobs (priority DESC, seq)
		WHERE lease_until IS NULL AND state IN ('QUEUED', 'DISPATCHED', 'RUNNING');
	CREATE INDEX jobs_lease ON cdpmcp.jobs (worker, lease_until) WHERE lease_until IS NOT NULL;
	-- name is the local user's profile name, or "tenant/name".
	CREATE TABLE cdpmcp.profiles (
		name text PRIMARY KEY,
		holder text NOT NULL DEFAULT '',
		lease_until timestamptz,
		version bigint NOT NULL DEFAULT 0,
		state bytea,
		saved timestamptz
	);
	CREATE TABLE cdpmcp.workers (
		id text PRIMARY KEY,
		live_view text NOT NULL DEFAULT '',
		max_tabs integer NOT NULL DEFAULT 0,
		busy integer NOT NULL DEFAULT 0,
		started timestamptz,
		seen timestamptz NOT NULL,
		version text NOT NULL DEFAULT ''
	);`,
	// Idempotency keys were a keyed hash of the request, its password
	// included, keyed by a key in cdpmcp.meta: from a replica or a backup a
	// password could be checked against them. They become jobstore.IdemKey
	// (tenant/correlationId), the first job of each keeping it, and the key
	// goes.
	`UPDATE cdpmcp.jobs SET idem_key = 'legacy:' || id;
	UPDATE cdpmcp.jobs SET idem_key = tenant || '/' || correlation_id
		WHERE seq IN (SELECT MIN(seq) FROM cdpmcp.jobs GROUP BY tenant, correlation_id);
	DELETE FROM cdpmcp.meta WHERE name = 'key';`,
}

// additions are columns with defaults that an older cdpmcp neither reads nor
// misses: they are added whatever the version, which they leave alone, so
// that a fleet's older processes go on beside the newer ones.
const additions = `
	-- A worker says why it claims no jobs (no browser): a job's status
	-- tells it when no worker takes jobs.
	ALTER TABLE cdpmcp.workers ADD COLUMN IF NOT EXISTS paused text NOT NULL DEFAULT '';`

// migrate applies the migrations the database lacks, one process at a time.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		// Any constant: the processes starting at once take turns here.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7301225001)`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS cdpmcp;
			CREATE TABLE IF NOT EXISTS cdpmcp.schema_version (version integer NOT NULL)`); err != nil {
			return err
		}
		var version int
		err := tx.QueryRow(ctx, `SELECT version FROM cdpmcp.schema_version`).Scan(&version)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = tx.Exec(ctx, `INSERT INTO cdpmcp.schema_version VALUES (0)`)
		}
		if err != nil {
			return err
		}
		if version > len(migrations) {
			return fmt.Errorf("the database's schema is version %d, newer than this cdpmcp knows (%d): upgrade cdpmcp", version, len(migrations))
		}
		for i := version; i < len(migrations); i++ {
			if _, err := tx.Exec(ctx, migrations[i]); err != nil {
				return fmt.Errorf("migration %d: %w", i+1, err)
			}
			slog.Info("job database schema migrated", "version", i+1)
		}
		if _, err = tx.Exec(ctx, `UPDATE cdpmcp.schema_version SET version = $1`, len(migrations)); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, additions)
		return err
	})
}

// Close stops listening and closes the connections.
func (s *Store) Close() error {
	s.cancel()
	<-s.done
	s.pool.Close()
	return nil
}

// Shared implements jobstore.Store: every process of the fleet uses the database.
func (s *Store) Shared() bool { return true }
