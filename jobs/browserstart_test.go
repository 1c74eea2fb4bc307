package jobs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/browserproc"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// gatedBrowser is a browser that cannot start until the test lets it: a
// script that exits saying why, as a browser that cannot start does, until
// the file go exists, and then runs Chromium. Every start it is asked for
// adds a line to starts.
type gatedBrowser struct {
	path, goFile, starts string
}

func newGatedBrowser(t *testing.T) *gatedBrowser {
	t.Helper()
	dir := t.TempDir()
	g := &gatedBrowser{path: filepath.Join(dir, "browser"), goFile: filepath.Join(dir, "go"), starts: filepath.Join(dir, "starts")}
	writeBrowserScript(t, g.path, "echo start >> "+g.starts+"\n"+
		"if [ ! -e "+g.goFile+" ]; then echo 'this machine is too busy to start a browser' >&2; exit 1; fi\n")
	return g
}

// writeBrowserScript writes a browser the test controls at path: a script
// that runs the shell lines first, then the headless shell with the
// arguments it was started with.
func writeBrowserScript(t *testing.T, path, first string) {
	t.Helper()
	shell, err := browserproc.FindHeadless()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+first+"exec "+shell+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// open lets the browser start from now on.
func (g *gatedBrowser) open(t *testing.T) {
	t.Helper()
	if err := os.WriteFile(g.goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// count is how many starts the browser was asked for.
func (g *gatedBrowser) count() int {
	b, _ := os.ReadFile(g.starts)
	return bytes.Count(b, []byte("\n"))
}

// waitForBrowser waits until job id says it waits for a browser to try again.
func (q *testQueue) waitForBrowser(t *testing.T, id string) *jobs.Job {
	t.Helper()
	var j *jobs.Job
	testbound.Until(t, "job "+id+" to wait for a browser", func() bool {
		var err error
		if j, err = q.Status(testCtx(t), id); err != nil {
			t.Fatal(err)
		}
		if j.State.Terminal() {
			t.Fatalf("job %s ended %s (%s) while its browser could not start", id, j.State, j.Error)
		}
		return strings.HasPrefix(j.Summary, "waiting for a browser: ")
	})
	return j
}

// A job whose browser cannot start (yet) is not failed for it: it waits,
// DISPATCHED, saying why, and tries again after a backoff; once the browser
// starts it runs, in its first attempt.
func TestJobWaitsForItsBrowser(t *testing.T) {
	t.Parallel()
	g := newGatedBrowser(t)
	cfg := retryingConfig(cdpclient.LaunchOptions{Path: g.path}, 10, 200*time.Millisecond)
	q := openLaunchingQueue(t, t.TempDir(), cfg)
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	waiting := q.waitForBrowser(t, j.ID)
	if waiting.State != jobs.Dispatched || waiting.Attempt != 0 || !strings.Contains(waiting.Summary, "too busy to start a browser") ||
		!strings.Contains(waiting.Summary, "the job has not started") {
		t.Errorf("a job waiting for its browser: %s attempt %d %q", waiting.State, waiting.Attempt, waiting.Summary)
	}
	g.open(t)
	done, seen := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded || done.Attempt != 1 {
		t.Errorf("the job once its browser starts: %s attempt %d %q (states %v)", done.State, done.Attempt, done.Error, seen)
	}
	if n := g.count(); n < 2 {
		t.Errorf("the browser was asked to start %d times, want 2 or more", n)
	}
	var m bytes.Buffer
	if err := q.WriteMetrics(testCtx(t), &m); err != nil || !strings.Contains(m.String(), "cdpmcp_job_browser_retries_total{worker=") ||
		strings.Contains(m.String(), "cdpmcp_job_browser_retries_total{worker=\""+q.Worker()+"\"} 0\n") {
		t.Errorf("metrics (%v) do not count the retries:\n%s", err, m.String())
	}
}

// A job whose browser runs but does not come up within its start's bound
// (the first start hangs here, as Chromium on a machine too busy for it)
// tries again, and runs once a start succeeds, in its first attempt.
func TestJobWhoseBrowserStartHangsOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path, starts := filepath.Join(dir, "browser"), filepath.Join(dir, "starts")
	writeBrowserScript(t, path, "if [ ! -e "+starts+" ]; then echo once > "+starts+"; exec sleep 600; fi\n")
	// The bound must hold a real start on a busy machine (CI's took over 2 s):
	// the hung first start costs it in full, as a sleep that uses no CPU.
	cfg := retryingConfig(cdpclient.LaunchOptions{Path: path, StartTimeout: testbound.Scale(20 * time.Second)}, 4, 100*time.Millisecond)
	q := openLaunchingQueue(t, t.TempDir(), cfg)
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	done, seen := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded || done.Attempt != 1 {
		t.Errorf("a job whose first browser start hung: %s attempt %d %q (states %v)", done.State, done.Attempt, done.Error, seen)
	}
	var m bytes.Buffer
	if err := q.WriteMetrics(testCtx(t), &m); err != nil || !strings.Contains(m.String(), "cdpmcp_job_browser_retries_total{worker=\""+q.Worker()+"\"} 1\n") {
		t.Errorf("metrics (%v) do not count the one retry:\n%s", err, m.String())
	}
}

// A browser that never starts fails the job once its tries are spent (no
// wait for ever): BROWSER_UNAVAILABLE, saying how often it tried, why the
// last try failed and that the job never started.
func TestJobWhoseBrowserNeverStarts(t *testing.T) {
	t.Parallel()
	onBothStores(t, testJobWhoseBrowserNeverStarts)
}

func testJobWhoseBrowserNeverStarts(t *testing.T) {
	t.Parallel()
	g := newGatedBrowser(t)
	cfg := retryingConfig(cdpclient.LaunchOptions{Path: g.path}, 3, 100*time.Millisecond)
	q := openLaunchingQueue(t, t.TempDir(), cfg)
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"h1"}}})
	done, seen := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	want := "BROWSER_UNAVAILABLE: no browser and tab could be had for the job in 3 tries over "
	if done.State != jobs.Failed || !strings.HasPrefix(done.Error, want) || !strings.Contains(done.Error, "too busy to start a browser") ||
		!strings.Contains(done.Error, "never started: submitting it again (with a new correlationId) is safe") || done.Attempt != 0 {
		t.Errorf("a job whose browser never starts: %s attempt %d %q (states %v); want FAILED %q…", done.State, done.Attempt, done.Error, seen, want)
	}
	if n := g.count(); n != 3 {
		t.Errorf("the browser was asked to start %d times, want 3", n)
	}
}

// A job that may have effects (a message) and waits for its browser when
// the server closes never started: it is not failed "interrupted", and the
// next start runs it.
func TestJobWaitingForItsBrowserOutlivesARestart(t *testing.T) {
	t.Parallel()
	g := newGatedBrowser(t)
	path := t.TempDir()
	cfg := retryingConfig(cdpclient.LaunchOptions{Path: g.path}, 10, 200*time.Millisecond)
	q := openLaunchingQueue(t, path, cfg)
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/compose.html"),
		Task: jobs.Task{Type: jobs.TaskMessage, Selectors: []string{"#message", "#send"}, Text: "sent after a restart"}})
	q.waitForBrowser(t, j.ID)
	q.close()
	g.open(t)
	q = openLaunchingQueue(t, path, cfg)
	done, seen := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded || done.Attempt != 1 || !done.Effects {
		t.Errorf("a message job that waited for its browser across a restart: %s attempt %d effects %v %q (states %v)",
			done.State, done.Attempt, done.Effects, done.Error, seen)
	}
}

// A job whose browser is not there (a --browser-path with no file) fails at
// once: no try can start it until the flag changes, and the error says which.
func TestJobWithNoBrowserFailsAtOnce(t *testing.T) {
	t.Parallel()
	cfg := retryingConfig(cdpclient.LaunchOptions{Path: filepath.Join(t.TempDir(), "no-chrome")}, 4, time.Hour) // a retry would wait past the test's bound
	q := openLaunchingQueue(t, t.TempDir(), cfg)
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	done, seen := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Failed || !strings.HasPrefix(done.Error, "BROWSER_UNAVAILABLE: the browser could not be started: --browser-path ") ||
		!strings.Contains(done.Error, "no-chrome: no such file") || !strings.Contains(done.Error, "pass the path of a Chromium or Chrome executable") {
		t.Errorf("a job whose browser is not there: %s %q (states %v)", done.State, done.Error, seen)
	}
}

// retryingConfig is a one-tab queue's configuration that launches its
// browser as launch says and tries tries times, backoff apart at first.
func retryingConfig(launch cdpclient.LaunchOptions, tries int, backoff time.Duration) jobs.Config {
	cfg := jobs.Config{MaxTabs: 1, Browser: cdpclient.Options{Launch: launch}}
	jobs.RetryBrowser(&cfg, tries, backoff)
	return cfg
}
