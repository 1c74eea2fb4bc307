package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/google/go-cmp/cmp"
)

// A serve that runs no jobs and three workers share one PostgreSQL queue:
// 12 jobs (two for each of the fleet's six tabs, so the workers race to
// claim them) each run once on some worker; priorities hold across the fleet;
// cancel and resume through the serve reach the worker that holds the job;
// a worker killed with SIGKILL loses its jobs to the others (navigate runs
// again, message fails "interrupted", nothing is sent); a profile signed in
// on one worker is signed in on another.
func TestFleet(t *testing.T) {
	t.Parallel()
	db := fleetDB(t)
	ctx := testCtx(t, 10*time.Minute)
	srv := startHTTP(t, "fleet-serve", "--jobs-db", db, "--max-tabs", "0", "--lease", "10s", "--worker-id", "serve", "--data-dir", t.TempDir())
	c := httpClient(t, ctx, srv.url, "")
	store := fleetStore(t, db)
	ws := map[string]*workerProc{}
	for _, id := range []string{"w1", "w2", "w3"} {
		ws[id] = startWorker(t, db, id, "--max-tabs", "2")
	}
	submit := func(corr, url string, prio int, task map[string]any, extra map[string]any) string {
		t.Helper()
		args := map[string]any{"correlationId": corr, "url": url, "priority": prio, "task": task}
		for k, v := range extra {
			args[k] = v
		}
		return jobCall(t, ctx, c, "browser.job.submit", args)["jobId"].(string)
	}
	navigate := map[string]any{"type": "navigate"}

	t.Run("12 jobs, each run once", func(t *testing.T) {
		var ids []string
		// Two rounds of the six tabs: the workers claim from one queue at
		// once, and a worker holds at most two of them at a time.
		for i := range 12 {
			ids = append(ids, submit(fmt.Sprint("once-", i), fmtURL("/jobs/page/once-%d", i), 5, navigate, nil))
		}
		done := waitStates(t, ctx, store, ids, jobs.Succeeded, jobs.Failed, jobs.Cancelled)
		per, slow := map[string]int{}, 0
		for i, id := range ids {
			j := done[id]
			// On a machine this busy a page can miss its load's deadline:
			// that job failed, once; it was neither lost nor run twice.
			timedOut := j.State == jobs.Failed && strings.HasPrefix(j.Error, "TIMEOUT")
			if (j.State != jobs.Succeeded && !timedOut) || j.Attempt != 1 || ws[j.Worker] == nil {
				t.Errorf("job %d: %s attempt %d on %q: %s", i, j.State, j.Attempt, j.Worker, j.Error)
			}
			if n := site.Hits(fmt.Sprintf("/jobs/page/once-%d", i)); n > 1 || (n == 0 && !timedOut) {
				t.Errorf("job %d's page was loaded %d times", i, n)
			}
			if timedOut {
				slow++
			}
			per[j.Worker]++
		}
		t.Logf("jobs per worker: %v; %d of 12 timed out loading their page", per, slow)
		if len(per) != 3 {
			t.Errorf("the jobs ran on %d workers, want all 3: %v", len(per), per)
		}
		if st := jobState(t, ctx, c, ids[0]); st["worker"] != done[ids[0]].Worker {
			t.Errorf("status names worker %v, the store %q", st["worker"], done[ids[0]].Worker)
		}
	})

	t.Run("extract_structured through the serve runs on a worker", func(t *testing.T) {
		a := jobCall(t, ctx, c, "browser.snapshot.extract_structured", map[string]any{"correlationId": "x-fleet", "url": site.URL("/jobs/product.html"),
			"schema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
		b, _ := json.Marshal(a)
		if data, _ := a["data"].(map[string]any); data["name"] == nil || !strings.Contains(string(b), "read by worker w") {
			t.Errorf("extract_structured on a serve that runs no jobs: %s", b)
		}
	})

	t.Run("priority order and cancel across the fleet", func(t *testing.T) {
		// Five of the six tabs stay busy; the jobs go one by one through the last.
		var long []string
		hang := map[string]any{"type": "navigate", "timeoutMs": 3_600_000} // a page that never answers
		for i := range 5 {
			long = append(long, submit(fmt.Sprint("long-", i), fmtURL("/jobs/hang?n=%d", i), 10, hang, nil))
		}
		short := submit("short", fmtURL("/jobs/slowpage?ms=5000"), 10, navigate, nil)
		waitStates(t, ctx, store, append(long, short), jobs.Running)
		var ids []string
		names := map[string]string{}
		for i, p := range []int{1, 5, 9, 5, 3} {
			id := submit(fmt.Sprint("prio-", i), fmtURL("/jobs/page/prio-%c", 'a'+i), p, navigate, nil)
			ids, names[id] = append(ids, id), string(rune('a'+i))
		}
		done := waitStates(t, ctx, store, ids, jobs.Succeeded, jobs.Failed)
		sort.Slice(ids, func(i, k int) bool { return done[ids[i]].Started.Before(done[ids[k]].Started) })
		var order []string
		for _, id := range ids {
			order = append(order, names[id])
		}
		if d := cmp.Diff([]string{"c", "b", "d", "e", "a"}, order); d != "" {
			t.Errorf("start order across the fleet (-want +got):\n%s", d)
		}
		// Cancel the long jobs through the serve, which runs none of them.
		for i, id := range long {
			start := time.Now()
			a := jobCall(t, ctx, c, "browser.job.cancel", map[string]any{"correlationId": fmt.Sprint("long-", i), "jobId": id})
			answered := time.Since(start)
			if a["status"] != "CANCELLED" {
				t.Errorf("cancel answered %v", a)
			}
			// The holder adds the artifacts once the tab has stopped.
			for j := done0(t, store, id); j.Artifacts.Trace == ""; j = done0(t, store, id) {
				if ctx.Err() != nil {
					t.Fatalf("the cancelled job %s's run did not end on %s", id, j.Worker)
				}
				time.Sleep(20 * time.Millisecond)
			}
			t.Logf("cancel of %s on %s: answered in %v, its run ended %v after the call", id, done0(t, store, id).Worker,
				answered.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
		}
		for _, w := range ws {
			waitTabs(t, w, 0)
		}
	})

	t.Run("resume through the serve reaches the worker", func(t *testing.T) {
		id := submit("handoff", site.URL("/jobs/login"), 5, map[string]any{"type": "login"}, map[string]any{"handoffAllowed": true})
		w := waitStates(t, ctx, store, []string{id}, jobs.WaitingForHuman)[id]
		holder := ws[w.Worker]
		st := jobState(t, ctx, c, id)
		link, _ := st["handoffUrl"].(string)
		if holder == nil || !strings.HasPrefix(link, holder.liveView+"/live/") {
			t.Fatalf("handoffUrl %q, want the live view of the holder %q", link, w.Worker)
		}
		// The same link opened on the serve's live view is sent on to the holder's.
		token := link[strings.LastIndex(link, "/")+1:]
		noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := noFollow.Get(srv.url[:strings.Index(srv.url, "/mcp")] + "/live/" + token)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusFound || res.Header.Get("Location") != link {
			t.Errorf("the link on the serve's view: %d to %q, want 302 to %q", res.StatusCode, res.Header.Get("Location"), link)
		}
		if a := jobCall(t, ctx, c, "browser.job.resume", map[string]any{"correlationId": "handoff", "jobId": id, "note": "over to you"}); a["status"] != "RESUMED" {
			t.Fatalf("resume answered %v", a)
		}
		// Nobody signed in: the worker goes on, finds the form still there and
		// asks the person once more; a second resume still signed out fails.
		for j := done0(t, store, id); !(j.State == jobs.WaitingForHuman && strings.Contains(j.Summary, "still not signed in after a person's help")); j = done0(t, store, id) {
			if j.State.Terminal() || ctx.Err() != nil {
				t.Fatalf("after the first resume: %s %q %q, want the person asked again", j.State, j.Summary, j.Error)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if a := jobCall(t, ctx, c, "browser.job.resume", map[string]any{"correlationId": "handoff", "jobId": id, "note": "over to you"}); a["status"] != "RESUMED" {
			t.Fatalf("second resume answered %v", a)
		}
		d := waitStates(t, ctx, store, []string{id}, jobs.Failed, jobs.Succeeded)[id]
		if d.State != jobs.Failed || !strings.Contains(d.Error, "after a person's help") || d.Note != "over to you" || d.Worker != holder.id {
			t.Errorf("after the resumes: %s %q note %q on %s", d.State, d.Error, d.Note, d.Worker)
		}
	})

	t.Run("a worker killed mid-job", func(t *testing.T) {
		sends := site.Sends()
		msg := submit("kill-msg", fmtURL("/jobs/slowpage?ms=20000&k=msg"), 9,
			map[string]any{"type": "message", "selectors": []string{"#message", "#send"}, "text": "never sent"}, nil)
		victim := ws[waitStates(t, ctx, store, []string{msg}, jobs.Running)[msg].Worker]
		// Five navigate jobs fill the other five tabs: one is the victim's.
		var navs []string
		for i := range 5 {
			navs = append(navs, submit(fmt.Sprint("kill-nav-", i), fmtURL("/jobs/slowpage?ms=15000&k=%d", i), 5, navigate, nil))
		}
		running := map[string]*jobs.Job{}
		for busy := 0; busy < 2; { // the message job and one navigate job
			busy = 0
			for _, id := range navs {
				if j := done0(t, store, id); j.Worker == victim.id && j.State == jobs.Running {
					running[id] = j
					busy++
				}
			}
			if j := done0(t, store, msg); j.State == jobs.Running {
				busy++
			}
			if ctx.Err() != nil {
				t.Fatalf("the victim %s never ran the message job and a navigate job at once", victim.id)
			}
			time.Sleep(100 * time.Millisecond)
		}
		victim.kill()
		delete(ws, victim.id)
		done := waitStates(t, ctx, store, append(navs, msg), jobs.Succeeded, jobs.Failed)
		moved := 0
		for _, id := range navs {
			j := done[id]
			timedOut := j.State == jobs.Failed && strings.HasPrefix(j.Error, "TIMEOUT") // a busy machine
			if (j.State != jobs.Succeeded && !timedOut) || j.Worker == victim.id {
				t.Errorf("navigate job after the kill: %s attempt %d on %s: %s", j.State, j.Attempt, j.Worker, j.Error)
			}
			if running[id] != nil {
				moved++
				if j.Attempt != 2 {
					t.Errorf("the killed worker's navigate job ran %d times, want 2", j.Attempt)
				}
			}
		}
		if moved != 1 {
			t.Errorf("%d navigate jobs ran on the killed worker, want 1", moved)
		}
		if j := done[msg]; j.State != jobs.Failed || !strings.HasPrefix(j.Error, "interrupted: worker "+victim.id) || j.Attempt != 1 {
			t.Errorf("message job after the kill: %s attempt %d: %q", j.State, j.Attempt, j.Error)
		}
		if site.Sends() != sends {
			t.Errorf("a message was sent")
		}
	})

	t.Run("a profile moves between workers", func(t *testing.T) {
		in := submit("magic", site.MagicLink(), 5, navigate, map[string]any{"profile": "alice"})
		j := waitStates(t, ctx, store, []string{in}, jobs.Succeeded, jobs.Failed)[in]
		if j.State != jobs.Succeeded || !strings.HasSuffix(j.FinalURL, "/jobs/account") {
			t.Fatalf("sign-in: %s %s %s", j.State, j.Error, j.FinalURL)
		}
		signedIn := ws[j.Worker]
		signedIn.stop() // saves the profile and hands it back
		delete(ws, signedIn.id)
		check := submit("who", site.URL("/jobs/account"), 5, map[string]any{"type": "extract", "selectors": []string{"#state"}}, map[string]any{"profile": "alice"})
		d := waitStates(t, ctx, store, []string{check}, jobs.Succeeded, jobs.Failed)[check]
		if d.Worker == signedIn.id || !strings.Contains(string(d.Result), `"Signed in"`) {
			t.Errorf("profile alice on %s after signing in on %s: %s %s", d.Worker, signedIn.id, d.Result, d.Error)
		}
	})
}

// done0 reads a job from the store.
func done0(t *testing.T, s jobs.Store, id string) *jobs.Job {
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
	defer cancel()
	j, err := s.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

var tabsOpen = regexp.MustCompile(`(?m)^cdpmcp_worker_tabs_open\{worker="([^"]+)"\} (\d+)$`)

// waitTabs waits until worker w says (on its /metrics, from what each
// worker last told the store) that it has at most want tabs open.
func waitTabs(t *testing.T, w *workerProc, want int) {
	t.Helper()
	testbound.UntilNil(t, fmt.Sprintf("worker %s to have at most %d tabs open", w.id, want), func() error {
		resp, err := http.Get(w.metrics)
		if err != nil {
			return err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, m := range tabsOpen.FindAllStringSubmatch(string(b), -1) {
			if n, _ := strconv.Atoi(m[2]); m[1] == w.id && n <= want {
				return nil
			}
		}
		return fmt.Errorf("its metrics say:\n%s", b)
	})
}
