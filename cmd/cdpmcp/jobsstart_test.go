package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A server that was not asked for the job tools (no --caps jobs, no
// --data-dir) but finds jobs in its default data dir, which another server
// holds, runs without them and says so where a client on stdio sees it: in
// the MCP instructions, and in the answer of a call to a job tool.
func TestJobToolsOffAreSaidToTheClient(t *testing.T) {
	t.Parallel()
	tmp := shortTemp(t)
	data := filepath.Join(tmp, "cdpmcp") // the stdio server's default data dir
	holder := startHTTP(t, "jobs-holder", "--data-dir", data)
	defer holder.stop(t)
	s := startStdioIn(t, "jobs-off", tmp)
	ctx := testCtx(t, time.Minute)
	res, err := initialize(ctx, s.c, "")
	if err != nil {
		t.Fatal(err)
	}
	want := "the job tools are off on this server: the data directory is in use by another cdpmcp (" + data + ", pid "
	if !strings.Contains(res.Instructions, want) || !strings.Contains(res.Instructions, "give this server its own --data-dir") {
		t.Errorf("the instructions do not say the job tools are off and why:\n%s", res.Instructions)
	}
	text, isErr := callTool(t, ctx, s.c, "browser.job.status", map[string]any{"correlationId": "c", "jobId": "job-x"})
	if !isErr || !strings.Contains(text, "browser.job.status is not available: "+want) {
		t.Errorf("a job tool call on the server without them: %v %q", isErr, text)
	}
	if !strings.Contains(s.stderr.String(), "the job tools are off") {
		t.Errorf("the log does not say it either:\n%s", s.stderr.String())
	}
}
