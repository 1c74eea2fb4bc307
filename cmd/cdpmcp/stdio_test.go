package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// stdioServer is a `cdpmcp serve` process driven through mcp-go's stdio client.
type stdioServer struct {
	c      *client.Client
	cmd    *exec.Cmd
	stderr *syncBuffer
	marker string
	tmp    string // the process's TMPDIR
}

// startStdio starts `cdpmcp serve --headless` with a marker flag for its browser
// and extra arguments. Closing the client closes the server's stdin and waits
// for it to exit; it is closed (and the process reaped) at cleanup.
func startStdio(t testing.TB, name string, extra ...string) *stdioServer {
	t.Helper()
	return startStdioIn(t, name, shortTemp(t), extra...)
}

// startStdioIn is startStdio with tmp as the process's TMPDIR and
// XDG_STATE_HOME (its default data dir is tmp/cdpmcp).
func startStdioIn(t testing.TB, name, tmp string, extra ...string) *stdioServer {
	t.Helper()
	s := &stdioServer{stderr: &syncBuffer{}, marker: newMarker(name), tmp: tmp}
	args := append([]string{"serve", "--headless", "--browser-arg=" + s.marker}, extra...)
	s.cmd = exec.Command(binPath, args...)
	s.cmd.Env = procEnv(s.tmp)
	s.cmd.Stderr = s.stderr
	stdin, err := s.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tr := &stdioProcess{Stdio: transport.NewIO(stdout, stdin, nil), cmd: s.cmd, exited: make(chan struct{})}
	go func() { tr.waitErr = s.cmd.Wait(); close(tr.exited) }()
	if err := tr.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.c = client.NewClient(tr)
	t.Cleanup(func() {
		_ = s.c.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

// stdioProcess is the stdio transport to a server process the test started.
// Close closes the server's stdin and waits for it to exit for as long as the
// test bound allows (mcp-go's own transport kills it after 5 s, which a busy
// machine's browser shutdown can take), then kills it.
type stdioProcess struct {
	*transport.Stdio
	cmd     *exec.Cmd
	exited  chan struct{}
	waitErr error
}

func (p *stdioProcess) Close() error {
	_ = p.Stdio.Close()
	select {
	case <-p.exited:
		return p.waitErr
	case <-time.After(testbound.Bound()):
		_ = p.cmd.Process.Kill()
		<-p.exited
		return fmt.Errorf("server still running %s after its stdin closed; killed", testbound.Bound())
	}
}

// feedback decodes an action's feedback JSON.
func feedback(t testing.TB, text string) map[string]any {
	t.Helper()
	var fb map[string]any
	if err := json.Unmarshal([]byte(text), &fb); err != nil {
		t.Fatalf("not feedback JSON: %q", text)
	}
	return fb
}

func TestStdioSession(t *testing.T) {
	t.Parallel()
	s := startStdio(t, "stdio", "--log-level=debug")
	ctx := testCtx(t, 60*time.Second)

	res, err := initialize(ctx, s.c, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != "cdpmcp" || res.ServerInfo.Version != "e2e-test" {
		t.Errorf("serverInfo = %+v, want cdpmcp e2e-test (set with -ldflags)", res.ServerInfo)
	}
	list, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, tool := range list.Tools {
		got[tool.Name] = true
	}
	for _, name := range wantTools {
		if !got[name] {
			t.Errorf("tools/list lacks %s", name)
		}
	}
	if _, ok := fixtures.FindBrowser(s.marker); ok {
		t.Fatal("a browser was launched before the first tool call")
	}

	fb := feedback(t, mustCall(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/actions.html")}))
	if d, _ := fb["delta"].(map[string]any); fb["ok"] != true || d["title"] != "Actions" {
		t.Errorf("navigate feedback = %v", fb)
	}
	fb = feedback(t, mustCall(t, ctx, s.c, "click", map[string]any{"selector": "#inc"}))
	if fb["act"] != "click" || fb["ok"] != true || fb["code"] != 0.0 {
		t.Errorf("click feedback = %v", fb)
	}
	if got := mustCall(t, ctx, s.c, "evaluate", map[string]any{"expression": "count.textContent"}); got != `"1"` {
		t.Errorf("evaluate after one click = %s, want \"1\"", got)
	}

	bp := findBrowser(t, s.marker)
	if bp.PGID == syscall.Getpgrp() || bp.PGID == s.cmd.Process.Pid {
		t.Errorf("browser runs in the group of its parent (%d), not its own", bp.PGID)
	}
	start := time.Now()
	err = s.c.Close() // closes stdin and waits for the process
	took := time.Since(start)
	if err != nil {
		t.Errorf("server exit after stdin closed: %v", err)
	}
	// The exit usually takes 0.1-0.4 s, but tearing Chromium down can take
	// seconds on busy cores: the log says what started the shutdown, and the
	// close waits for the exit within the test bound.
	if !strings.Contains(s.stderr.String(), `msg="shutting down" reason="stdin closed"`) {
		t.Errorf("closing stdin did not start the shutdown")
	}
	t.Logf("exit after stdin closed took %v", took)
	assertNoLeak(t, bp, s.tmp)
}

func TestStdioSIGINT(t *testing.T) {
	t.Parallel()
	s := startStdio(t, "sigint", "--log-level=debug")
	ctx := testCtx(t, 60*time.Second)
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	mustCall(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/home.html")})
	bp := findBrowser(t, s.marker)
	if !procgroup.Alive(bp.PGID) {
		t.Fatal("browser group not running before SIGINT")
	}
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if !waitExit(s.cmd.Process.Pid, testbound.Bound()) {
		t.Fatalf("server still running %s after SIGINT", testbound.Bound())
	}
	if err := s.c.Close(); err != nil {
		t.Errorf("server exit after SIGINT: %v (want status 0)", err)
	}
	if !strings.Contains(s.stderr.String(), `msg="shutting down" reason=signal`) {
		t.Errorf("SIGINT did not start the shutdown")
	}
	assertNoLeak(t, bp, s.tmp)
}

// A second signal while the server shuts its browser down must not cut the
// shutdown short (that left the browser's profile behind).
func TestSecondSignalDuringShutdown(t *testing.T) {
	t.Parallel()
	s := startStdio(t, "twosignals")
	ctx := testCtx(t, 60*time.Second)
	if _, err := initialize(ctx, s.c, ""); err != nil {
		t.Fatal(err)
	}
	mustCall(t, ctx, s.c, "navigate", map[string]any{"url": site.URL("/home.html")})
	bp := findBrowser(t, s.marker)
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // into the browser's shutdown
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	if !waitExit(s.cmd.Process.Pid, testbound.Bound()) {
		t.Fatalf("server still running %s after SIGINT and SIGTERM", testbound.Bound())
	}
	if err := s.c.Close(); err != nil {
		t.Errorf("server exit after two signals: %v (want status 0)", err)
	}
	assertNoLeak(t, bp, s.tmp)
}
