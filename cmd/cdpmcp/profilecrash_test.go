package main

import (
	"strings"
	"testing"
	"time"
)

// A profile's sign-in survives its worker's crash: a job signs in on w1 and
// SUCCEEDS, w1 is killed (SIGKILL) at once, before its idle save, and the
// next job of the profile, on w2, is signed in.
func TestFleetProfileSurvivesWorkerCrash(t *testing.T) {
	t.Parallel()
	db := fleetDB(t)
	w1 := startWorker(t, db, "crash-w1", "--max-tabs", "1")
	job := func(corr, url, task string) string {
		return `{"correlationId":"` + corr + `","url":"` + url + `","profile":"acct","task":` + task + `}`
	}
	signIn := startProc(t, "jobs", "submit", "--wait", "--timeout", "2m", "--jobs-db", db, job("sign-in", site.MagicLink(), `{"type":"navigate"}`))
	if code := signIn.exit(t, 3*time.Minute); code != 0 {
		t.Fatalf("the sign-in job exited %d: %s", code, signIn.stdout)
	}
	w1.kill()
	startWorker(t, db, "crash-w2", "--max-tabs", "1")
	who := startProc(t, "jobs", "submit", "--wait", "--timeout", "2m", "--jobs-db", db,
		job("who", site.URL("/jobs/account"), `{"type":"extract","selectors":["#state"]}`))
	if code := who.exit(t, 3*time.Minute); code != 0 || !strings.Contains(who.stdout.String(), `"Signed in"`) {
		t.Errorf("the next job of the profile, on another worker after the first one's crash, exited %d: %s\nwant it signed in", code, who.stdout)
	}
}
