package jobs_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
)

// The jobs' browser killed under running jobs: a navigate job runs again in a
// new browser and succeeds; a message job ends FAILED "interrupted" (it may
// have had an effect), as after a server restart.
func TestJobsWhenTheirBrowserDies(t *testing.T) {
	t.Parallel()
	path := t.TempDir()
	q := openLaunchingQueue(t, path, jobs.Config{MaxTabs: 2})
	nav := q.submit(t, jobs.SubmitRequest{CorrelationID: "nav", URL: site.URL("/slow?ms=2500"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	msg := q.submit(t, jobs.SubmitRequest{CorrelationID: "msg", URL: site.URL("/slow?ms=20000"),
		Task: jobs.Task{Type: jobs.TaskMessage, Selectors: []string{"#message", "#send"}, Text: "hello"}})
	q.waitLoading(t, nav.ID)
	q.waitLoading(t, msg.ID)
	pids := browsersUnder(path)
	if len(pids) == 0 {
		t.Fatal("no jobs' browser runs")
	}
	for _, pid := range pids {
		n, _ := strconv.Atoi(pid)
		if pgid, err := syscall.Getpgid(n); err == nil && pgid == n {
			_ = syscall.Kill(-n, syscall.SIGKILL)
		}
	}
	j, seen := q.wait(t, nav.ID, jobs.Succeeded, jobs.Failed)
	if j.State != jobs.Succeeded || j.Attempt != 2 {
		t.Errorf("navigate job after its browser died: %s attempt %d %q (states %v)", j.State, j.Attempt, j.Error, seen)
	}
	j, _ = q.wait(t, msg.ID, jobs.Succeeded, jobs.Failed)
	if j.State != jobs.Failed || !strings.HasPrefix(j.Error, "interrupted: its browser died while it ran") || !strings.Contains(j.Error, "not run twice") {
		t.Errorf("message job after its browser died: %s %q", j.State, j.Error)
	}
	if j.Attempt != 1 {
		t.Errorf("the message job ran %d times", j.Attempt)
	}
}

// waitLoading waits until a job is loading its page (its browser is up).
func (q *testQueue) waitLoading(t *testing.T, id string) {
	t.Helper()
	testbound.UntilNil(t, "job "+id+" to load its page", func() error {
		j, err := q.Status(testCtx(t), id)
		switch {
		case err != nil:
			return err
		case j.State.Terminal():
			t.Fatalf("job %s ended %s (%s) before it loaded its page", id, j.State, j.Summary)
		case j.State != jobs.Running || !strings.HasPrefix(j.Summary, "loading "):
			return fmt.Errorf("%s: %s", j.State, j.Summary)
		}
		return nil
	})
}

// mountTmpfs mounts a tmpfs of size bytes at a new directory, unmounted at
// cleanup: a disk that really fills up.
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)+",mode=0700"); err != nil {
		if errors.Is(err, syscall.EPERM) {
			t.Skipf("mounting a tmpfs needs root (CAP_SYS_ADMIN): %v", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fill writes to a file in dir until the disk is full.
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	for _, n := range []int{4096, 512, 1} { // the last pages
		for {
			if _, err := f.Write(chunk[:n]); err != nil {
				break
			}
		}
	}
	return path
}

// The data dir's disk fills up while a job runs: the job fails saying so and
// lists only artifacts written whole; status, list and a reader of the store
// keep answering; a submit on the full disk is queued or refused saying the
// disk is full; once there is room again, jobs run, and none is left RUNNING.
// (On SQLite: PostgreSQL keeps its data on a disk of its own.)
func TestJobsWhenTheDiskFills(t *testing.T) {
	t.Parallel()
	path := mountTmpfs(t, 24<<20)
	q := openLaunchingQueue(t, path, jobs.Config{MaxTabs: 2})
	a := q.submit(t, jobs.SubmitRequest{CorrelationID: "a", URL: site.URL("/slow?ms=2500"), Task: jobs.Task{Type: jobs.TaskNavigate, Video: true}})
	q.waitLoading(t, a.ID)
	filler := fill(t, path)
	j, _ := q.wait(t, a.ID, jobs.Succeeded, jobs.Failed)
	if j.State != jobs.Failed || !strings.HasPrefix(j.Error, "INTERNAL: could not write the job's artifacts in "+q.dir.ArtifactDir("", a.ID)) ||
		!strings.Contains(j.Error, "no space left on device") || !strings.Contains(j.Error, "free space") {
		t.Errorf("a job whose artifacts did not fit: %s %q", j.State, j.Error)
	}
	checkWhole(t, q.dir.ArtifactDir("", a.ID), j.Artifacts)

	// Status and list answer; another reader of the store reads it.
	if _, err := q.Status(testCtx(t), a.ID); err != nil {
		t.Errorf("status on a full disk: %v", err)
	}
	if _, err := q.List(testCtx(t), jobstore.Filter{}); err != nil {
		t.Errorf("list on a full disk: %v", err)
	}
	ro, err := sqlite.Open(testCtx(t), q.dir.DBPath(), true)
	if err != nil {
		t.Fatalf("a reader of the full disk's store: %v", err)
	}
	if got, err := ro.Get(testCtx(t), a.ID); err != nil || got.State != jobs.Failed {
		t.Errorf("the reader sees %v %v", got, err)
	}
	ro.Close()

	// A submit on the full disk is queued, or refused saying why.
	b, _, err := q.Submit(testCtx(t), jobs.SubmitRequest{CorrelationID: "b", URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	if err != nil {
		c := cdpclient.Classify(err)
		if c.Code != cdpclient.CodeInternal || !strings.Contains(c.Msg, q.dir.DBPath()) || !strings.Contains(c.Msg, "disk is full") || !strings.Contains(c.Hint, "free space") {
			t.Errorf("a submit on a full disk: %v %q (hint %q)", c.Code, c.Msg, c.Hint)
		}
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if b != nil {
		q.wait(t, b.ID, jobs.Succeeded, jobs.Failed)
	}
	c := q.submit(t, jobs.SubmitRequest{CorrelationID: "c", URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	if j, _ := q.wait(t, c.ID, jobs.Succeeded, jobs.Failed); j.State != jobs.Succeeded {
		t.Errorf("a job once there is room again: %s %q", j.State, j.Error)
	}
	all, err := q.List(testCtx(t), jobstore.Filter{States: jobstore.Unfinished})
	if err != nil || len(all) != 0 {
		t.Errorf("jobs left unfinished: %d %v", len(all), err)
	}
}

// checkWhole checks that every artifact a job lists is there and whole, and
// that its directory holds no half-written file.
func checkWhole(t *testing.T, dir string, a jobs.Artifacts) {
	t.Helper()
	for _, p := range []string{a.Screenshot, a.Trace, a.NetworkLog, a.Video} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("listed artifact %s: %v", p, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(p)
		if err != nil && !e.IsDir() {
			t.Errorf("%s: %v", p, err)
			continue
		}
		switch {
		case e.IsDir():
			t.Errorf("a directory %s is left (video frames?)", p)
		case e.Name() == "trace.jsonl":
			sc := bufio.NewScanner(bytes.NewReader(b))
			for sc.Scan() {
				if !json.Valid(sc.Bytes()) {
					t.Errorf("%s has a cut line: %q", p, sc.Text())
				}
			}
			if len(b) > 0 && b[len(b)-1] != '\n' {
				t.Errorf("%s ends mid-line", p)
			}
		case e.Name() == "network.har":
			if !json.Valid(b) {
				t.Errorf("%s is not whole JSON (%d bytes)", p, len(b))
			}
		case e.Name() == "screenshot.png":
			if _, err := png.Decode(bytes.NewReader(b)); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		case e.Name() == "video.webm":
			if !bytes.HasPrefix(b, []byte{0x1a, 0x45, 0xdf, 0xa3}) {
				t.Errorf("%s is not a WebM", p)
			}
		default:
			t.Errorf("unexpected file %s (%d bytes)", p, len(b))
		}
	}
}

// A job's failure speaks to whoever submitted it, who has no page: a set-up
// mistake names the flag, a timeout says to raise task.timeoutMs; no hint
// tells them to take a snapshot.
func TestJobFailuresSpeakToTheSubmitter(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	slow := q.submit(t, jobs.SubmitRequest{CorrelationID: "slow", URL: site.URL("/slow?ms=20000"), Task: jobs.Task{Type: jobs.TaskNavigate, TimeoutMs: 1500}})
	j, _ := q.wait(t, slow.ID, jobs.Succeeded, jobs.Failed)
	if j.State != jobs.Failed || !strings.HasPrefix(j.Error, "TIMEOUT") || !strings.Contains(j.Error, "raise task.timeoutMs") || strings.Contains(j.Error, "snapshot") {
		t.Errorf("a job that timed out: %s %q", j.State, j.Error)
	}

	dir, err := jobs.OpenDataDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	store, err := sqlite.Open(testCtx(t), dir.DBPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	bad, err := jobs.Open(context.Background(), jobs.Config{Dir: dir, Store: store, Browser: cdpclient.Options{Launch: cdpclient.LaunchOptions{Path: "/nope/chrome"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	sub, _, err := bad.Submit(testCtx(t), jobs.SubmitRequest{CorrelationID: "nope", URL: site.URL("/home.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	if err != nil {
		t.Fatal(err)
	}
	testbound.Until(t, "the job to end", func() bool {
		j, _ = bad.Status(testCtx(t), sub.ID)
		return j != nil && j.State.Terminal()
	})
	if j.State != jobs.Failed || !strings.HasPrefix(j.Error, "BROWSER_UNAVAILABLE") || !strings.Contains(j.Error, "--browser-path /nope/chrome: no such file") || strings.Contains(j.Error, "snapshot") {
		t.Errorf("a job whose browser cannot start: %s %q", j.State, j.Error)
	}
}
