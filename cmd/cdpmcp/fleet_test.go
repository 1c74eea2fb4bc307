package main

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/pgtest"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/cdpmcp/cdpmcp/jobs/postgres"
)

// The fleet's tests share one PostgreSQL server, started by the first that
// needs it and stopped by TestMain; each test has a database of its own.
var (
	pgOnce sync.Once
	pgSrv  *pgtest.Server
	pgErr  error
)

func fleetDB(t testing.TB) string {
	t.Helper()
	pgOnce.Do(func() { pgSrv, pgErr = pgtest.Start() })
	if pgErr != nil {
		t.Fatal(pgErr)
	}
	url, err := pgSrv.NewDatabase("fleet")
	if err != nil {
		t.Fatal(err)
	}
	return url
}

func stopFleetDB() {
	if pgSrv != nil {
		pgSrv.Stop()
	}
}

// workerProc is a `cdpmcp worker` process.
type workerProc struct {
	id, marker string
	liveView   string
	metrics    string
	cmd        *exec.Cmd
	stderr     *syncBuffer
	exited     chan struct{}
}

var (
	workerLine  = regexp.MustCompile(`msg="worker running jobs".* liveView=(\S+)`)
	metricsLine = regexp.MustCompile(`msg="serving metrics" url=(\S+)`)
)

// startWorker starts a worker on db named id and waits until it runs jobs.
func startWorker(t testing.TB, db, id string, extra ...string) *workerProc {
	t.Helper()
	w := &workerProc{id: id, marker: newMarker("worker-" + id), stderr: &syncBuffer{}, exited: make(chan struct{})}
	tmp := t.TempDir()
	args := append([]string{"worker", "--jobs-db", db, "--worker-id", id, "--data-dir", tmp + "/data", "--lease", "10s",
		"--live-view-addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--browser-arg=" + w.marker}, extra...)
	w.cmd = exec.Command(binPath, args...)
	w.cmd.Env = procEnv(tmp)
	pipe, err := w.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			w.stderr.Write([]byte(line + "\n"))
			if m := metricsLine.FindStringSubmatch(line); m != nil {
				w.metrics = m[1]
			}
			if m := workerLine.FindStringSubmatch(line); m != nil {
				w.liveView = m[1]
				close(ready)
			}
		}
		_ = w.cmd.Wait()
		close(w.exited)
	}()
	t.Cleanup(func() {
		w.stop()
		if t.Failed() {
			t.Logf("worker %s stderr:\n%s", id, w.stderr.String())
		}
	})
	select {
	case <-ready:
	case <-w.exited:
		t.Fatalf("worker %s exited:\n%s", id, w.stderr.String())
	case <-time.After(testbound.Bound()):
		t.Fatalf("worker %s not running after %s:\n%s", id, testbound.Bound(), w.stderr.String())
	}
	return w
}

// stop ends the worker (SIGTERM: it hands its jobs back) and its browsers.
func (w *workerProc) stop() {
	select {
	case <-w.exited:
	default:
		_ = w.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-w.exited:
		case <-time.After(testbound.Bound()):
			_ = w.cmd.Process.Kill()
			<-w.exited
		}
	}
	w.endBrowsers()
}

// kill ends the worker with SIGKILL, as a host that dies; its browsers
// (their own process groups) are ended after it.
func (w *workerProc) kill() {
	_ = w.cmd.Process.Kill()
	<-w.exited
	w.endBrowsers()
}

func (w *workerProc) endBrowsers() {
	for {
		bp, ok := fixtures.FindBrowser(w.marker)
		if !ok {
			return
		}
		_ = syscall.Kill(-bp.PGID, syscall.SIGKILL)
		waitExit(bp.PID, 5*time.Second)
	}
}

// fleetStore opens the fleet's database from the test, to watch its jobs.
func fleetStore(t *testing.T, db string) jobs.Store {
	t.Helper()
	s, err := postgres.Open(testCtx(t, time.Minute), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// waitStates waits until every job in ids is in one of states, and returns them.
func waitStates(t *testing.T, ctx context.Context, s jobs.Store, ids []string, states ...jobs.State) map[string]*jobs.Job {
	t.Helper()
	for {
		all, err := s.List(ctx, jobstore.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		byID := map[string]*jobs.Job{}
		for _, j := range all {
			byID[j.ID] = j
		}
		out := map[string]*jobs.Job{}
		var pending *jobs.Job
		for _, id := range ids {
			j := byID[id]
			if j == nil {
				t.Fatalf("job %s is not in the store", id)
			}
			out[id] = j
			ok := false
			for _, st := range states {
				ok = ok || j.State == st
			}
			if !ok {
				pending = j
			}
		}
		if pending == nil {
			return out
		}
		select {
		case <-ctx.Done():
			t.Fatalf("job %s is %s (%s) on %q, want %v", pending.ID, pending.State, pending.Summary, pending.Worker, states)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func fmtURL(path string, args ...any) string { return site.URL(fmt.Sprintf(path, args...)) }
