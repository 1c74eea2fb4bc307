package sqlite

import (
	"context"
	"fmt"
	"strings"
)

// The file's schema, and how an older file is brought to it.

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
CREATE TABLE IF NOT EXISTS profiles (
	name TEXT PRIMARY KEY,
	holder TEXT NOT NULL DEFAULT '',
	lease_ms INTEGER NOT NULL DEFAULT 0,
	version INTEGER NOT NULL DEFAULT 0,
	state BLOB
);
CREATE TABLE IF NOT EXISTS workers (
	id TEXT PRIMARY KEY,
	live_view TEXT NOT NULL DEFAULT '',
	max_tabs INTEGER NOT NULL DEFAULT 0,
	busy INTEGER NOT NULL DEFAULT 0,
	started_ms INTEGER NOT NULL DEFAULT 0,
	seen_ms INTEGER NOT NULL DEFAULT 0,
	version TEXT NOT NULL DEFAULT '',
	paused TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
`

// tenantColumn came with tenants: an older file's jobs are the local user's.
const tenantColumn = `ALTER TABLE jobs ADD COLUMN tenant TEXT NOT NULL DEFAULT '';`

// leaseColumns came with leases (issue 25); files made before lack them.
const leaseColumns = `
ALTER TABLE jobs ADD COLUMN worker TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN lease_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN origin TEXT NOT NULL DEFAULT '';
-- Jobs an older server left started were held by a process now gone.
UPDATE jobs SET lease_ms = 1 WHERE state IN ('DISPATCHED', 'RUNNING', 'WAITING_FOR_HUMAN', 'RESUMED');
`

// pausedColumn came with a worker's pause (no browser) shown in job statuses.
const pausedColumn = `ALTER TABLE workers ADD COLUMN paused TEXT NOT NULL DEFAULT '';`

const indexes = `
CREATE INDEX IF NOT EXISTS jobs_claim ON jobs(priority DESC, seq) WHERE lease_ms = 0 AND state IN ('QUEUED', 'DISPATCHED', 'RUNNING');
CREATE INDEX IF NOT EXISTS jobs_lease ON jobs(lease_ms) WHERE lease_ms > 0;
`

// keysVersion is the file's PRAGMA user_version from which idempotency keys
// are "tenant/correlationId" (jobstore.IdemKey).
const keysVersion = 1

// rekey rewrites the idempotency keys an older cdpmcp kept (a keyed hash of
// the request, its password included, keyed by a key beside the file) as
// jobstore.IdemKey, the first job of each key keeping it and the others, made
// before keys were the correlationId alone, a key of their own; and leaves
// nothing of the old ones in the file: freed space is zeroed, the file
// rebuilt and its write-ahead log emptied.
const rekey = `
PRAGMA secure_delete = ON;
BEGIN IMMEDIATE;
UPDATE jobs SET idem_key = 'legacy:' || id;
UPDATE jobs SET idem_key = tenant || '/' || correlation_id WHERE seq IN (SELECT MIN(seq) FROM jobs GROUP BY tenant, correlation_id);
DELETE FROM meta WHERE name = 'key';
PRAGMA user_version = 1;
COMMIT;
VACUUM;
PRAGMA wal_checkpoint(TRUNCATE);
PRAGMA secure_delete = OFF;
`

func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, schema); err != nil {
		return err
	}
	for _, m := range []struct{ table, column, sql string }{
		{"jobs", "tenant", tenantColumn}, {"jobs", "lease_ms", leaseColumns}, {"workers", "paused", pausedColumn},
	} {
		if !s.hasColumn(ctx, m.table, m.column) {
			// Another process opening the file at once may have added it
			// meanwhile.
			if _, err := s.db.ExecContext(ctx, m.sql); err != nil && !strings.Contains(err.Error(), "duplicate column name") {
				return err
			}
		}
	}
	if _, err := s.db.ExecContext(ctx, indexes); err != nil {
		return err
	}
	var version int
	if err := s.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return err
	}
	if version < keysVersion {
		if _, err := s.db.ExecContext(ctx, rekey); err != nil {
			_, _ = s.db.ExecContext(ctx, `ROLLBACK`)
			return fmt.Errorf("rewrite the idempotency keys: %w", err)
		}
	}
	return nil
}

// hasColumn reports whether the file's table has the column.
func (s *Store) hasColumn(ctx context.Context, table, name string) bool {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?`, table, name).Scan(&n)
	return err == nil && n > 0
}
