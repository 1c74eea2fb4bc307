package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// submitted maps each job id a test's submit got to the correlationId it
// was submitted with: jobState asks about a job under its own.
var submitted sync.Map

// jobCall calls a job tool and returns its structured answer.
func jobCall(t *testing.T, ctx context.Context, c *client.Client, tool string, args map[string]any) map[string]any {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s(%v): %s", tool, args, mcp.GetTextFromContent(res.Content[0]))
	}
	var out map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &out)
	if id, ok := out["jobId"].(string); ok && tool == "browser.job.submit" {
		submitted.Store(id, args["correlationId"])
	}
	return out
}

func jobState(t *testing.T, ctx context.Context, c *client.Client, id string) map[string]any {
	corr, ok := submitted.Load(id)
	if !ok {
		t.Fatalf("job %s was not submitted by this test binary", id)
	}
	return jobCall(t, ctx, c, "browser.job.status", map[string]any{"correlationId": corr, "jobId": id})
}

func waitJob(t *testing.T, ctx context.Context, c *client.Client, id string, states ...string) map[string]any {
	t.Helper()
	for {
		st := jobState(t, ctx, c, id)
		for _, s := range states {
			if st["status"] == s {
				return st
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("job %s is %v (%v), want %v", id, st["status"], st["summary"], states)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Kill the server with SIGKILL while jobs run and restart it on the same data
// dir: every job still answers, queued jobs run, the running navigate job runs
// again, the running message job ends FAILED "interrupted", the finished job
// does not run again, and the dead server's browser is gone (it exits when
// its server dies; were it left, the next start would end it). `cdpmcp jobs`
// lists the queue from a shell.
func TestJobsSurviveSIGKILL(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	ctx := testCtx(t, 3*time.Minute)
	s1 := startHTTP(t, "jobs-kill", "--data-dir", data, "--max-tabs", "2")
	c1 := httpClient(t, ctx, s1.url, "")
	n := 0
	submit := func(c *client.Client, url, typ string, prio int, extra map[string]any) string {
		task := map[string]any{"type": typ}
		for k, v := range extra {
			task[k] = v
		}
		n++ // a correlationId names one request
		a := jobCall(t, ctx, c, "browser.job.submit", map[string]any{"correlationId": fmt.Sprint("kill-", n), "url": url, "priority": prio, "task": task})
		return a["jobId"].(string)
	}
	done := submit(c1, site.URL("/jobs/article.html"), "navigate", 5, nil)
	waitJob(t, ctx, c1, done, "SUCCEEDED")
	nav := submit(c1, site.URL("/jobs/slowpage?ms=6000"), "navigate", 9, nil)
	msg := submit(c1, site.URL("/jobs/slowpage?ms=6001"), "message", 9, map[string]any{"selectors": []any{"#message", "#send"}, "text": "hi"})
	queued := []string{
		submit(c1, site.URL("/jobs/article.html?1"), "navigate", 1, nil),
		submit(c1, site.URL("/jobs/product.html"), "extract", 1, map[string]any{"selectors": []any{"h1"}}),
	}
	waitJob(t, ctx, c1, nav, "RUNNING")
	waitJob(t, ctx, c1, msg, "RUNNING")
	if st := jobState(t, ctx, c1, queued[0]); st["status"] != "QUEUED" {
		t.Fatalf("low-priority job is %v, want QUEUED", st["status"])
	}
	orphan := findBrowser(t, s1.marker)
	if err := s1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-s1.exited

	s2 := startHTTP(t, "jobs-kill-2", "--data-dir", data, "--max-tabs", "2")
	if testbound.Wait(ctx, func() error {
		if procgroup.Alive(orphan.PGID) {
			return errors.New("still running")
		}
		return nil
	}) != nil {
		t.Errorf("the dead server's browser %d still runs after the restart", orphan.PID)
		_ = syscall.Kill(-orphan.PGID, syscall.SIGKILL)
	}
	c2 := httpClient(t, ctx, s2.url, "")
	if st := jobState(t, ctx, c2, done); st["status"] != "SUCCEEDED" || st["attempt"] != 1.0 {
		t.Errorf("finished job after the restart: %v", st)
	}
	if st := waitJob(t, ctx, c2, nav, "SUCCEEDED", "FAILED"); st["status"] != "SUCCEEDED" || st["attempt"] != 2.0 {
		t.Errorf("running navigate job after the restart: %v", st)
	}
	if st := waitJob(t, ctx, c2, msg, "SUCCEEDED", "FAILED"); st["status"] != "FAILED" || !strings.HasPrefix(st["error"].(string), "interrupted") {
		t.Errorf("running message job after the restart: %v", st)
	}
	for _, id := range queued {
		if st := waitJob(t, ctx, c2, id, "SUCCEEDED", "FAILED"); st["status"] != "SUCCEEDED" {
			t.Errorf("queued job after the restart: %v", st)
		}
	}
	if !strings.Contains(s2.stderr.String(), "job="+nav) {
		t.Errorf("the log does not name job %s:\n%s", nav, s2.stderr.String())
	}

	out, err := exec.Command(binPath, "jobs", "--data-dir", data).CombinedOutput()
	if err != nil {
		t.Fatalf("cdpmcp jobs: %v\n%s", err, out)
	}
	for _, id := range append(queued, done, nav, msg) {
		if !strings.Contains(string(out), id) {
			t.Errorf("cdpmcp jobs does not list %s:\n%s", id, out)
		}
	}
	out, _ = exec.Command(binPath, "jobs", "--data-dir", data, "--json", "--state", "failed").CombinedOutput()
	if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != 1 || !strings.Contains(lines[0], msg) {
		t.Errorf("cdpmcp jobs --state failed --json:\n%s", out)
	}
	// --follow prints a change as it happens.
	follow := exec.Command(binPath, "jobs", "--data-dir", data, "--follow", "--limit", "1")
	buf := &syncBuffer{}
	follow.Stdout, follow.Stderr = buf, buf
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = follow.Process.Kill(); _ = follow.Wait() }()
	testbound.Until(t, "cdpmcp jobs --follow to list the last job", func() bool { return buf.String() != "" })
	late := submit(c2, site.URL("/jobs/article.html?late"), "navigate", 5, nil)
	waitJob(t, ctx, c2, late, "SUCCEEDED")
	testbound.Until(t, "cdpmcp jobs --follow to show "+late+" finishing", func() bool {
		return regexp.MustCompile(late + `\s+SUCCEEDED`).MatchString(buf.String())
	})

	s2.stop(t)
	if entries, _ := os.ReadDir(data + "/run"); len(entries) != 0 {
		t.Errorf("working profiles left in the data dir: %v", entries)
	}
	if _, ok := fixtures.FindBrowser(s2.marker); ok {
		t.Errorf("a job browser outlived the server")
	}
}

// cdpmcp tools lists the job tools with --caps jobs (or an explicit
// --data-dir), not by default; --tools picks among them too.
func TestToolsCommandListsJobTools(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	if r := runCLI(t, tmp, "tools"); strings.Contains(r.stdout, "browser.job.submit") {
		t.Errorf("the default catalogue lists the job tools")
	}
	r := runCLI(t, tmp, "tools", "--caps", "jobs")
	for _, name := range []string{"browser.job.submit", "browser.job.status", "browser.job.cancel", "browser.job.resume", "browser.snapshot.extract_structured"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` `).MatchString(r.stdout) {
			t.Errorf("tools does not list %s", name)
		}
	}
	r = runCLI(t, tmp, "tools", "--json", "--tools", "browser.job.status")
	if r.code != 0 || strings.Count(r.stdout, `"name"`) != 1 || !strings.Contains(r.stdout, "outputSchema") {
		t.Errorf("tools --tools browser.job.status: %d %s %s", r.code, r.stdout, r.stderr)
	}
}
