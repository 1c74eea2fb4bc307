package jobs_test

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cdpmcp/cdpmcp/agentloop"
	"github.com/cdpmcp/cdpmcp/jobs"
)

// A custom job runs the agent loop on its own tab with the configured model: a
// scripted chat-completions server fills the form and says done.
func TestCustomJobRunsTheAgent(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	model := chatModel(t, func(n int, prompt string) string {
		calls.Store(int32(n))
		if n == 1 && !strings.Contains(prompt, "Report the page") {
			return `{"current_state":{},"action":[{"done":{"text":"the task never reached me","success":false}}]}`
		}
		return `{"current_state":{"prev_action_evaluation":"Unknown","important_contents":"","task_progress":"","future_plans":"","thought":"","summary":""},` +
			`"action":[{"done":{"text":"the page is titled Home page"}}]}`
	})
	agent := &jobs.LoopAgent{Model: model, Loop: agentloop.Config{MaxSteps: 3, RunDir: t.TempDir()}}
	q := newQueue(t, jobs.Config{MaxTabs: 1, Agent: agent})
	j := q.submit(t, jobs.SubmitRequest{URL: site.URL("/home.html"),
		Task: jobs.Task{Type: jobs.TaskCustom, Instructions: "Report the page's title"}})
	done, _ := q.wait(t, j.ID, jobs.Succeeded, jobs.Failed)
	if done.State != jobs.Succeeded || !strings.Contains(string(done.Result), "titled Home page") {
		t.Errorf("custom job: %s %q result %s summary %q", done.State, done.Error, done.Result, done.Summary)
	}
	if calls.Load() == 0 {
		t.Error("the model was never asked")
	}
	// The run's record and report are the job's, beside its other artifacts.
	reports, _ := filepath.Glob(filepath.Join(filepath.Dir(done.Artifacts.Trace), "*", "report.html"))
	if done.Artifacts.Trace == "" || len(reports) != 1 || !strings.Contains(done.Summary, reports[0]) {
		t.Errorf("the run's report %v is not in the job's folder (trace %s); summary %q", reports, done.Artifacts.Trace, done.Summary)
	}
}
