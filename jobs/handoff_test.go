package jobs_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

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
	withdrawn := strings.Join(view.withdrawn, ",")
	view.mu.Unlock()
	if withdrawn != j.ID || tab.Usable() == nil {
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
