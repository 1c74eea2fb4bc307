// Built without the race detector only: the test opens a job store on SQLite,
// whose race build is 48 CPU-seconds of make test (RACE_PLAIN in the Makefile).

//go:build !race

package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/cdpmcp/cdpmcp/jobs"
	"github.com/cdpmcp/cdpmcp/jobs/sqlite"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// jobServer is an MCP server with a job queue on its own data dir.
func jobServer(t testing.TB) (*client.Client, *jobs.DataDir) {
	t.Helper()
	s, dir := newJobServer(t)
	c, err := client.NewInProcessClient(s.MCP())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "jobs-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c, dir
}

// newJobServer is a server with the job tools on a queue of its own.
func newJobServer(t testing.TB) (*Server, *jobs.DataDir) {
	t.Helper()
	dir, err := jobs.OpenDataDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store, err := sqlite.Open(context.Background(), dir.DBPath(), false)
	if err != nil {
		t.Fatal(err)
	}
	q, err := jobs.Open(context.Background(), jobs.Config{Dir: dir, Store: store, MaxTabs: 2,
		Browser: cdpclient.Options{}})
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Timeout: callTimeout, Jobs: func(context.Context) (*jobs.Queue, error) { return q, nil }}, mgr)
	t.Cleanup(func() {
		s.Close()
		_ = q.Close()
		_ = store.Close()
		_ = dir.Close()
	})
	return s, dir
}

// callJob calls a job tool; for a result that is not an error it checks the
// structured content against seed 002's output schema and that the text is
// the same JSON.
func callJob(t *testing.T, c *client.Client, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(testCtx(t), req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		return nil, res
	}
	text := mcp.GetTextFromContent(res.Content[0])
	var fromText, structured map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil {
		t.Fatalf("%s: text is not JSON: %s", tool, text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &structured)
	if !reflect.DeepEqual(fromText, structured) {
		t.Errorf("%s: text and structuredContent differ:\n%s\n%s", tool, text, b)
	}
	name := map[string]string{"browser.job.submit": "submit", "browser.job.status": "status", jobWaitName: "status", "browser.job.cancel": "cancel",
		"browser.job.resume": "resume", "browser.snapshot.extract_structured": "extract_structured"}[tool]
	if err := seedSchema(t, name+".out").Validate(structured); err != nil {
		t.Errorf("%s answer is not valid against seed 002: %v\n%s", tool, err, b)
	}
	if structured["correlationId"] != args["correlationId"] || (args["jobId"] != nil && structured["jobId"] != args["jobId"]) {
		t.Errorf("%s did not echo correlationId/jobId: %s", tool, b)
	}
	return structured, res
}

func errText(res *mcp.CallToolResult) string {
	if res == nil || !res.IsError {
		return ""
	}
	return mcp.GetTextFromContent(res.Content[0])
}

func TestJobToolsThroughMCP(t *testing.T) {
	t.Parallel()
	c, _ := jobServer(t)
	pollDone := func(id string) (st map[string]any) {
		testbound.Until(t, "job "+id+" to finish", func() bool {
			st, res := callJob(t, c, "browser.job.status", map[string]any{"correlationId": "c-1", "jobId": id})
			if st == nil {
				t.Fatalf("status: %s", errText(res))
			}
			return st["status"] == "SUCCEEDED" || st["status"] == "FAILED" || st["status"] == "CANCELLED"
		})
		st, _ = callJob(t, c, "browser.job.status", map[string]any{"correlationId": "c-1", "jobId": id})
		return st
	}
	sub := map[string]any{"correlationId": "c-1", "url": site.URL("/jobs/product.html"), "priority": 7,
		"task": map[string]any{"type": "extract", "selectors": []any{"h1"},
			"extract": map[string]any{"type": "object", "properties": map[string]any{"price": map[string]any{"type": "number"}, "gtin": map[string]any{"type": "string"}}}}}
	a, res := callJob(t, c, "browser.job.submit", sub)
	if a == nil || a["status"] != "QUEUED" || a["jobId"] == "" {
		t.Fatalf("submit: %v %s", a, errText(res))
	}
	id := a["jobId"].(string)
	st := pollDone(id)
	if st["status"] != "SUCCEEDED" || st["progress"] != 1.0 || st["finishedAt"] == nil || st["createdAt"] == nil {
		t.Errorf("status: %v", st)
	}
	result, _ := json.Marshal(st["result"])
	if !strings.Contains(string(result), `"price":34.9`) || !strings.Contains(string(result), `"missing":["gtin"]`) || !strings.Contains(string(result), `"h1":["Trail Kettle 2"]`) {
		t.Errorf("result: %s", result)
	}
	arts, _ := st["artifacts"].(map[string]any)
	for _, k := range []string{"screenshot", "trace", "networkLog"} {
		if p, _ := arts[k].(string); p == "" || !fileExists(p) {
			t.Errorf("artifact %s: %v", k, arts[k])
		}
	}
	// The same submission again: the same job, not a second run, answered
	// as the first time with its state now; other arguments under the same
	// correlationId are refused.
	if dup, res := callJob(t, c, "browser.job.submit", sub); dup == nil || dup["jobId"] != id || dup["status"] != "QUEUED" ||
		dup["duplicate"] != true || dup["currentStatus"] != "SUCCEEDED" || dup["createdAt"] != a["createdAt"] {
		t.Errorf("duplicate submit of a finished job: %v %q", dup, errText(res))
	}
	other := map[string]any{"correlationId": "c-1", "url": site.URL("/jobs/product.html"), "priority": 3, "task": sub["task"]}
	if dup, res := callJob(t, c, "browser.job.submit", other); dup != nil || !strings.Contains(errText(res), `correlationId "c-1" was already used for job `+id+` (SUCCEEDED now) with other arguments (priority differ)`) ||
		!strings.Contains(errText(res), "hint: a new job needs a new correlationId") {
		t.Errorf("the same correlationId with other arguments: %v %q", dup, errText(res))
	}
	for _, c2 := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"browser.job.cancel", map[string]any{"correlationId": "c-1", "jobId": id}, "already finished (SUCCEEDED)"},
		{"browser.job.resume", map[string]any{"correlationId": "c-1", "jobId": id}, "not WAITING_FOR_HUMAN"},
		{"browser.job.status", map[string]any{"correlationId": "c-1", "jobId": "job-nope"}, "no such job"},
		{"browser.job.status", map[string]any{"correlationId": "c-1"}, "jobId is missing"},
		{"browser.job.submit", map[string]any{"correlationId": "c-1", "url": site.URL("/"), "task": map[string]any{"type": "fly"}}, `"fly" is not a known task type`},
		{"browser.job.submit", map[string]any{"correlationId": "c-1", "url": site.URL("/"), "priority": "high", "task": map[string]any{"type": "navigate"}}, "priority must be a number"},
		{"browser.snapshot.extract_structured", map[string]any{"correlationId": "c-1", "url": site.URL("/"), "schema": map[string]any{"type": "object"}}, "names no properties"},
		{"browser.job.submit", map[string]any{"correlationId": "c-9", "url": site.URL("/"), "task": map[string]any{"type": "extract", "selecters": []string{"h1"}}}, `takes no argument "selecters"`},
		{"browser.job.status", map[string]any{"correlationId": "c-1", "jobId": id, "wait": true}, `takes no argument "wait"`},
	} {
		if _, res := callJob(t, c, c2.tool, c2.args); !strings.Contains(errText(res), c2.want) || !strings.Contains(errText(res), "") {
			t.Errorf("%s %v: %q, want an error with %q", c2.tool, c2.args, errText(res), c2.want)
		}
	}

	// Cancel a running job on a page that never loads: answered at once (the
	// job's budget is an hour, so a cancel that waited for it would outlast
	// the test bound).
	slow, _ := callJob(t, c, "browser.job.submit", map[string]any{"correlationId": "c-2", "url": site.URL("/jobs/neverload"), "task": map[string]any{"type": "navigate", "timeoutMs": 3600000}})
	sid := slow["jobId"].(string)
	testbound.Until(t, "the slow job to run", func() bool {
		st, _ := callJob(t, c, "browser.job.status", map[string]any{"correlationId": "c-2", "jobId": sid})
		return st["status"] == "RUNNING"
	})
	cz, res := callJob(t, c, "browser.job.cancel", map[string]any{"correlationId": "c-2", "jobId": sid, "reason": "test"})
	if cz == nil || cz["status"] != "CANCELLED" {
		t.Errorf("cancel: %v %s", cz, errText(res))
	}
	// The cancel again, as a client does whose first answer was lost: the
	// same answer, no error.
	if again, res := callJob(t, c, "browser.job.cancel", map[string]any{"correlationId": "c-2", "jobId": sid, "reason": "test"}); again == nil ||
		again["status"] != "CANCELLED" || cz != nil && again["finishedAt"] != cz["finishedAt"] {
		t.Errorf("cancel again: %v %s, first %v", again, errText(res), cz)
	}

	// extract_structured answers at once, with sources and what is missing.
	x, res := callJob(t, c, "browser.snapshot.extract_structured", map[string]any{"correlationId": "c-1", "url": site.URL("/jobs/product.html"),
		"schema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}, "warranty": map[string]any{"type": "string"}, "isbn": map[string]any{"type": "string"}}}})
	if x == nil {
		t.Fatalf("extract_structured: %s", errText(res))
	}
	b, _ := json.Marshal(x)
	if !strings.Contains(string(b), `"data":{"name":"Trail Kettle 2","warranty":"2 years"}`) || !strings.Contains(string(b), `"missing":["isbn"]`) ||
		!strings.Contains(string(b), `"warranty":"text"`) || !strings.HasSuffix(x["finalUrl"].(string), "/jobs/product.html") {
		t.Errorf("extract_structured: %s", b)
	}
}

// No answer carries a login job's password.
func TestJobAnswersCarryNoSecret(t *testing.T) {
	t.Parallel()
	c, dir := jobServer(t)
	a, res := callJob(t, c, "browser.job.submit", map[string]any{"correlationId": "secret", "url": site.URL("/jobs/login"),
		"task": map[string]any{"type": "login", "username": "ada@example.com", "password": fixtures.LoginPassword}})
	if a == nil {
		t.Fatalf("submit: %s", errText(res))
	}
	var all []byte
	for deadline := time.Now().Add(testbound.Bound()); time.Now().Before(deadline); {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "browser.job.status", map[string]any{"correlationId": "secret", "jobId": a["jobId"]}
		res, err := c.CallTool(testCtx(t), req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		all = append(all, b...)
		if strings.Contains(string(b), `SUCCEEDED`) || strings.Contains(string(b), `FAILED`) {
			if !strings.Contains(string(b), "SUCCEEDED") {
				t.Errorf("login: %s", b)
			}
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if bytes.Contains(all, []byte(fixtures.LoginPassword)) {
		t.Errorf("an answer carries the password")
	}
	_ = filepath.Walk(dir.Path, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && !strings.Contains(path, string(filepath.Separator)+"profiles"+string(filepath.Separator)) {
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(fixtures.LoginPassword)) {
				t.Errorf("%s carries the password", path)
			}
		}
		return nil
	})
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// BenchmarkJobSubmit and BenchmarkJobStatus measure a browser.job.submit and a
// browser.job.status call through an MCP client (in process), with the queue
// running jobs meanwhile; the goal is a median of at most 5 ms.
func BenchmarkJobSubmit(b *testing.B) {
	c, _ := jobServer(b)
	var durs []time.Duration
	for i := 0; b.Loop(); i++ {
		req := mcp.CallToolRequest{}
		req.Params.Name = "browser.job.submit"
		req.Params.Arguments = map[string]any{"correlationId": "bench", "url": site.URL("/jobs/article.html?") + time.Now().String(), "priority": 0,
			"task": map[string]any{"type": "extract", "selectors": []any{"h1"}}}
		start := time.Now()
		res, err := c.CallTool(context.Background(), req)
		durs = append(durs, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("submit: %v %v", err, res)
		}
	}
	reportJobMedian(b, durs)
}

func BenchmarkJobStatus(b *testing.B) {
	c, _ := jobServer(b)
	req := mcp.CallToolRequest{}
	req.Params.Name = "browser.job.submit"
	req.Params.Arguments = map[string]any{"correlationId": "bench", "url": site.URL("/jobs/article.html"), "task": map[string]any{"type": "navigate"}}
	res, err := c.CallTool(context.Background(), req)
	if err != nil || res.IsError {
		b.Fatalf("submit: %v %v", err, res)
	}
	var a struct{ JobID string }
	_ = json.Unmarshal([]byte(mcp.GetTextFromContent(res.Content[0])), &a)
	var durs []time.Duration
	for b.Loop() {
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "browser.job.status", map[string]any{"correlationId": "bench", "jobId": a.JobID}
		start := time.Now()
		res, err := c.CallTool(context.Background(), req)
		durs = append(durs, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("status: %v %v", err, res)
		}
	}
	reportJobMedian(b, durs)
}

func reportJobMedian(b *testing.B, durs []time.Duration) {
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(durs[len(durs)*95/100].Microseconds())/1000, "p95-ms")
}
