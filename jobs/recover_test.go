package jobs_test

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/jobs"
)

// Jobs a dead server left unfinished are taken up by the next: queued and
// dispatched ones run, running navigate/extract ones run again (up to their
// third run), running jobs that may have had effects end FAILED
// "interrupted", finished ones stay.
func TestRecoverAfterCrash(t *testing.T) {
	onBothStores(t, testRecoverAfterCrash)
}

func testRecoverAfterCrash(t *testing.T) {
	// Not parallel: it counts the fixture server's sends, which another
	// test's message job would add to.
	path := t.TempDir()
	dir, err := jobs.OpenDataDir(path)
	if err != nil {
		t.Fatal(err)
	}
	store := openStore(t, dir.Path)
	url := site.URL("/jobs/article.html")
	left := map[string]*jobs.Job{
		"queued":        {State: jobs.Queued, Task: jobs.Task{Type: jobs.TaskNavigate}},
		"dispatched":    {State: jobs.Dispatched, Task: jobs.Task{Type: jobs.TaskMessage, Selectors: []string{"#message", "#send"}, Text: "x"}},
		"running-nav":   {State: jobs.Running, Attempt: 1, Task: jobs.Task{Type: jobs.TaskNavigate}},
		"running-ext":   {State: jobs.Running, Attempt: 1, Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"h1"}}},
		"running-third": {State: jobs.Running, Attempt: 3, Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"h1"}}},
		"running-msg":   {State: jobs.Running, Attempt: 1, Task: jobs.Task{Type: jobs.TaskMessage, Selectors: []string{"#m", "#s"}, Text: "x"}},
		"waiting-login": {State: jobs.WaitingForHuman, Attempt: 1, Task: jobs.Task{Type: jobs.TaskLogin}},
		"queued-secret": {State: jobs.Queued, HasSecret: true, Task: jobs.Task{Type: jobs.TaskLogin}},
		"done":          {State: jobs.Succeeded, Attempt: 1, Progress: 1, Task: jobs.Task{Type: jobs.TaskNavigate}},
	}
	ids := map[string]string{}
	for name, j := range left {
		j.ID, j.Key, j.CorrelationID, j.URL, j.MaxTabs, j.Created = "job-"+name, name, name, url, 1, time.Now()
		if j.Task.Type == jobs.TaskMessage {
			j.URL = site.URL("/jobs/compose.html")
		}
		if _, _, err := store.Create(testCtx(t), j); err != nil {
			t.Fatal(err)
		}
		ids[name] = j.ID
	}
	store.Close()
	dir.Close()

	sends := site.Sends()
	q := openQueue(t, path, jobs.Config{MaxTabs: 2})
	want := map[string]jobs.State{
		"queued": jobs.Succeeded, "dispatched": jobs.Succeeded, "running-nav": jobs.Succeeded, "running-ext": jobs.Succeeded,
		"running-msg": jobs.Failed, "waiting-login": jobs.Failed, "queued-secret": jobs.Failed, "done": jobs.Succeeded,
		"running-third": jobs.Failed,
	}
	for name, st := range want {
		j, _ := q.wait(t, ids[name], jobs.Succeeded, jobs.Failed, jobs.Cancelled)
		if j.State != st {
			t.Errorf("%s: %s %q, want %s", name, j.State, j.Error, st)
		}
		if st == jobs.Failed && !strings.HasPrefix(j.Error, "interrupted") {
			t.Errorf("%s: error %q, want interrupted", name, j.Error)
		}
		if name == "running-nav" && (j.Attempt != 2 || j.Artifacts.Screenshot == "") {
			t.Errorf("re-run job: attempt %d, artifacts %+v", j.Attempt, j.Artifacts)
		}
		if name == "running-third" && !strings.Contains(j.Error, "in each of its 3 runs") {
			t.Errorf("a job whose holder died in each of its runs: %q", j.Error)
		}
		if name == "done" && j.Attempt != 1 {
			t.Errorf("a finished job ran again: attempt %d", j.Attempt)
		}
	}
	if site.Sends() != sends+1 {
		t.Errorf("%d messages sent, want 1 (the dispatched one, which never started)", site.Sends()-sends)
	}
}

// A browser left running by a dead server is ended when the next one takes
// the data dir; a second server cannot take a dir in use.
func TestOrphanedBrowsersEnded(t *testing.T) {
	t.Parallel()
	path := t.TempDir()
	q := openQueue(t, path, jobs.Config{MaxTabs: 1})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html"), Profile: "orphan", Task: jobs.Task{Type: jobs.TaskNavigate}})
	q.wait(t, j.ID, jobs.Succeeded)
	if _, err := jobs.OpenDataDir(path); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("a second OpenDataDir: %v, want it refused", err)
	}
	pids := browsersUnder(path)
	if len(pids) == 0 {
		t.Fatal("no browser runs on the data dir")
	}
	// The server dies without closing anything: drop only the lock.
	q.dir.Close()
	dir, err := jobs.OpenDataDir(path)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	if left := browsersUnder(path); len(left) != 0 {
		for _, pid := range left {
			st, _ := os.ReadFile("/proc/" + pid + "/stat")
			t.Logf("%s", st)
		}
		t.Errorf("browsers %v still run after the data dir was taken again (before: %v)", left, pids)
	}
}

// browsersUnder lists the browser processes whose profile is in dir.
func browsersUnder(dir string) []string {
	var out []string
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		b, err := os.ReadFile("/proc/" + p.Name() + "/cmdline")
		if err != nil || !bytes.Contains(b, []byte("--user-data-dir="+dir)) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + p.Name() + "/stat"); err == nil {
			if i := bytes.LastIndexByte(st, ')'); i > 0 && i+2 < len(st) && st[i+2] == 'Z' {
				continue
			}
		}
		out = append(out, p.Name())
	}
	return out
}
