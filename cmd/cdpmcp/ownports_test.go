package main

import (
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/cdpmcp/cdpmcp/internal/testbound"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// Listening on every address (--http 0.0.0.0:P), with no origin rules, the
// browser reaches cdpmcp's port through none of this machine's addresses:
// not its LAN address (as `hostname -I` lists it), not loopback; pages of
// other sites still load.
func TestOwnPortOnEveryAddress(t *testing.T) {
	t.Parallel()
	lan := ""
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			lan = n.IP.String()
			break
		}
	}
	if lan == "" {
		t.Fatalf("this machine has no address beyond loopback: %v", addrs)
	}
	s := startHTTP(t, "ownports", "--http", "0.0.0.0:0", "--auth-token", "tok-ownports-31c")
	u, _ := url.Parse(s.url)
	port := u.Port()
	ctx := testbound.Context(t)
	c, err := client.NewStreamableHttpClient("http://127.0.0.1:"+port+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer tok-ownports-31c"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := initialize(ctx, c, ""); err != nil {
		t.Fatal(err)
	}
	mustCall(t, ctx, c, "navigate", map[string]any{"url": site.URL("/secret.html")})
	if got := mustCall(t, ctx, c, "getTitle", nil); got != "Sign in" {
		t.Fatalf("a fixture page through the proxy: title %q", got)
	}
	for _, target := range []string{"http://" + net.JoinHostPort(lan, port) + "/mcp", "http://" + net.JoinHostPort(lan, port) + "/live/x",
		"http://127.0.0.1:" + port + "/mcp", "http://localhost:" + port + "/mcp"} {
		callTool(t, ctx, c, "navigate", map[string]any{"url": target})
		text, _ := callTool(t, ctx, c, "getContent", map[string]any{"format": "text"})
		if strings.Contains(text, "Unauthorized") || strings.Contains(text, "live view") || !strings.Contains(text, "own endpoints") {
			t.Errorf("%s reached cdpmcp: %q", target, text)
		}
	}
}
