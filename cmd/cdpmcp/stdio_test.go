package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/cdpclient/procgroup"
	"github.com/cdpmcp/cdpmcp/fixtures"
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
// and extra arguments. The client is closed (and the process reaped) at cleanup.
func startStdio(t testing.TB, name string, extra ...string) *stdioServer {
	t.Helper()
	s := &stdioServer{stderr: &syncBuffer{}, marker: newMarker(name), tmp: t.TempDir()}
	args := append([]string{"serve", "--headless", "--browser-arg=" + s.marker}, extra...)
	newCmd := func(_ context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
		cmd := exec.Command(command, args...)
		cmd.Env = procEnv(s.tmp)
		cmd.Stderr = s.stderr
		s.cmd = cmd
		return cmd, nil
	}
	c, err := client.NewStdioMCPClientWithOptions(binPath, nil, args, transport.WithCommandFunc(newCmd))
	if err != nil {
		t.Fatal(err)
	}
	s.c = c
	t.Cleanup(func() {
		_ = c.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
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
	// The transport sends SIGTERM after 2 s. The exit usually takes 0.1-0.4 s,
	// but tearing Chromium down can take over 2 s on two busy cores, so the log
	// says what started the shutdown and the bound only catches a hang.
	if !strings.Contains(s.stderr.String(), `msg="shutting down" reason="stdin closed"`) {
		t.Errorf("closing stdin did not start the shutdown")
	}
	if took > 5*time.Second {
		t.Errorf("server took %v to exit after stdin closed", took)
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
	if !waitExit(s.cmd.Process.Pid, 5*time.Second) {
		t.Fatal("server still running 5 s after SIGINT")
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
	if !waitExit(s.cmd.Process.Pid, 10*time.Second) {
		t.Fatal("server still running 10 s after SIGINT and SIGTERM")
	}
	if err := s.c.Close(); err != nil {
		t.Errorf("server exit after two signals: %v (want status 0)", err)
	}
	assertNoLeak(t, bp, s.tmp)
}
