// Built without the race detector only: the test opens a job store on SQLite,
// whose race build is 48 CPU-seconds of make test (RACE_PLAIN in the Makefile).

//go:build !race

package tools

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// browser.job.wait: a plain client long-polls (answered at the job's end, or
// as the job is when its timeoutMs runs out); the answer links the job's
// artifacts, which its tenant reads through resources/read and another
// tenant does not find. As a task, the wait is one wait on the job: its
// first answer says which jobId to wait on again; a client that lost the
// task (a new session) waits again with the jobId, and both waits end with
// the job.
func TestJobWaitAsATask(t *testing.T) {
	t.Parallel()
	s, _ := newJobServer(t)
	url := serveHTTP(t, s)
	alice, bob := taskClient(t, url, asTenant("alice")), taskClient(t, url, asTenant("bob"))
	call := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tool, args
		res, err := alice.CallTool(testCtx(t), req)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tool, err, res)
		}
		var out map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &out)
		out["_links"] = res.Content
		return out
	}
	done := call("browser.job.submit", map[string]any{"correlationId": "w-1", "url": site.URL("/jobs/article.html"), "task": map[string]any{"type": "navigate"}})
	id := done["jobId"].(string)
	st := call(jobWaitName, map[string]any{"correlationId": "w-1", "jobId": id, "timeoutMs": min(testbound.Bound(), maxJobWait).Milliseconds()})
	if st["status"] != "SUCCEEDED" {
		t.Fatalf("the wait answered %v", st)
	}
	shot := resourceLink(t, st["_links"].([]mcp.Content), " screenshot")
	res, err := alice.ReadResource(testCtx(t), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: shot.URI}})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("resources/read %s: %v", shot.URI, err)
	}
	if blob, ok := res.Contents[0].(mcp.BlobResourceContents); !ok || blob.MIMEType != "image/png" || !pngData(blob.Blob) {
		t.Errorf("the screenshot read through resources/read: %T", res.Contents[0])
	}
	if _, err := bob.ReadResource(testCtx(t), mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: shot.URI}}); err == nil || !strings.Contains(err.Error(), "resource not found") {
		t.Errorf("another tenant reads alice's job's screenshot: %v", err)
	}

	// A job that never ends on its own: a short long-poll answers it as it is.
	hang := call("browser.job.submit", map[string]any{"correlationId": "w-2", "url": site.URL("/jobs/neverload"),
		"task": map[string]any{"type": "navigate", "timeoutMs": 3600000}})["jobId"].(string)
	testbound.Until(t, "the job to run", func() bool {
		return call("browser.job.status", map[string]any{"correlationId": "w-2", "jobId": hang})["status"] == "RUNNING"
	})
	if st := call(jobWaitName, map[string]any{"correlationId": "w-2", "jobId": hang, "timeoutMs": 300}); st["status"] != "RUNNING" {
		t.Errorf("a wait that ran out answered %v", st)
	}
	wait := map[string]any{"correlationId": "w-2", "jobId": hang, "timeoutMs": 600000}
	first := createTask(t, testCtx(t), alice, jobWaitName, wait)
	if said, _ := first.Meta.AdditionalFields[mcp.ModelImmediateResponseMetaKey].(string); !strings.Contains(said, hang) || !strings.Contains(said, "call "+jobWaitName+" again") {
		t.Errorf("the task's first answer does not say how to wait again: %q", said)
	}
	// The client comes back in a new session: the task is not there, the job is.
	again := taskClient(t, url, asTenant("alice"))
	if _, err := again.GetTask(testCtx(t), mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: first.Task.TaskId}}); err == nil {
		t.Error("a new session reads the task of another")
	}
	second := callAsTask(t, testCtx(t), again, jobWaitName, wait)
	for _, c := range []*taskPoll{{alice, first.Task.TaskId}, {again, second.TaskId}} {
		if got, _ := c.c.GetTask(testCtx(t), mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: c.id}}); got == nil || got.Status != mcp.TaskStatusWorking {
			t.Errorf("task %s before the job ends: %+v", c.id, got)
		}
	}
	call("browser.job.cancel", map[string]any{"correlationId": "w-2", "jobId": hang})
	for _, c := range []*taskPoll{{alice, first.Task.TaskId}, {again, second.TaskId}} {
		if got := pollTask(t, c.c, c.id, testbound.Scale(5*time.Second)); got.Status != mcp.TaskStatusCompleted {
			t.Fatalf("task %s: %s %s", c.id, got.Status, got.StatusMessage)
		}
		res, err := c.c.TaskResult(testCtx(t), mcp.TaskResultRequest{Params: mcp.TaskResultParams{TaskId: c.id}})
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(b), `"status":"CANCELLED"`) {
			t.Errorf("task %s answered %s", c.id, b)
		}
	}
}

// taskPoll is a task and the client that made it.
type taskPoll struct {
	c  *client.Client
	id string
}

// pngData reports whether b64 decodes to a PNG.
func pngData(b64 string) bool {
	b, err := base64.StdEncoding.DecodeString(b64)
	return err == nil && strings.HasPrefix(string(b), "\x89PNG")
}
