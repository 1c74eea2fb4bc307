package main

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// From a shell, `cdpmcp jobs` shows what a person acts on: the live view's
// link of a job waiting for them and an extract job's result, in the table
// and with --json. A second server asking for the job tools on the same
// data dir stops at start, saying why and what to do.
func TestJobsFromAShell(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	ctx := testCtx(t, 2*time.Minute)
	s1 := startHTTP(t, "jobs-shell", "--data-dir", data)
	defer s1.stop(t)
	c := httpClient(t, ctx, s1.url, "")
	waiting := jobCall(t, ctx, c, "browser.job.submit", map[string]any{"correlationId": "shell-1", "url": site.URL("/jobs/captcha.html"),
		"handoffAllowed": true, "task": map[string]any{"type": "login"}})["jobId"].(string)
	extract := jobCall(t, ctx, c, "browser.job.submit", map[string]any{"correlationId": "shell-2", "url": site.URL("/jobs/product.html"),
		"task": map[string]any{"type": "extract", "selectors": []any{"h1"}}})["jobId"].(string)
	link, _ := waitJob(t, ctx, c, waiting, "WAITING_FOR_HUMAN")["handoffUrl"].(string)
	if !strings.Contains(link, "/live/") {
		t.Fatalf("the waiting job has no live view link: %q", link)
	}
	waitJob(t, ctx, c, extract, "SUCCEEDED")

	out, err := exec.Command(binPath, "jobs", "--data-dir", data).CombinedOutput()
	if err != nil {
		t.Fatalf("cdpmcp jobs: %v\n%s", err, out)
	}
	table := string(out)
	t.Logf("cdpmcp jobs:\n%s", table)
	if !regexp.MustCompile(regexp.QuoteMeta(waiting) + `\s+WAITING_FOR_HUMAN[^\n]*\n    live view: ` + regexp.QuoteMeta(link) + " ").MatchString(table) {
		t.Errorf("cdpmcp jobs does not show the waiting job's live view link under its row:\n%s", table)
	}
	if !regexp.MustCompile(regexp.QuoteMeta(extract) + `\s+SUCCEEDED[^\n]*\n    result: \{[^\n]*Trail Kettle 2`).MatchString(table) {
		t.Errorf("cdpmcp jobs does not show the extract job's result under its row:\n%s", table)
	}

	out, err = exec.Command(binPath, "jobs", "--data-dir", data, "--json").Output()
	if err != nil {
		t.Fatalf("cdpmcp jobs --json: %v", err)
	}
	byID := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var j map[string]any
		if err := json.Unmarshal([]byte(line), &j); err != nil {
			t.Fatalf("cdpmcp jobs --json line %q: %v", line, err)
		}
		byID[j["jobId"].(string)] = j
	}
	if got := byID[waiting]["handoffUrl"]; got != link {
		t.Errorf("--json handoffUrl of the waiting job = %v, want %s", got, link)
	}
	if res, _ := json.Marshal(byID[extract]["result"]); !strings.Contains(string(res), "Trail Kettle 2") {
		t.Errorf("--json result of the extract job = %s", res)
	}

	// A second server asking for the job tools on the same data dir does not
	// start: it says why and what to do.
	second := exec.Command(binPath, "serve", "--http", "127.0.0.1:0", "--headless", "--data-dir", data)
	second.Env = procEnv(shortTemp(t))
	out, err = second.CombinedOutput()
	msg := string(out)
	if err == nil || strings.Contains(msg, "serving MCP") || !strings.Contains(msg, "the job tools were asked for") ||
		!strings.Contains(msg, "the data directory is in use by another cdpmcp ("+data+", pid ") || !strings.Contains(msg, "give this server its own --data-dir") ||
		!strings.Contains(msg, "--no-jobs") {
		t.Errorf("a second server asking for the job tools on a data dir in use: %v\n%s", err, msg)
	}
}
