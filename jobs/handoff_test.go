package jobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// liveView stands in for the human handoff's live view (a later issue): it
// records what the queue offers and withdraws.
type liveView struct {
	mu        sync.Mutex
	offered   map[string]*cdpclient.Page
	withdrawn []string
}

func (v *liveView) Offer(_ context.Context, j *jobs.Job, tab *cdpclient.Page, reason string) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.offered[j.ID] = tab
	return "http://127.0.0.1:1/live/" + j.ID, nil
}

func (v *liveView) Withdraw(id string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.withdrawn = append(v.withdrawn, id)
}

// A waiting job offers its live tab through the Handoff hook, its status
// carries the handoffUrl, and the offer is withdrawn when the job is
// cancelled; the tab is then closed.
func TestHandoffHook(t *testing.T) {
	t.Parallel()
	onBothStores(t, testHandoffHook)
}

func testHandoffHook(t *testing.T) {
	t.Parallel()
	view := &liveView{offered: map[string]*cdpclient.Page{}}
	q := newQueue(t, jobs.Config{MaxTabs: 1, Handoff: view})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/captcha.html"), HandoffAllowed: true, Task: jobs.Task{Type: jobs.TaskLogin}})
	w, _ := q.wait(t, j.ID, jobs.WaitingForHuman, jobs.Failed)
	view.mu.Lock()
	tab := view.offered[j.ID]
	view.mu.Unlock()
	if w.State != jobs.WaitingForHuman || w.HandoffURL != "http://127.0.0.1:1/live/"+j.ID || !strings.Contains(w.Summary, "CAPTCHA") {
		t.Fatalf("waiting job: %s %q %q", w.State, w.HandoffURL, w.Summary)
	}
	if tab == nil || tab.Usable() != nil || !strings.HasSuffix(tab.URL(), "/jobs/captcha.html") {
		t.Fatalf("offered tab: %v", tab)
	}
	if _, err := q.Cancel(testCtx(t), j.ID, "nobody came"); err != nil {
		t.Fatal(err)
	}
	view.mu.Lock()
	withdrawn := slices.Compact(view.withdrawn)
	view.mu.Unlock()
	if len(withdrawn) != 1 || withdrawn[0] != j.ID || tab.Usable() == nil {
		t.Errorf("after cancel: withdrawn %q, tab usable err %v", withdrawn, tab.Usable())
	}
	if c, _ := q.Status(testCtx(t), j.ID); c.HandoffURL != "" {
		t.Errorf("a cancelled job still has a handoffUrl")
	}
}

// In read-only mode only navigate and extract jobs are taken.
func TestReadOnlyRefusesActingJobs(t *testing.T) {
	t.Parallel()
	q := newQueue(t, jobs.Config{MaxTabs: 1, ReadOnly: true})
	for _, task := range []jobs.Task{
		{Type: jobs.TaskMessage, Selectors: []string{"#m", "#s"}, Text: "x"},
		{Type: jobs.TaskLogin},
	} {
		_, _, err := q.Submit(testCtx(t), jobs.SubmitRequest{CorrelationID: "ro", URL: site.URL("/"), Task: task})
		var ie *jobs.InputError
		if !errors.As(err, &ie) || !strings.Contains(ie.Hint, "--read-only") {
			t.Errorf("%s job in read-only mode: %v", task.Type, err)
		}
	}
	if _, _, err := q.Submit(testCtx(t), jobs.SubmitRequest{CorrelationID: "ro", URL: site.URL("/jobs/article.html"), Task: jobs.Task{Type: jobs.TaskNavigate}}); err != nil {
		t.Errorf("navigate in read-only mode: %v", err)
	}
}

// A custom job's agent that asks for a person (ask_human) hands the job's tab
// over: the job waits with a handoffUrl, and once resumed with a note the
// agent goes on from there with the note in its next prompt.
func TestAgentAsksForAPerson(t *testing.T) {
	t.Parallel()
	var prompts []string
	var mu sync.Mutex
	model := chatModel(t, func(n int, prompt string) string {
		mu.Lock()
		prompts = append(prompts, prompt)
		mu.Unlock()
		if n > 1 {
			return `{"current_state":{},"action":[{"done":{"text":"signed in"}}]}`
		}
		return `{"current_state":{},"action":[{"ask_human":{"reason":"solve the CAPTCHA"}}]}`
	})
	view := &liveView{offered: map[string]*cdpclient.Page{}}
	agent := &jobs.LoopAgent{Model: model, Loop: agentloop.Config{MaxSteps: 3, RunDir: t.TempDir()}}
	q := newQueue(t, jobs.Config{MaxTabs: 1, Agent: agent, Handoff: view})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/handoff/signin"), HandoffAllowed: true,
		Task: jobs.Task{Type: jobs.TaskCustom, Instructions: "Sign in"}})
	w, _ := q.wait(t, j.ID, jobs.WaitingForHuman, jobs.Failed)
	if w.State != jobs.WaitingForHuman || w.HandoffURL == "" || !strings.Contains(w.Summary, "solve the CAPTCHA") {
		t.Fatalf("waiting: %s %q %q", w.State, w.HandoffURL, w.Summary)
	}
	if _, err := q.Resume(testCtx(t), j.ID, "the CAPTCHA is solved"); err != nil {
		t.Fatal(err)
	}
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	mu.Lock()
	defer mu.Unlock()
	if done.State != jobs.Succeeded || len(prompts) != 2 || !strings.Contains(prompts[1], "the person handed the tab back and said: the CAPTCHA is solved") {
		t.Errorf("after resume: %s %q, %d prompts", done.State, done.Error, len(prompts))
	}
	if !strings.Contains(prompts[0], "ask_human") {
		t.Error("ask_human was not offered to a job that allows a handoff")
	}
}

// A wait no one ends fails the job after the handoff timeout, and the offer
// is withdrawn.
func TestHandoffTimesOut(t *testing.T) {
	t.Parallel()
	onBothStores(t, testHandoffTimesOut)
}

func testHandoffTimesOut(t *testing.T) {
	t.Parallel()
	view := &liveView{offered: map[string]*cdpclient.Page{}}
	q := newQueue(t, jobs.Config{MaxTabs: 1, Handoff: view, HandoffTimeout: 500 * time.Millisecond})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/jobs/captcha.html"), HandoffAllowed: true, Task: jobs.Task{Type: jobs.TaskLogin}})
	done, seen := q.wait(t, j.ID, jobs.Failed, jobs.Succeeded)
	view.mu.Lock()
	withdrawn := slices.Contains(view.withdrawn, j.ID)
	_, offered := view.offered[j.ID] // it waited (too briefly for a poll to see it on a busy machine)
	view.mu.Unlock()
	if done.State != jobs.Failed || !strings.Contains(done.Error, "no one resumed the job within 500ms") || !withdrawn ||
		!offered || done.HandoffURL != "" {
		t.Errorf("%s %q (seen %v), offered %t, withdrawn %t, handoffUrl %q", done.State, done.Error, seen, offered, withdrawn, done.HandoffURL)
	}
}

// A navigate, extract or message job that meets a CAPTCHA waits for a person
// when it allows a handoff, and goes on once they are past it; without a
// handoff it reads the page as it is.
func TestCaptchaWaitsForAPerson(t *testing.T) {
	t.Parallel()
	view := &liveView{offered: map[string]*cdpclient.Page{}}
	q := newQueue(t, jobs.Config{MaxTabs: 2, Handoff: view})
	task := jobs.Task{Type: jobs.TaskExtract, Extract: json.RawMessage(`{"type":"object","properties":{"warranty":{"type":"string"}}}`)}
	j := q.submit(t, jobs.SubmitRequest{CorrelationID: "gate", URL: site.URL("/jobs/gate.html"), HandoffAllowed: true, Task: task})
	w, _ := q.wait(t, j.ID, jobs.WaitingForHuman, jobs.Succeeded, jobs.Failed)
	if w.State != jobs.WaitingForHuman || !strings.Contains(w.Summary, "the page shows a CAPTCHA") {
		t.Fatalf("job on a CAPTCHA: %s %q %s", w.State, w.Summary, w.Error)
	}
	view.mu.Lock()
	tab := view.offered[j.ID]
	view.mu.Unlock()
	if tab == nil {
		t.Fatal("the tab was not offered")
	}
	if _, err := tab.Click(testCtx(t), cdpclient.Target{Selector: "#human"}, cdpclient.ClickOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Resume(testCtx(t), j.ID, "past it"); err != nil {
		t.Fatal(err)
	}
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded || !strings.Contains(string(done.Result), `"warranty":"2 years"`) {
		t.Errorf("after the person: %s %s, result %s", done.State, done.Error, done.Result)
	}

	// reCAPTCHA v3's badge asks nothing of a person: no wait.
	badge := q.submit(t, jobs.SubmitRequest{CorrelationID: "badge", URL: site.URL("/jobs/badge.html"), HandoffAllowed: true, Task: task})
	if d, _ := q.wait(t, badge.ID, jobs.Succeeded, jobs.Failed, jobs.WaitingForHuman); d.State != jobs.Succeeded || !strings.Contains(string(d.Result), `"warranty":"2 years"`) {
		t.Errorf("a page with a reCAPTCHA badge: %s %q, result %s", d.State, d.Summary, d.Result)
	}

	plain := q.submit(t, jobs.SubmitRequest{CorrelationID: "gate2", URL: site.URL("/jobs/gate.html"), Task: task})
	if d, _ := q.wait(t, plain.ID, jobs.Succeeded, jobs.Failed, jobs.WaitingForHuman); d.State != jobs.Succeeded || !strings.Contains(string(d.Result), `"missing":["warranty"]`) {
		t.Errorf("without a handoff: %s %s, result %s", d.State, d.Error, d.Result)
	}
}
