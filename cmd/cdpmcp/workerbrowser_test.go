package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
)

// A worker with no browser to launch (a --browser-path with no file) does not
// start: it would claim the fleet's jobs and fail each at once, draining the
// queue. It says why and what to pass; a job queued on the fleet stays
// QUEUED for a worker that can run it. A worker whose jobs run in a browser
// service starts, saying that its profile jobs (launched here) will fail.
func TestWorkerWithoutABrowserDoesNotStart(t *testing.T) {
	t.Parallel()
	db := fleetDB(t)
	tmp := t.TempDir()
	sub := runCLI(t, tmp, "jobs", "submit", "--jobs-db", db,
		`{"correlationId":"for-a-worker","url":"`+site.URL("/jobs/article.html")+`","task":{"type":"navigate"}}`)
	if sub.code != 0 {
		t.Fatalf("jobs submit: exit %d: %s%s", sub.code, sub.stdout, sub.stderr)
	}
	id := jsonField(t, sub.stdout, "jobId")
	noChrome := filepath.Join(tmp, "no-chrome")

	r := runCLI(t, tmp, "worker", "--jobs-db", db, "--worker-id", "no-browser", "--data-dir", filepath.Join(tmp, "data"), "--browser-path", noChrome)
	for _, want := range []string{"cdpmcp worker: the browser could not be started: --browser-path " + noChrome + ": no such file",
		"pass the path of a Chromium or Chrome executable", "would fail every job it claims, so it does not start"} {
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("a worker with no browser: exit %d, want 1 and %q:\n%s", r.code, want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "worker running jobs") {
		t.Errorf("the worker with no browser ran jobs:\n%s", r.stderr)
	}
	j, err := fleetStore(t, db).Get(testCtx(t, time.Minute), id)
	if err != nil || j.State != jobs.Queued || j.Worker != "" || j.Attempt != 0 {
		t.Errorf("the queued job after the worker with no browser: %+v (%v), want QUEUED, held by none", j, err)
	}

	pooled := startWorker(t, db, "pooled", "--browser-pool", "ws://127.0.0.1:9/", "--browser-path", noChrome)
	if log := pooled.stderr.String(); !strings.Contains(log, "jobs with a profile, which run in a browser launched here, will fail") ||
		!strings.Contains(log, "no-chrome: no such file") {
		t.Errorf("a worker on a browser pool with no browser of its own does not warn:\n%s", log)
	}
}

// A serve on a fleet's queue with no browser to launch runs none of the
// fleet's jobs (it would fail each): a job submitted through it waits for a
// worker that can run it, and succeeds there.
func TestFleetServeWithoutABrowserRunsNoJobs(t *testing.T) {
	t.Parallel()
	db := fleetDB(t)
	ctx := testCtx(t, 5*time.Minute)
	s := startHTTP(t, "fleet-no-browser", "--jobs-db", db, "--worker-id", "serve", "--data-dir", t.TempDir(),
		"--browser-path", filepath.Join(t.TempDir(), "no-chrome"))
	if log := s.stderr.String(); !strings.Contains(log, "this server runs none of the fleet's jobs") || !strings.Contains(log, "no-chrome: no such file") {
		t.Errorf("the serve with no browser does not say it runs no jobs:\n%s", log)
	}
	c := httpClient(t, ctx, s.url, "")
	id := jobCall(t, ctx, c, "browser.job.submit", map[string]any{"correlationId": "for-the-fleet", "url": site.URL("/jobs/article.html"),
		"task": map[string]any{"type": "navigate"}})["jobId"].(string)
	startWorker(t, db, "able")
	j := waitStates(t, ctx, fleetStore(t, db), []string{id}, jobs.Succeeded, jobs.Failed, jobs.Cancelled)[id]
	if j.State != jobs.Succeeded || j.Worker != "able" || j.Attempt != 1 {
		t.Errorf("the job submitted through the serve with no browser: %s on %q attempt %d: %s", j.State, j.Worker, j.Attempt, j.Error)
	}
}
