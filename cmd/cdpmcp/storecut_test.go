package main

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/pgtest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
)

// outageDB starts a PostgreSQL server of the test's own, to stop and start
// (the other fleet tests share theirs), and returns it with a database's URL.
func outageDB(t *testing.T) (*pgtest.Server, string) {
	t.Helper()
	return pgtest.Own(t, "outage")
}

// proc is a cdpmcp process the test watches: its stdout and stderr so far,
// and whether it exited.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	exited         chan struct{}
	err            error // its exit, once exited is closed
}

func startProc(t *testing.T, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(binPath, args...), stdout: &syncBuffer{}, stderr: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd.Env = procEnv(shortTemp(t))
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
		if t.Failed() {
			t.Logf("cdpmcp %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args[:1], " "), p.stdout, p.stderr)
		}
	})
	return p
}

// await waits until the process's stderr holds s, failing if it exits first.
func (p *proc) await(t *testing.T, s string) {
	t.Helper()
	deadline := time.After(testbound.Bound())
	for !strings.Contains(p.stderr.String(), s) {
		select {
		case <-p.exited:
			t.Fatalf("cdpmcp exited (%v) before saying %q", p.err, s)
		case <-deadline:
			t.Fatalf("cdpmcp did not say %q within %s", s, testbound.Bound())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// exit waits for the process to exit within d and returns its exit code.
func (p *proc) exit(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(testbound.Scale(d)):
		t.Fatalf("cdpmcp still runs after %s", d)
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	return 0
}

// running fails the test if the process has exited.
func (p *proc) running(t *testing.T, what string) {
	t.Helper()
	select {
	case <-p.exited:
		t.Fatalf("%s exited (%v) while the database was down", what, p.err)
	default:
	}
}

// A `cdpmcp jobs wait --timeout` and a `cdpmcp jobs --follow` go on through
// a database restart (a fast shutdown, 3 s down): the wait answers the job's
// end after it, and the follow prints it.
func TestJobsWaitAndFollowThroughStoreOutage(t *testing.T) {
	t.Parallel()
	srv, db := outageDB(t)
	submit := startProc(t, "jobs", "submit", "--jobs-db", db, `{"correlationId":"outage-1","url":"`+site.URL("/")+`","task":{"type":"navigate"}}`)
	if code := submit.exit(t, time.Minute); code != 0 {
		t.Fatalf("submit exited %d", code)
	}
	var job struct{ JobID string }
	if err := json.Unmarshal([]byte(submit.stdout.String()), &job); err != nil || job.JobID == "" {
		t.Fatalf("submit printed %q: %v", submit.stdout, err)
	}
	wait := startProc(t, "jobs", "wait", "--jobs-db", db, "--timeout", "2m", job.JobID)
	follow := startProc(t, "jobs", "--jobs-db", db, "--follow")
	for !strings.Contains(follow.stdout.String(), job.JobID) {
		follow.running(t, "cdpmcp jobs --follow")
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second) // the wait has read the job
	if err := srv.Down(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	wait.running(t, "cdpmcp jobs wait")
	follow.running(t, "cdpmcp jobs --follow")
	follow.await(t, "could not be reached; trying again")
	if err := srv.Up(); err != nil {
		t.Fatal(err)
	}
	cancel := startProc(t, "jobs", "cancel", "--jobs-db", db, job.JobID)
	if code := cancel.exit(t, time.Minute); code != 0 {
		t.Fatalf("cancel exited %d", code)
	}
	if code := wait.exit(t, time.Minute); code != exitCancelled || !strings.Contains(wait.stdout.String(), `"status":"CANCELLED"`) {
		t.Errorf("the wait exited %d printing %q; want %d and the job CANCELLED", code, wait.stdout, exitCancelled)
	}
	for !strings.Contains(follow.stdout.String(), "CANCELLED") {
		follow.running(t, "cdpmcp jobs --follow")
		time.Sleep(50 * time.Millisecond)
	}
	follow.await(t, "answers again")
	_ = follow.cmd.Process.Signal(syscall.SIGINT)
	if code := follow.exit(t, 30*time.Second); code != 0 {
		t.Errorf("the follow exited %d on SIGINT, want 0", code)
	}
}

// A worker started while its database is down waits for it, saying where
// (never the password), and runs once it is up; one stopped while it waits
// exits 0; a database that does not exist still fails the start at once.
func TestWorkerWaitsForItsDatabase(t *testing.T) {
	t.Parallel()
	srv, db := outageDB(t)
	db += "&password=pw-never-logged"
	if err := srv.Down(); err != nil {
		t.Fatal(err)
	}
	args := func(id string) []string {
		return []string{"worker", "--jobs-db", db, "--worker-id", id, "--data-dir", t.TempDir(), "--max-tabs", "1",
			"--browser-arg=" + newMarker("worker-"+id)}
	}
	w := startProc(t, args("early")...)
	w.await(t, "waiting for the job database to answer")
	stopped := startProc(t, args("stopped")...)
	stopped.await(t, "waiting for the job database to answer")
	if !strings.Contains(w.stderr.String(), "db="+srv.Dir+":5432/outage_") {
		t.Errorf("the worker waiting did not name the database's host and name:\n%s", w.stderr)
	}
	_ = stopped.cmd.Process.Signal(syscall.SIGTERM)
	if code := stopped.exit(t, 30*time.Second); code != 0 {
		t.Errorf("a worker stopped while it waited exited %d, want 0", code)
	}
	time.Sleep(2 * time.Second) // a retry or two
	w.running(t, "the worker")
	if err := srv.Up(); err != nil {
		t.Fatal(err)
	}
	w.await(t, "worker running jobs")
	_ = w.cmd.Process.Signal(syscall.SIGTERM)
	if code := w.exit(t, time.Minute); code != 0 {
		t.Errorf("the worker exited %d on SIGTERM, want 0", code)
	}
	for _, p := range []*proc{w, stopped} {
		if strings.Contains(p.stderr.String(), "pw-never-logged") {
			t.Errorf("a worker logged the database's password:\n%s", p.stderr)
		}
	}

	wrong := startProc(t, "worker", "--jobs-db", srv.URL("nosuchdb"), "--data-dir", t.TempDir(), "--max-tabs", "1")
	if code := wrong.exit(t, 30*time.Second); code != 1 || !strings.Contains(wrong.stderr.String(), `database "nosuchdb" does not exist`) {
		t.Errorf("a worker on a database that does not exist exited %d:\n%s\nwant 1 and the reason", code, wrong.stderr)
	}
}
