package tools

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// BenchmarkTools measures tool calls through the MCP layer (an in-process
// client) against the test binary's headless Chromium and fixtures server.
// Besides ns/op it reports the median call in ms. Run with `make bench`.
func BenchmarkTools(b *testing.B) {
	ctx := context.Background()
	c := benchClient(b)
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
	b.Run("fill", func(b *testing.B) {
		benchCalls(b, c, func(i int) (string, map[string]any) {
			return "fill", map[string]any{"selector": "#name", "value": "Alice " + strconv.Itoa(i)}
		})
	})
	b.Run("evaluate", func(b *testing.B) {
		benchCalls(b, c, func(int) (string, map[string]any) {
			return "evaluate", map[string]any{"expression": "count.textContent"}
		})
	})
}

// benchCalls runs the call next(i) names once per iteration and reports the
// median duration; a failed call stops the benchmark.
func benchCalls(b *testing.B, c *client.Client, next func(i int) (string, map[string]any)) {
	ctx := context.Background()
	var durs []time.Duration
	for i := 0; b.Loop(); i++ {
		name, args := next(i)
		start := time.Now()
		benchCall(b, ctx, c, name, args)
		durs = append(durs, time.Since(start))
	}
	slices.Sort(durs)
	b.ReportMetric(float64(durs[len(durs)/2])/float64(time.Millisecond), "median-ms")
}

// benchCall calls a tool that must succeed.
func benchCall(b *testing.B, ctx context.Context, c *client.Client, name string, args map[string]any) {
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		b.Fatalf("%s(%v) failed: %v", name, args, res.Content)
	}
}

// benchClient connects an initialized in-process client to srv; it gets its own
// browser context.
func benchClient(b *testing.B) *client.Client {
	b.Helper()
	ctx := context.Background()
	c, err := client.NewInProcessClient(srv.MCP())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "tools-bench", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		b.Fatal(err)
	}
	return c
}
