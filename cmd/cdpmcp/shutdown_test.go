package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// callMaybe calls a tool; a protocol error is returned, not fatal.
func callMaybe(ctx context.Context, c *client.Client, name string, args map[string]any) (string, bool, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return "", false, err
	}
	var text string
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return text, res.IsError, nil
}

type answer struct {
	text  string
	isErr bool
	err   error
}

// SIGTERM with calls in flight: a call that ends within the grace period
// answers as usual, one that does not is stopped and says the server is
// shutting down, a call that arrives meanwhile is refused saying so; the
// server exits within 10 s, with status 0, leaving no process of its own; the
// job it was running finishes first, in its --job-grace (the job store is
// SQLite: nothing else would run it until the next start).
func TestSIGTERMFinishesOrStopsCalls(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	ctx := testbound.Context(t)
	s := startHTTP(t, "sigterm", "--data-dir", data, "--caps", "jobs")
	a, b := httpClient(t, ctx, s.url, ""), httpClient(t, ctx, s.url, "")
	mustCall(t, ctx, a, "navigate", map[string]any{"url": site.URL("/home.html")})
	mustCall(t, ctx, b, "navigate", map[string]any{"url": site.URL("/home.html")})
	job := jobCall(t, ctx, a, "browser.job.submit", map[string]any{"correlationId": "kill", "url": site.URL("/jobs/slowpage?ms=6000"), "task": map[string]any{"type": "navigate"}})["jobId"].(string)
	waitJob(t, ctx, a, job, "RUNNING")

	// Each call, once its page runs it (so the server holds it in flight),
	// asks the fixtures for a path of its own: the signal goes after both
	// have, whatever the machine's load.
	short, long := make(chan answer, 1), make(chan answer, 1)
	n := markers.Add(1)
	shortPath, longPath := fmt.Sprintf("/sigterm/short-%d", n), fmt.Sprintf("/sigterm/long-%d", n)
	go func() {
		text, isErr, err := callMaybe(ctx, a, "evaluate", map[string]any{"expression": fmt.Sprintf(
			"new Promise(r => { fetch(%q).catch(() => {}); setTimeout(() => r('finished after 1500 ms'), 1500) })", shortPath)})
		short <- answer{text, isErr, err}
	}()
	go func() {
		text, isErr, err := callMaybe(ctx, b, "evaluate", map[string]any{"expression": fmt.Sprintf("new Promise(() => { fetch(%q).catch(() => {}) })", longPath)})
		long <- answer{text, isErr, err}
	}()
	testbound.Until(t, "both calls in flight (their pages asked for "+shortPath+" and "+longPath+")", func() bool {
		return site.Hits(shortPath) > 0 && site.Hits(longPath) > 0
	})
	pid := s.cmd.Process.Pid
	start := time.Now()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The server has taken the signal once it says it waits for the calls.
	testbound.Until(t, "the server to take the signal", func() bool {
		return strings.Contains(s.stderr.String(), `msg="shutting down: waiting for calls in flight"`)
	})
	if text, isErr, err := callMaybe(ctx, a, "getUrl", nil); err != nil || !isErr || !strings.Contains(text, "shutting down") || !strings.Contains(text, "not run") {
		t.Errorf("a call after SIGTERM: %q %v %v", text, isErr, err)
	}
	// The bound is 10 s, scaled for a machine that runs slow.
	select {
	case <-s.exited:
	case <-time.After(testbound.Scale(10 * time.Second)):
		t.Fatalf("still running %v after SIGTERM", testbound.Scale(10*time.Second))
	}
	t.Logf("exited %v after SIGTERM", time.Since(start))
	if s.waitErr != nil {
		t.Errorf("exit after SIGTERM: %v (want status 0)", s.waitErr)
	}
	if r := <-short; r.err != nil || r.isErr || !strings.Contains(r.text, "finished after 1500 ms") {
		t.Errorf("a call that ends within the grace period: %+v", r)
	}
	if r := <-long; r.err != nil || !r.isErr || !strings.Contains(r.text, "shutting down") || !strings.Contains(r.text, "stopped before it finished") {
		t.Errorf("a call that does not end in time: %+v", r)
	}
	waitNoneOwnedBy(t, pid)

	s2 := startHTTP(t, "sigterm-2", "--data-dir", data, "--caps", "jobs")
	c := httpClient(t, ctx, s2.url, "")
	if st := jobState(t, ctx, c, job); st["status"] != "SUCCEEDED" || st["attempt"] != 1.0 {
		t.Errorf("the job running at SIGTERM, after the restart: %v; want SUCCEEDED in its first run, before the server exited", st)
	}
}

// stdin closing with a call in flight: the call's answer is written, then the
// server exits with status 0, leaving no process of its own.
func TestStdinClosedAnswersCallsInFlight(t *testing.T) {
	t.Parallel()
	cmd, stdin, stdout := startPiped(t, "--headless", "--log-level=debug", "--browser-arg="+newMarker("stdin-eof"))
	lines := bufio.NewReader(stdout)
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	readID := func(id int) string {
		t.Helper()
		for {
			line, err := lines.ReadString('\n')
			if strings.Contains(line, fmt.Sprintf(`"id":%d,`, id)) {
				return line
			}
			if err != nil {
				t.Fatalf("no answer to request %d before stdout ended: %v", id, err)
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"eof","version":"1"}}}`)
	readID(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"navigate","arguments":{"url":%q}}}`, site.URL("/home.html")))
	readID(2)
	// The call's page asks the fixtures for a path of its own once it runs:
	// stdin closes while the server holds it, whatever the machine's load.
	inFlight := fmt.Sprintf("/stdin-eof/in-flight-%d", markers.Add(1))
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"evaluate","arguments":{"expression":%q}}}`,
		fmt.Sprintf("new Promise(r => { fetch(%q).catch(() => {}); setTimeout(() => r('finished after 1500 ms'), 1500) })", inFlight)))
	testbound.Until(t, "the call in flight (its page asked for "+inFlight+")", func() bool { return site.Hits(inFlight) > 0 })
	start := time.Now()
	stdin.Close()
	if got := readID(3); !strings.Contains(got, "finished after 1500 ms") || strings.Contains(got, `"isError":true`) {
		t.Errorf("the call in flight when stdin closed: %s", got)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after stdin closed: %v", err)
		}
	case <-time.After(testbound.Scale(10 * time.Second)):
		t.Fatalf("still running %v after stdin closed", testbound.Scale(10*time.Second))
	}
	t.Logf("exited %v after stdin closed", time.Since(start))
	waitNoneOwnedBy(t, cmd.Process.Pid)
}
