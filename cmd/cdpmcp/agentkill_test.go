package main

import (
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/mcp"
)

// stallingModel answers each task's first step with a go_to_url and then
// never answers again: a run it serves is always in its second step.
type stallingModel struct {
	*httptest.Server
	mu      sync.Mutex
	stalled map[string]bool // tasks whose second request came
}

func newStallingModel(t *testing.T, page string, tasks ...string) *stallingModel {
	m := &stallingModel{stalled: map[string]bool{}}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		task := ""
		for _, k := range tasks {
			if strings.Contains(string(body), k) {
				task = k
			}
		}
		if !strings.Contains(string(body), `Current step: 1/`) {
			m.mu.Lock()
			m.stalled[task] = true
			m.mu.Unlock()
			<-r.Context().Done()
			return
		}
		ans := `{"current_state":{"important_contents":"Found on ` + task + `","summary":"Open the page."},"action":[{"go_to_url":{"url":"` + page + `"}}]}`
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"model": "scripted",
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": ans}}}})
	}))
	t.Cleanup(m.Close)
	return m
}

func (m *stallingModel) isStalled(task string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stalled[task]
}

// records returns the agent records under dir, by path.
func records(dir string) map[string]string {
	out := map[string]string{}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "record.jsonl" {
			b, _ := os.ReadFile(path)
			out[path] = string(b)
		}
		return nil
	})
	return out
}

// A server killed with -9 in the middle of agent runs (a run_browser_agent
// call and a custom job, each in its second step) leaves their records and
// no report. When it starts again, each run gets its report, made from its
// record and marked interrupted during step 2; the custom job ends FAILED
// "interrupted" and names that report.
func TestKilledAgentRunsGetReports(t *testing.T) {
	t.Parallel()
	data, runs := t.TempDir(), t.TempDir()
	ctx := testCtx(t, 3*time.Minute)
	page := site.URL("/home.html")
	const toolTask, jobTask = "Read the heading for the tool", "Read the heading for the job"
	model := newStallingModel(t, page, toolTask, jobTask)
	flags := []string{"--data-dir", data, "--agent-run-dir", runs, "--llm-base-url", model.URL + "/v1", "--agent-vision=false"}
	s1 := startHTTP(t, "agentkill", flags...)
	c1 := httpClient(t, ctx, s1.url, "")
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "run_browser_agent", map[string]any{"task": toolTask}
		_, _ = c1.CallTool(ctx, req) // it never answers: the server dies
	}()
	job := jobCall(t, ctx, c1, "browser.job.submit", map[string]any{"correlationId": "agentkill-1", "url": page,
		"task": map[string]any{"type": "custom", "instructions": jobTask}})["jobId"].(string)
	testbound.Until(t, "both runs to be in step 2 with step 1 recorded", func() bool {
		n := 0
		for _, dir := range []string{runs, data} {
			for _, r := range records(dir) {
				if strings.Count(r, `{"type":"step"`) == 1 {
					n++
				}
			}
		}
		return model.isStalled(toolTask) && model.isStalled(jobTask) && n == 2
	})
	if err := s1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-s1.exited
	if r, _ := filepath.Glob(filepath.Join(runs, "*", "report.html")); len(r) != 0 {
		t.Fatalf("the killed server wrote %v", r)
	}

	s2 := startHTTP(t, "agentkill-2", flags...)
	c2 := httpClient(t, ctx, s2.url, "")
	const want = "the server stopped during step 2 of 30 (the record ends after step 1); no final answer"
	st := waitJob(t, ctx, c2, job, "FAILED", "SUCCEEDED")
	msg, _ := st["error"].(string)
	_, report, found := strings.Cut(msg, "the agent's report of what it did until then: ")
	if st["status"] != "FAILED" || !strings.HasPrefix(msg, "interrupted") || !found {
		t.Fatalf("the custom job after the restart: %v", st)
	}
	if b, err := os.ReadFile(report); err != nil || !strings.Contains(string(b), want) || !strings.Contains(string(b), "Found on "+jobTask) {
		t.Errorf("the job's report %s (%v) does not say %q", report, err, want)
	}
	var reports []string
	testbound.Until(t, "the run_browser_agent run's report", func() bool {
		reports, _ = filepath.Glob(filepath.Join(runs, "*", "report.html"))
		return len(reports) == 1
	})
	if b, err := os.ReadFile(reports[0]); err != nil || !strings.Contains(string(b), want) || !strings.Contains(string(b), "Found on "+toolTask) {
		t.Errorf("the run's report %s (%v) does not say %q", reports[0], err, want)
	}
}
