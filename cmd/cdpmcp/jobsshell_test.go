package main

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// From a shell, `cdpmcp jobs` shows what a person acts on: the live view's
// link of a job waiting for them and an extract job's result, in the table
// and with --json. A second server on the same data dir says in one line that
// its job tools are off, and lists none.
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

	// A second server on the same data dir.
	s2 := startHTTP(t, "jobs-shell-2", "--data-dir", data)
	defer s2.stop(t)
	c2 := httpClient(t, ctx, s2.url, "")
	list, err := c2.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if strings.HasPrefix(tool.Name, "browser.job.") || strings.HasPrefix(tool.Name, "browser.snapshot.") {
			t.Errorf("the second server lists %s, which cannot work there", tool.Name)
		}
	}
	if !slices.ContainsFunc(list.Tools, func(t mcp.Tool) bool { return t.Name == "navigate" }) {
		t.Errorf("the second server lists no browser tools either")
	}
	logs := s2.stderr.String()
	want := "the job tools are off: the data directory is in use by another cdpmcp (" + data + ", pid "
	if strings.Count(logs, want) != 1 || !strings.Contains(logs, "give this server its own --data-dir") || strings.Contains(logs, "not taken up") {
		t.Errorf("the second server's log should say once that its job tools are off, and why:\n%s", logs)
	}
}
