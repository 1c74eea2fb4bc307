package tools

import (
	"context"
	"fmt"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// httpClients serves s over streamable HTTP and connects n clients, each its own
// MCP session (and so its own browser context).
func httpClients(t *testing.T, s *Server, n int) []*client.Client {
	t.Helper()
	// Sessions (and so per-client browser contexts) exist up to 2025-11-25; cmd
	// offers only those versions over HTTP for this reason.
	const version = "2025-11-25"
	handler := server.NewStreamableHTTPServer(s.MCP(), server.WithStreamableHTTPProtocolVersions(version))
	ts := httptest.NewServer(handler)
	t.Cleanup(ts.Close)
	var out []*client.Client
	for range n {
		c, err := client.NewStreamableHttpClient(ts.URL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		ctx := testCtx(t)
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = version
		init.Params.ClientInfo = mcp.Implementation{Name: "concurrency", Version: "1"}
		if _, err := c.Initialize(ctx, init); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// 100 tool calls at once across 10 pages over HTTP: every call answered, each
// with its own page's data, no deadlock.
func TestHundredConcurrentCalls(t *testing.T) {
	t.Parallel()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout}, mgr)
	defer s.Close()
	clients := httpClients(t, s, 10)
	for i, c := range clients {
		mustOK(t, callTool(t, c, "navigate", map[string]any{"url": site.URL(fmt.Sprintf("/actions.html?page=%d", i))}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), testbound.Bound())
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for i, c := range clients {
		for k := range 10 {
			wg.Go(func() {
				var name string
				var args map[string]any
				var want string
				switch k % 4 {
				case 0:
					name, args, want = "evaluate", map[string]any{"expression": fmt.Sprintf("location.search + '/%d'", k)}, fmt.Sprintf(`"?page=%d/%d"`, i, k)
				case 1:
					name, want = "getUrl", site.URL(fmt.Sprintf("/actions.html?page=%d", i))
				case 2:
					name, args, want = "getContent", map[string]any{"selector": "h1", "format": "text"}, "Actions"
				default:
					name, args, want = "click", map[string]any{"selector": "#inc"}, `"ok":true`
				}
				r, err := callToolErr(ctx, c, name, args)
				switch {
				case err != nil:
					errs <- fmt.Sprintf("client %d call %d (%s): %v", i, k, name, err)
				case r.isError:
					errs <- fmt.Sprintf("client %d call %d (%s): %s", i, k, name, r.text)
				case name == "click" && !contains(r.text, want), name != "click" && r.text != want:
					errs <- fmt.Sprintf("client %d call %d (%s) = %s, want %s", i, k, name, r.text, want)
				}
			})
		}
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		buf := make([]byte, 1<<20)
		t.Fatalf("calls still running after 60 s (deadlock?):\n%s", buf[:runtime.Stack(buf, true)])
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	// Every page counted exactly its own clicks.
	for i, c := range clients {
		if r := callTool(t, c, "evaluate", map[string]any{"expression": "count.textContent"}); r.text != `"2"` {
			t.Errorf("client %d's page counted %s clicks, want 2", i, r.text)
		}
	}
}
