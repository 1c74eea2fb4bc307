package main

import (
	"bufio"
	"context"
	"log/slog"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpmcp/cdpmcp/fixtures"
	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// httpServer is a `cdpmcp serve --http` process.
type httpServer struct {
	cmd     *exec.Cmd
	url     string
	stderr  *syncBuffer
	marker  string
	tmp     string
	exited  chan struct{}
	waitErr error // set before exited is closed
}

var urlLine = regexp.MustCompile(`msg="serving MCP over streamable HTTP".* url=(\S+)`)

// startHTTP starts `cdpmcp serve --http 127.0.0.1:0` and reads the address it
// chose from its log. The process is ended at cleanup if the test did not.
func startHTTP(t testing.TB, name string, extra ...string) *httpServer {
	t.Helper()
	s := &httpServer{stderr: &syncBuffer{}, marker: newMarker(name), tmp: t.TempDir(), exited: make(chan struct{})}
	args := append([]string{"serve", "--http", "127.0.0.1:0", "--headless", "--browser-arg=" + s.marker}, extra...)
	s.cmd = exec.Command(binPath, args...)
	s.cmd.Env = procEnv(s.tmp)
	pipe, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			s.stderr.Write([]byte(line + "\n"))
			if m := urlLine.FindStringSubmatch(line); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		s.stop(t)
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	select {
	case s.url = <-urls:
	case <-s.exited:
		t.Fatalf("server exited before serving: %v\n%s", s.waitErr, s.stderr.String())
	case <-time.After(testbound.Bound()):
		t.Fatalf("no %q log line within %s:\n%s", "serving MCP over streamable HTTP", testbound.Bound(), s.stderr.String())
	}
	return s
}

// stop ends a server a failed test left running, and its browser.
func (s *httpServer) stop(t testing.TB) {
	select {
	case <-s.exited:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(testbound.Bound()):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	if bp, ok := fixtures.FindBrowser(s.marker); ok {
		t.Errorf("browser %d outlived its server; ending its group", bp.PID)
		_ = syscall.Kill(-bp.PGID, syscall.SIGKILL)
	}
}

// httpClient connects and initializes a streamable-HTTP client; a non-empty
// version pins the protocol.
func httpClient(t testing.TB, ctx context.Context, url, version string) *client.Client {
	t.Helper()
	// The client logs a failed DELETE when the server is gone first; tests
	// stop servers under their clients on purpose.
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := initialize(ctx, c, version); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestHTTPSessionsIsolated(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, "http")
	if !strings.HasPrefix(s.url, "http://127.0.0.1:") || !strings.HasSuffix(s.url, "/mcp") {
		t.Fatalf("served at %q, want http://127.0.0.1:PORT/mcp", s.url)
	}
	ctx := testCtx(t, 60*time.Second)
	rejectsForeignHost(t, s.url)
	a := httpClient(t, ctx, s.url, "")
	b := httpClient(t, ctx, s.url, "")

	home := site.URL("/home.html")
	mustCall(t, ctx, a, "navigate", map[string]any{"url": home})
	mustCall(t, ctx, b, "navigate", map[string]any{"url": home})
	const set = "document.cookie = 'who=A'; localStorage.setItem('who', 'A'); document.cookie"
	if got := mustCall(t, ctx, a, "evaluate", map[string]any{"expression": set}); got != `"who=A"` {
		t.Fatalf("setting a cookie in A = %s", got)
	}
	const read = "document.cookie + '|' + localStorage.getItem('who')"
	if got := mustCall(t, ctx, a, "evaluate", map[string]any{"expression": read}); got != `"who=A|A"` {
		t.Errorf("A reads its own storage as %s, want \"who=A|A\"", got)
	}
	if got := mustCall(t, ctx, b, "evaluate", map[string]any{"expression": read}); got != `"|null"` {
		t.Errorf("B sees A's storage: %s, want \"|null\"", got)
	}

	mustCall(t, ctx, a, "newPage", map[string]any{"url": site.URL("/second.html")})
	pagesA := mustCall(t, ctx, a, "listPages", nil)
	pagesB := mustCall(t, ctx, b, "listPages", nil)
	if !strings.Contains(pagesA, "Second page") || strings.Count(pagesA, "\n") != 1 {
		t.Errorf("A's pages = %q, want two with Second page current", pagesA)
	}
	if strings.Contains(pagesB, "Second page") || strings.Count(pagesB, "\n") != 0 {
		t.Errorf("B's pages = %q, want only its own home page", pagesB)
	}

	// Ending a session disposes of its browser context.
	dt := dialDevTools(t, s.marker)
	if n := dt.contexts(); n != 2 {
		t.Errorf("%d browser contexts with two sessions, want 2", n)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	testbound.Until(t, "A's browser context to close after A closed its session", func() bool { return dt.contexts() == 1 })

	// SIGTERM with B still connected.
	bp := findBrowser(t, s.marker)
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.exited:
	case <-time.After(testbound.Bound()):
		t.Fatalf("server still running %s after SIGTERM", testbound.Bound())
	}
	if s.waitErr != nil {
		t.Errorf("server exit after SIGTERM: %v (want status 0)", s.waitErr)
	}
	assertNoLeak(t, bp, s.tmp)
}

// rejectsForeignHost checks the DNS-rebinding protection: a request reaching the
// loopback listener with another site's Host header is refused.
func rejectsForeignHost(t *testing.T, url string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "rebind.example:80"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("request with Host rebind.example: status %d, want 403", res.StatusCode)
	}
}
