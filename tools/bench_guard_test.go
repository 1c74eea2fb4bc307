package tools

import (
	"context"
	"testing"

	"github.com/cdpmcp/cdpmcp/cdpclient"
	"github.com/cdpmcp/cdpmcp/cdpclient/origins"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// BenchmarkToolsWithOriginRules is BenchmarkTools's navigate and click with
// origin rules set: every request of the page passes the Fetch guard and the
// egress proxy, the hot path the rules cost.
func BenchmarkToolsWithOriginRules(b *testing.B) {
	policy, err := origins.NewList([]string{"http://127.0.0.1:*"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	m := cdpclient.NewManager(cdpclient.Options{Launch: cdpclient.LaunchOptions{Headless: true}, Origins: policy})
	defer m.Close()
	s := New(Config{IsolateSessions: true, Timeout: callTimeout, Origins: policy}, m)
	defer s.Close()
	ctx := context.Background()
	c, err := client.NewInProcessClient(s.MCP())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		b.Fatal(err)
	}
	actions := site.URL("/actions.html")
	benchCall(b, ctx, c, "navigate", map[string]any{"url": actions}) // launches the browser
	b.Run("navigate", func(b *testing.B) {
		urls := []string{site.URL("/home.html"), site.URL("/second.html")}
		benchCalls(b, c, func(i int) (string, map[string]any) {
			return "navigate", map[string]any{"url": urls[i%2]}
		})
	})
	benchCall(b, ctx, c, "navigate", map[string]any{"url": actions})
	b.Run("click", func(b *testing.B) {
		benchCalls(b, c, func(int) (string, map[string]any) {
			return "click", map[string]any{"selector": "#inc"}
		})
	})
}
