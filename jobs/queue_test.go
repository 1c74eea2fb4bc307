package jobs_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/jobstore"
	"github.com/google/go-cmp/cmp"
)

func prio(n int) *int { return &n }

// Bad arguments are refused at submit with a hint, and nothing is queued.
func TestSubmitRefusesBadArguments(t *testing.T) {
	t.Parallel()
	onBothStores(t, testSubmitRefusesBadArguments)
}

func testSubmitRefusesBadArguments(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	url := site.URL("/jobs/article.html")
	cases := []struct {
		name string
		req  jobs.SubmitRequest
		want string
	}{
		{"no correlation id", jobs.SubmitRequest{CorrelationID: " ", URL: url, Task: jobs.Task{Type: "navigate"}}, "correlationId is empty"},
		{"unknown type", jobs.SubmitRequest{CorrelationID: "c", URL: url, Task: jobs.Task{Type: "teleport"}}, `task.type "teleport" is not a known task type`},
		{"no type", jobs.SubmitRequest{CorrelationID: "c", URL: url}, "task.type is missing"},
		{"relative url", jobs.SubmitRequest{CorrelationID: "c", URL: "example.com", Task: jobs.Task{Type: "navigate"}}, "has no scheme"},
		{"ftp url", jobs.SubmitRequest{CorrelationID: "c", URL: "ftp://127.0.0.1/x", Task: jobs.Task{Type: "navigate"}}, `has scheme "ftp"`},
		{"priority", jobs.SubmitRequest{CorrelationID: "c", URL: url, Priority: prio(11), Task: jobs.Task{Type: "navigate"}}, "priority 11 is out of range"},
		{"max tabs", jobs.SubmitRequest{CorrelationID: "c", URL: url, MaxTabs: 51, Task: jobs.Task{Type: "navigate"}}, "maxTabs 51 is out of range"},
		{"profile", jobs.SubmitRequest{CorrelationID: "c", URL: url, Profile: "../etc", Task: jobs.Task{Type: "navigate"}}, "not a valid profile name"},
		{"extract nothing", jobs.SubmitRequest{CorrelationID: "c", URL: url, Task: jobs.Task{Type: "extract"}}, "needs selectors or an extract schema"},
		{"extract bad schema", jobs.SubmitRequest{CorrelationID: "c", URL: url, Task: jobs.Task{Type: "extract", Extract: json.RawMessage(`{"type":"string"}`)}}, "must describe an object"},
		{"extract bad keyword", jobs.SubmitRequest{CorrelationID: "c", URL: url, Task: jobs.Task{Type: "extract", Extract: json.RawMessage(`{"type":"object","properties":{"a":{"type":"wat"}}}`)}}, "not a valid JSON schema"},
		{"message one selector", jobs.SubmitRequest{CorrelationID: "c", URL: url, Task: jobs.Task{Type: "message", Selectors: []string{"#m"}, Text: "hi"}}, "needs two selectors"},
		{"message no text", jobs.SubmitRequest{CorrelationID: "c", URL: url, Task: jobs.Task{Type: "message", Selectors: []string{"#m", "#s"}}}, "needs task.text"},
		{"custom without a model", jobs.SubmitRequest{CorrelationID: "c", URL: url, Task: jobs.Task{Type: "custom", Instructions: "buy"}}, "--llm-base-url"},
		{"empty selector", jobs.SubmitRequest{CorrelationID: "c", URL: url, Task: jobs.Task{Type: "extract", Selectors: []string{""}}}, "task.selectors[0] is empty"},
	}
	for _, c := range cases {
		_, _, err := q.Submit(testCtx(t), c.req)
		var ie *jobs.InputError
		if !errors.As(err, &ie) || !strings.Contains(ie.Msg+" "+ie.Hint, c.want) || ie.Hint == "" {
			t.Errorf("%s: got %v, want an InputError with %q and a hint", c.name, err, c.want)
		}
	}
	all, err := q.List(testCtx(t), jobstore.Filter{})
	if err != nil || len(all) != 0 {
		t.Errorf("queued after refusals: %d jobs, %v", len(all), err)
	}
}

// The same correlation id and arguments give the same job, before and
// after it ran (a retry is never an error); the same correlation id with
// other arguments is a ConflictError naming what differs, and queues
// nothing; a retry that differs only in the password's value is the same
// request (the password is never stored, not even hashed).
func TestSubmitIsIdempotent(t *testing.T) {
	t.Parallel()
	onBothStores(t, testSubmitIsIdempotent)
}

func testSubmitIsIdempotent(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	req := jobs.SubmitRequest{CorrelationID: "order-1", URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}}
	a, created, err := q.Submit(testCtx(t), req)
	if err != nil || !created {
		t.Fatalf("first submit: %v %v", created, err)
	}
	b, created, err := q.Submit(testCtx(t), req)
	if err != nil || created || b.ID != a.ID {
		t.Errorf("second submit: id %s created %v err %v, want %s again", b.ID, created, err, a.ID)
	}
	q.wait(t, a.ID, jobs.Succeeded)
	c, created, err := q.Submit(testCtx(t), req)
	if err != nil || created || c.ID != a.ID || c.State != jobs.Succeeded {
		t.Errorf("after it ran: %v %v %v", c, created, err)
	}
	other := req
	other.Priority, other.Task.Selectors = prio(9), []string{"h1"}
	_, created, err = q.Submit(testCtx(t), other)
	var ce *jobs.ConflictError
	if !errors.As(err, &ce) || created || ce.JobID != a.ID || ce.State != jobs.Succeeded || !slices.Equal(ce.Fields, []string{"priority", "task"}) ||
		!strings.Contains(ce.Hint(), "new correlationId") {
		t.Errorf("other arguments under the same correlation id: %v (created %v)", err, created)
	}
	login := jobs.SubmitRequest{CorrelationID: "sign-in", URL: site.URL("/jobs/login"), Task: jobs.Task{Type: jobs.TaskLogin, Username: "ada", Password: "first"}}
	l1, _, err := q.Submit(testCtx(t), login)
	if err != nil {
		t.Fatal(err)
	}
	login.Task.Password = "second"
	if l2, created, err := q.Submit(testCtx(t), login); err != nil || created || l2.ID != l1.ID {
		t.Errorf("a retry with another password: %v %v %v", l2, created, err)
	}
	login.Task.Password = ""
	if _, _, err := q.Submit(testCtx(t), login); !errors.As(err, &ce) || !slices.Equal(ce.Fields, []string{"task.password (given or not)"}) {
		t.Errorf("a retry without the password: %v", err)
	}
	all, _ := q.List(testCtx(t), jobstore.Filter{})
	if len(all) != 2 {
		t.Errorf("%d jobs stored, want 2", len(all))
	}
}

// With one tab, jobs start by priority, higher first, in submission order
// within a priority.
func TestPriorityOrder(t *testing.T) {
	t.Parallel()
	onBothStores(t, testPriorityOrder)
}

func testPriorityOrder(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	blocker := q.submit(t, jobs.SubmitRequest{CorrelationID: "blocker", URL: site.URL("/jobs/slowpage?ms=1500"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	q.wait(t, blocker.ID, jobs.Running)
	var ids []string
	names := map[string]string{}
	for i, p := range []int{1, 5, 9, 5, 3} {
		j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html?" + string(rune('a'+i))), Priority: prio(p), Task: jobs.Task{Type: jobs.TaskNavigate}})
		ids = append(ids, j.ID)
		names[j.ID] = string(rune('a' + i))
	}
	if s, _ := q.Status(testCtx(t), ids[0]); !strings.Contains(s.Summary, "4 job(s) ahead") {
		t.Errorf("lowest priority job's summary %q", s.Summary)
	}
	var started []*jobs.Job
	for _, id := range ids {
		j, _ := q.wait(t, id, jobs.Succeeded, jobs.Failed)
		started = append(started, j)
	}
	sort.Slice(started, func(i, k int) bool { return started[i].Started.Before(started[k].Started) })
	var order []string
	for _, j := range started {
		order = append(order, names[j.ID])
	}
	if d := cmp.Diff([]string{"c", "b", "d", "e", "a"}, order); d != "" {
		t.Errorf("start order (-want +got):\n%s", d)
	}
}

// Never more tabs than --max-tabs. (How fast a free tab goes to the next job
// is BenchmarkThroughput's dispatch-median-ms.)
func TestMaxTabsAndDispatchDelay(t *testing.T) {
	t.Parallel()
	onBothStores(t, testMaxTabsAndDispatchDelay)
}

func testMaxTabsAndDispatchDelay(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	var ids []string
	for range 8 {
		ids = append(ids, q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/slowpage?ms=200&" + time.Now().String()), Task: jobs.Task{Type: jobs.TaskNavigate}}).ID)
	}
	maxRunning := 0
	for {
		st := q.Stats()
		maxRunning = max(maxRunning, st.Running)
		if left, _ := q.List(testCtx(t), jobstore.Filter{States: jobstore.Unfinished}); st.Running == 0 && len(left) == 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, id := range ids {
		if j, _ := q.wait(t, id, jobs.Succeeded, jobs.Failed); j.State != jobs.Succeeded {
			t.Errorf("job %s: %s %s", id, j.State, j.Error)
		}
	}
	st := q.Stats()
	if maxRunning != 2 {
		t.Errorf("at most %d jobs ran at once, want 2", maxRunning)
	}
	t.Logf("dispatch delay: median %v, p95 %v over %d", st.DispatchMedian, st.DispatchP95, st.Dispatches)
}

// Cancel answers at once and the tab closes, even for a tab whose page never
// finishes loading (the job's budget is an hour, so a cancel that waited for
// it would outlast the test bound); cancelling a finished job or resuming a
// job that is not waiting changes nothing.
func TestCancelAndMisuse(t *testing.T) {
	t.Parallel()
	onBothStores(t, testCancelAndMisuse)
}

func testCancelAndMisuse(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1})
	run := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/neverload"), Task: jobs.Task{Type: jobs.TaskNavigate, TimeoutMs: 3_600_000}})
	queued := q.submit(t, jobs.SubmitRequest{CorrelationID: "second", URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	q.wait(t, run.ID, jobs.Running)
	time.Sleep(300 * time.Millisecond) // into the load
	j, err := q.Cancel(testCtx(t), run.ID, "changed my mind")
	if err != nil || j.State != jobs.Cancelled {
		t.Fatalf("cancel: %v %v", j, err)
	}
	if _, err := q.Cancel(testCtx(t), queued.ID, ""); err != nil {
		t.Errorf("cancel a queued job: %v", err)
	}
	// The run closes its tab once it hears of the cancel, just after the
	// answer.
	testbound.Until(t, "the cancelled job's tab closed", func() bool {
		tab, err := q.WaitingTab(run.ID)
		return err != nil || tab == nil || tab.Usable() != nil
	})
	for _, id := range []string{run.ID, queued.ID} {
		if j, _ := q.wait(t, id, jobs.Cancelled); !strings.Contains(j.Summary, "cancelled") {
			t.Errorf("job %s after cancel: %s %q", id, j.State, j.Summary)
		}
	}
	var se *jobstore.StateError
	if j, err := q.Cancel(testCtx(t), run.ID, ""); err != nil || j.State != jobs.Cancelled {
		t.Errorf("cancelling a cancelled job again (a retry): %v %v", j, err)
	}
	done := q.submit(t, jobs.SubmitRequest{CorrelationID: "third", URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}})
	q.wait(t, done.ID, jobs.Succeeded)
	if _, err := q.Cancel(testCtx(t), done.ID, ""); !errors.As(err, &se) || se.State != jobs.Succeeded {
		t.Errorf("cancelling a finished job: %v", err)
	}
	if _, err := q.Resume(testCtx(t), done.ID, ""); !errors.As(err, &se) {
		t.Errorf("resuming a finished job: %v", err)
	}
	if j, _ := q.Status(testCtx(t), done.ID); j.State != jobs.Succeeded {
		t.Errorf("misuse changed the job: %s", j.State)
	}
	if _, err := q.Status(testCtx(t), "job-nope"); !errors.Is(err, jobstore.ErrNotFound) {
		t.Errorf("status of an unknown job: %v", err)
	}
}

// A job whose page loops forever stalls neither the other jobs nor status
// calls (its budget is an hour: a call that waited for it would outlast the
// test bound), and a job on such a page ends at its timeout.
func TestHangingTabStallsNothing(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 2})
	// The page's script holds its tab's main thread for ever, without
	// spinning: a spinning one would take a core of two from the jobs
	// beside it for the whole test, a test of the machine, not of the queue
	// (tools' TestInfiniteLoopRecovered has a page that spins).
	loop := func(timeoutMs int) *jobs.Job {
		return q.submit(t, jobs.SubmitRequest{CorrelationID: fmt.Sprint("loop-", timeoutMs), URL: site.URL("/jobs/blocked.html"),
			Task: jobs.Task{Type: jobs.TaskExtract, Selectors: []string{"h1"}, TimeoutMs: timeoutMs}})
	}
	hang := loop(3_600_000)
	q.wait(t, hang.ID, jobs.Running)
	time.Sleep(500 * time.Millisecond) // the loop has started
	var others []string
	for i := range 4 {
		others = append(others, q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/article.html?" + string(rune('a'+i))), Task: jobs.Task{Type: jobs.TaskNavigate}}).ID)
	}
	for _, id := range others {
		if j, _ := q.wait(t, id, jobs.Succeeded, jobs.Failed); j.State != jobs.Succeeded {
			t.Errorf("job next to the hanging one: %s %s", j.State, j.Error)
		}
	}
	if h, _ := q.Status(testCtx(t), hang.ID); h.State != jobs.Running {
		t.Errorf("the hanging job is %s after the others ended, want RUNNING", h.State)
	}
	short, _ := q.wait(t, loop(2000).ID, jobs.Failed, jobs.Succeeded)
	if short.State != jobs.Failed || !strings.Contains(short.Error, "timed out") {
		t.Errorf("a job on a page that loops, with a 2 s budget: %s %q", short.State, short.Error)
	}
	if !slices.Contains([]string{""}, short.Artifacts.Screenshot) {
		t.Logf("screenshot of the hung tab: %s", short.Artifacts.Screenshot)
	}
	if h, err := q.Cancel(testCtx(t), hang.ID, "the test is over"); err != nil || h.State != jobs.Cancelled {
		t.Errorf("cancel the hanging job: %v %v", h, err)
	}
}
