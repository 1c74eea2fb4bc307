package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
)

// A worker stopped with SIGTERM drains, as a k8s-friendly worker does: it
// takes no new job, lets the running ones finish within --job-grace, and a
// second SIGTERM ends the wait; what is unfinished goes back to the queue
// at once, so another worker starts it without waiting for a lease to run
// out (every lease here is 10 minutes), and the run it lost does not count.
func TestFleetWorkerDrainsOnSIGTERM(t *testing.T) {
	t.Parallel()
	db := fleetDB(t)
	ctx := testCtx(t, 5*time.Minute)
	store := fleetStore(t, db)
	w1 := startWorker(t, db, "drain-w1", "--max-tabs", "3", "--lease", "10m", "--job-grace", "10m")
	submit := func(corr, url string) string {
		t.Helper()
		job := fmt.Sprintf(`{"correlationId":%q,"url":%q,"task":{"type":"navigate","timeoutMs":3600000}}`, corr, url)
		p := startProc(t, "jobs", "submit", "--jobs-db", db, job)
		if code := p.exit(t, time.Minute); code != 0 {
			t.Fatalf("submit exited %d: %s", code, p.stderr)
		}
		var a struct{ JobID string }
		if err := json.Unmarshal([]byte(p.stdout.String()), &a); err != nil {
			t.Fatal(err)
		}
		return a.JobID
	}
	slow := submit("drain-slow", site.URL("/jobs/slowpage?ms=6000"))
	hang := submit("drain-hang", fmtURL("/jobs/hang?n=%d", markers.Add(1)))
	waitStates(t, ctx, store, []string{slow, hang}, jobs.Running)

	if err := w1.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	testbound.Until(t, "the worker to say it takes no new jobs", func() bool {
		return strings.Contains(w1.stderr.String(), "taking no new jobs")
	})
	// w1 has a free tab, but it stops: a new job waits, saying why, and
	// goes to the next worker.
	quick := submit("drain-quick", site.URL("/jobs/article.html"))
	testbound.Until(t, "the queued job's status to say why no worker takes it", func() bool {
		st := startProc(t, "jobs", "status", "--jobs-db", db, quick)
		st.exit(t, time.Minute)
		return strings.Contains(st.stdout.String(), "no worker takes jobs now: drain-w1: stopping (told to by a signal)")
	})
	startWorker(t, db, "drain-w2", "--max-tabs", "2", "--lease", "10m")
	got := waitStates(t, ctx, store, []string{quick, slow}, jobs.Succeeded, jobs.Failed)
	if j := got[quick]; j.State != jobs.Succeeded || j.Worker != "drain-w2" {
		t.Errorf("a job submitted while drain-w1 drained: %s on %q, want SUCCEEDED on drain-w2", j.State, j.Worker)
	}
	if j := got[slow]; j.State != jobs.Succeeded || j.Worker != "drain-w1" || j.Attempt != 1 {
		t.Errorf("the job drain-w1 ran at SIGTERM: %s on %q, attempt %d (%s); want SUCCEEDED on drain-w1 in its grace, attempt 1",
			j.State, j.Worker, j.Attempt, j.Summary)
	}
	select {
	case <-w1.exited:
		t.Fatalf("drain-w1 exited before its grace ran out, with a job running:\n%s", w1.stderr)
	default:
	}
	// A second SIGTERM ends the grace: the hanging job goes back at once.
	if err := w1.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w1.exited:
	case <-time.After(testbound.Bound()):
		t.Fatalf("drain-w1 still running %s after a second SIGTERM", testbound.Bound())
	}
	if code := w1.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("drain-w1 exited %d, want 0", code)
	}
	for _, want := range []string{"told again while jobs ran", `msg="job handed back to the queue: this process stops" job=` + hang} {
		if !strings.Contains(w1.stderr.String(), want) {
			t.Errorf("drain-w1's log does not say %q:\n%s", want, w1.stderr)
		}
	}
	for {
		j, err := store.Get(ctx, hang)
		if err != nil {
			t.Fatal(err)
		}
		if j.Worker == "drain-w2" && j.State == jobs.Running && j.Attempt >= 1 {
			if j.Attempt != 1 {
				t.Errorf("the job handed back runs on drain-w2 as attempt %d, want 1: a run its worker stopped gracefully is not counted", j.Attempt)
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the job drain-w1 handed back is %s on %q (%s), not running on drain-w2", j.State, j.Worker, j.Summary)
		}
		time.Sleep(100 * time.Millisecond)
	}
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if _, err := store.Update(cctx, hang, jobstore.Unfinished, func(j *jobs.Job) { j.State = jobs.Cancelled }); err != nil {
		t.Fatal(err)
	}
}
