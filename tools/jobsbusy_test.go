// Built without the race detector only: the test opens a job store on SQLite,
// whose race build is 48 CPU-seconds of make test (RACE_PLAIN in the Makefile).

//go:build !race

package tools

import (
	"context"
	"database/sql"
	"strings"
	"testing"
)

// A submit while another process holds the job store's file (a sqlite3 shell
// in a transaction, past the store's 5 s wait) is an error that says the
// store is busy, that nothing changed and that the same submit may be made
// again, not that the file may be damaged; made again once the store is
// free, it queues the job, once.
func TestSubmitWhileTheStoreIsBusy(t *testing.T) {
	t.Parallel()
	c, dir := jobServer(t)
	// The other process waits its turn for the lock (the server may be
	// writing as it starts), then holds it.
	db, err := sql.Open("sqlite", "file:"+dir.DBPath()+"?_pragma=busy_timeout(20000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	sub := map[string]any{"correlationId": "busy-1", "url": site.URL("/jobs/article.html"), "task": map[string]any{"type": "navigate"}}
	a, res := callJob(t, c, "browser.job.submit", sub)
	msg := errText(res)
	if a != nil || !strings.Contains(msg, "is busy: another process held it") || !strings.Contains(msg, "nothing changed") ||
		!strings.Contains(msg, "retried with the same correlationId makes one job") || strings.Contains(msg, "damaged") {
		t.Errorf("a submit while the store is held: %v %q", a, msg)
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	a, res = callJob(t, c, "browser.job.submit", sub)
	if a == nil || a["status"] != "QUEUED" || a["duplicate"] != nil {
		t.Errorf("the submit again once the store is free: %v %q", a, errText(res))
	}
}
