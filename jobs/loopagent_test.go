package jobs_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
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
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct {
				Content any `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(body, &req)
		prompt, _ := json.Marshal(req.Messages)
		answer := `{"current_state":{"prev_action_evaluation":"Unknown","important_contents":"","task_progress":"","future_plans":"","thought":"","summary":""},` +
			`"action":[{"done":{"text":"the page is titled Home page"}}]}`
		if calls.Add(1) == 1 && !strings.Contains(string(prompt), "Report the page") {
			answer = `{"current_state":{},"action":[{"done":{"text":"the task never reached me","success":false}}]}`
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": answer}}}})
	}))
	defer model.Close()
	agent := &jobs.LoopAgent{Model: &agentloop.OpenAI{BaseURL: model.URL, Retries: -1}, Loop: agentloop.Config{MaxSteps: 3, RunDir: t.TempDir()}}
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
}
