package main

import (
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/jackc/pgx/v5"
)

// `cdpmcp jobs` pointed at a database that holds no job store (a mistyped
// --jobs-db, a fresh database) says so with a hint and creates nothing: only
// a serve or worker (or a submit, as on a data dir) makes the schema.
func TestJobsOnAnEmptyDatabaseCreatesNoSchema(t *testing.T) {
	t.Parallel()
	db := fleetDB(t)
	tmp := t.TempDir()
	for _, args := range [][]string{
		{"jobs", "--jobs-db", db},
		{"jobs", "status", "--jobs-db", db, "job-nosuchjob"},
		{"jobs", "cancel", "--jobs-db", db, "job-nosuchjob"},
	} {
		r := runCLI(t, tmp, args...)
		if r.code != 1 || !strings.Contains(r.stderr, `no job store here (no schema "cdpmcp")`) || !strings.Contains(r.stderr, "start a cdpmcp serve or worker on it first") {
			t.Errorf("cdpmcp %s on an empty database: exit %d, stderr:\n%s\nwant exit 1 saying there is no job store, with a hint", strings.Join(args[:2], " "), r.code, r.stderr)
		}
	}
	// A database name mistyped is named, with what to check.
	typo := strings.Replace(db, "/fleet_", "/flet_", 1)
	if r := runCLI(t, tmp, "jobs", "--jobs-db", typo); r.code != 1 || !strings.Contains(r.stderr, "refused the connection") || !strings.Contains(r.stderr, "no database of that name on the server: check the name in --jobs-db") {
		t.Errorf("cdpmcp jobs on a database that does not exist: exit %d, stderr:\n%s\nwant exit 1 naming the cause and what to check", r.code, r.stderr)
	}
	ctx := testCtx(t, time.Minute)
	conn, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var schemas int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM information_schema.schemata WHERE schema_name = 'cdpmcp'`).Scan(&schemas); err != nil {
		t.Fatal(err)
	}
	if schemas != 0 {
		t.Errorf("cdpmcp jobs created the schema cdpmcp in a database that held none")
	}
	// A follow waits for the store, saying so, and follows it once made.
	follow := startProc(t, "jobs", "--jobs-db", db, "--follow")
	testbound.Until(t, "the follow to say there is no job store yet", func() bool {
		return strings.Contains(follow.stderr.String(), "no job store there yet; following it once a serve or worker creates it")
	})
	// A submit makes the store, and the list then reads it.
	if r := runCLI(t, tmp, "jobs", "submit", "--jobs-db", db, `{"correlationId":"first","url":"`+site.URL("/")+`","task":{"type":"navigate"}}`); r.code != 0 {
		t.Fatalf("jobs submit on an empty database: exit %d: %s", r.code, r.stderr)
	}
	if r := runCLI(t, tmp, "jobs", "--jobs-db", db); r.code != 0 || !strings.Contains(r.stdout, "QUEUED") {
		t.Errorf("cdpmcp jobs after a submit: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	testbound.Until(t, "the follow to print the first job", func() bool { return strings.Contains(follow.stdout.String(), "QUEUED") })
}
