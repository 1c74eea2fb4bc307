package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrNoSchema is OpenExisting's answer for a database that holds no job
// store: nothing was created in it.
var ErrNoSchema = errors.New(`no job store here (no schema "cdpmcp"), and nothing was created; check that --jobs-db names the fleet's database, ` +
	`or start a cdpmcp serve or worker on it first: they create the schema`)

// errSchemaBehind is OpenExisting's answer for a job store of an older
// version: this tool migrates nothing.
var errSchemaBehind = errors.New("the job store's schema is older than this cdpmcp")

// refusedHint says what to check when the server refused the connection
// for good (no such database, role or password), else "".
func refusedHint(err error) string {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return ""
	}
	switch pe.Code {
	case "3D000": // invalid_catalog_name
		return "no database of that name on the server: check the name in --jobs-db, or create it (createdb --owner USER NAME)"
	case "28P01", "28000": // invalid_password, invalid_authorization_specification
		return "check the user and password in --jobs-db, and the server's pg_hba.conf"
	}
	return ""
}

// checkSchema says whether the database holds a job store this cdpmcp reads
// as it is, changing nothing.
func checkSchema(ctx context.Context, pool *pgxpool.Pool) error {
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT to_regclass('cdpmcp.schema_version') IS NOT NULL AND to_regclass('cdpmcp.jobs') IS NOT NULL`).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		return ErrNoSchema
	}
	var version int
	if err := pool.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM cdpmcp.schema_version`).Scan(&version); err != nil {
		return err
	}
	switch {
	case version == 0:
		return ErrNoSchema
	case version < len(migrations):
		return fmt.Errorf("%w (version %d, this cdpmcp's is %d): start a cdpmcp serve or worker of this version on it first (they migrate it), or use the cdpmcp the fleet runs",
			errSchemaBehind, version, len(migrations))
	case version > len(migrations):
		return fmt.Errorf("the database's schema is version %d, newer than this cdpmcp knows (%d): upgrade cdpmcp", version, len(migrations))
	}
	return nil
}
